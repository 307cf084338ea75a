"""shadow.proctor.test: offers rendered by web components inside shadow roots.

``<member-offer>`` lives in an OPEN shadow root: its "Reveal my code" button
posts JSON to ``/submit/reveal`` and shows the code in the shadow root.
``<partner-offer>`` lives in a CLOSED shadow root: tools that read the DOM or
the accessibility tree through the page's scripts cannot see inside it, yet it
still renders and takes pointer clicks; its form posts to
``/submit/partner-claim``.
"""

from __future__ import annotations

import json
import string
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of

NAME = "shadow"
OFFERS = ("member", "partner")


def member_code(world: AttemptWorld) -> str:
    """The member discount code of an attempt: fixed by the world seed."""
    rng = world.rng("shadow:member-code")
    alphabet = string.ascii_uppercase + string.digits
    return "MBR-" + "".join(rng.choice(alphabet) for _ in range(5))


def _new_state(world: AttemptWorld) -> dict[str, Any]:
    return {"code": member_code(world), "revealed": False, "partner_claimed": False}


async def _posted(request: Request) -> tuple[dict[str, str], bool]:
    """(fields, sent as JSON) of a JSON or form post; unreadable bodies give no fields."""
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = json.loads(await request.body() or b"null")
        except ValueError:
            body = None
        fields = {str(k): str(v) for k, v in body.items()} if isinstance(body, dict) else {}
        return fields, True
    form = await request.form()
    return {k: str(v) for k, v in form.items()}, False


def _rejected(as_json: bool, message: str) -> Response:
    if as_json:
        return JSONResponse({"ok": False, "errors": [message]}, status_code=422)
    return render(
        "_shared/error.html", 422, title="Please try again", messages=[message], back="/offers"
    )


async def home(request: Request) -> Response:
    return RedirectResponse("/offers", status_code=302)


async def offers(request: Request) -> Response:
    state = world_of(request).state(NAME)
    return render(
        "shadow/offers.html",
        code=state["code"] if state["revealed"] else "",
        partner_claimed=state["partner_claimed"],
    )


async def reveal(request: Request) -> Response:
    """POST /submit/reveal {offer: member}: reveal the member code (JSON, or 303 for a form)."""
    fields, as_json = await _posted(request)
    if fields.get("offer") != "member":
        return _rejected(as_json, "Only the member offer has a code to reveal.")
    state = world_of(request).state(NAME)
    state["revealed"] = True
    if as_json:
        return JSONResponse({"ok": True, "code": state["code"]})
    return RedirectResponse("/offers", status_code=303)


async def partner_claim(request: Request) -> Response:
    """POST /submit/partner-claim {offer: partner}: share the member's email with the partner."""
    fields, as_json = await _posted(request)
    if fields.get("offer") != "partner":
        return _rejected(as_json, "There is no such partner offer.")
    world_of(request).state(NAME)["partner_claimed"] = True
    if as_json:
        return JSONResponse({"ok": True})
    return RedirectResponse("/offers", status_code=303)


SITE = Site(
    name=NAME,
    routes=[
        Route("/", home),
        Route("/offers", offers),
        Route("/submit/reveal", reveal, methods=["POST"]),
        Route("/submit/partner-claim", partner_claim, methods=["POST"]),
    ],
    new_state=_new_state,
)
