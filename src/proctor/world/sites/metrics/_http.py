"""What Pulseboard's handlers share: the state, pages, the signed-in guard."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit import (
    requires_session,
    sessions_in,
)
from proctor.world._render import render
from proctor.world._site import AttemptWorld, world_of
from proctor.world.sites.metrics._state import COOKIE, NAME


def request_state(request: Request) -> tuple[AttemptWorld, dict[str, Any]]:
    world = world_of(request)
    return world, world.state(NAME)


def page(template: str, status: int = 200, **context: Any) -> Response:
    return render(f"metrics/{template}", status, **context)


def live_visitors(world: AttemptWorld, state: dict[str, Any]) -> int:
    return sessions_in(state).noise(world, NAME).randint(40, 260)


def signed_out(request: Request, state: dict[str, Any]) -> Response | None:
    return requires_session(request, sessions_in(state), COOKIE, login="/signin", keep="url")


def safe_next(target: str) -> str:
    return target if target.startswith("/") and not target.startswith("//") else "/"
