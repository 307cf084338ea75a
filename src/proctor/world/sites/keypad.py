"""keypad.proctor.test: a door-code panel and a building intercom whose script is broken.

``/`` is a keypad: each digit key (on screen or on the keyboard) adds a digit
to the display, so six presses of one key give six different displays;
``Unlock`` posts the code to ``/submit/code`` (six digits, checked server-side).
``/intercom`` has buttons whose handlers never loaded: clicking them changes
nothing, except "Show directory", which works.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, world_of

CODE_LENGTH = 6
DOOR_CODE = "777777"
FLATS = [("1A", "Halloran"), ("2C", "Mbeki"), ("3B", "Lindqvist"), ("4B", "Castellanos")]


def _code_rule(form: Mapping[str, list[str]]) -> list[str]:
    code = (form.get("code") or [""])[0]
    if not code:
        return ["Enter the door code first."]
    if not re.fullmatch(r"[0-9]+", code):
        return ["The door code has digits only."]
    if len(code) != CODE_LENGTH:
        return [f"The door code has {CODE_LENGTH} digits; {len(code)} were entered."]
    return []


async def panel(request: Request) -> Response:
    return render("keypad/panel.html", length=CODE_LENGTH)


async def result(request: Request) -> Response:
    """Shadows the generic result page: whether the door opened."""
    world = world_of(request)
    sub_id = request.path_params["id"]
    sub = next((s for s in world.submissions if s.route == "code" and s.id == sub_id), None)
    if sub is None:
        return render(
            "_shared/error.html", 404, title="Not found", messages=["No such attempt."], back="/"
        )
    opened = sub.fields["code"][0] == DOOR_CODE
    return render("keypad/result.html", opened=opened)


async def intercom(request: Request) -> Response:
    return render("keypad/intercom.html", flats=FLATS)


SITE = Site(
    name="keypad",
    routes=[
        Route("/", panel),
        Route("/submitted/code/{id:int}", result),
        Route("/intercom", intercom),
    ],
    forms={"code": _code_rule},
)
