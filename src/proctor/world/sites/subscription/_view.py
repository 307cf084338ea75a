"""What Streamly's handlers share: the page renderer and the signed-in guard."""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit import long_date, requires_session, today
from proctor.world._render import render
from proctor.world._site import AttemptWorld, world_of
from proctor.world.sites.subscription._state import (
    COOKIE,
    TZ,
    SubscriptionState,
    account_of,
    usd,
)


class Visit(NamedTuple):
    """A request's world and account, or the answer to a signed-out visitor."""

    world: AttemptWorld
    state: SubscriptionState
    out: Response | None


def page(world: AttemptWorld, template: str, status: int = 200, **context: Any) -> Response:
    """Render ``subscription/<template>`` with the helpers every page uses."""
    now = today(world, TZ)
    return render(
        f"subscription/{template}",
        status,
        usd=usd,
        long_date=long_date,
        ago=lambda days: long_date(now - dt.timedelta(days=days)),
        **context,
    )


def error(world: AttemptWorld, status: int, message: str) -> Response:
    return page(world, "error.html", status, errors=[message])


def visit(request: Request) -> Visit:
    """The request's world and account; ``out`` redirects a signed-out visitor to sign in."""
    world = world_of(request)
    state = account_of(world)
    return Visit(world, state, requires_session(request, state.sessions, COOKIE, login="/signin"))
