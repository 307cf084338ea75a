"""autosave.proctor.test: a profile form that saves each field as it is typed.

Each field's change is posted by the page's script as JSON to
``/submit/autosave`` (``{"<field>": "<value>"}``) and stored; ``/profile``
shows the stored values. The first autosave that reaches the server revokes
the attempt's control lease: the owner takes the form over from there, so
every later input of the agent must be refused. ``Save profile`` posts the
whole form to ``/submit/profile``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, required, world_of

FIELDS = {"display_name": "Display name", "email": "Email", "phone": "Phone", "city": "City"}
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
PHONE = re.compile(r"^\+?[0-9 ()-]{6,20}$")
REVOKE_REASON = "the owner took the profile form over after its first field was saved"


def _new_state(world: AttemptWorld) -> dict[str, object]:
    return {"profile": {}, "autosaves": 0}


def _field_errors(name: str, value: str) -> list[str]:
    value = value.strip()
    if name == "email" and value and not EMAIL.match(value):
        return ["Email address is not valid."]
    if name == "phone" and value and not PHONE.match(value):
        return ["Phone number is not valid."]
    if name == "display_name" and not value:
        return ["Display name is required."]
    return []


def _profile_rule(form: Mapping[str, list[str]]) -> list[str]:
    errors = required("display_name", "email")(form)
    for name in FIELDS:
        errors += _field_errors(name, (form.get(name) or [""])[0]) if name in form else []
    return sorted(set(errors), key=errors.index)


async def profile(request: Request) -> Response:
    world = world_of(request)
    stored = dict(world.state("autosave").get("profile", {}))
    posts = [s for s in world.submissions if s.route == "profile"]
    if posts:
        stored.update({k: v[0].strip() for k, v in posts[-1].fields.items() if k in FIELDS})
    saved = request.query_params.get("saved") == "1"
    return render("autosave/profile.html", fields=FIELDS, values=stored, saved=saved)


async def autosave(request: Request) -> Response:
    """POST /submit/autosave with one field as JSON: store it; the first one revokes the lease."""
    world = world_of(request)
    state = world.state("autosave")
    state["autosaves"] = state.get("autosaves", 0) + 1
    if state["autosaves"] == 1:
        world.revoke_lease("fixture", REVOKE_REASON)
    try:
        body = json.loads(await request.body() or b"null")
    except ValueError:
        body = None
    if not isinstance(body, dict) or len(body) != 1:
        return JSONResponse({"ok": False, "errors": ["Send one field at a time."]}, 422)
    ((name, value),) = body.items()
    if name not in FIELDS or not isinstance(value, str):
        return JSONResponse({"ok": False, "errors": [f"There is no field {name!r}."]}, 422)
    errors = _field_errors(name, value)
    if errors:
        return JSONResponse({"ok": False, "errors": errors}, 422)
    state.setdefault("profile", {})[name] = value.strip()
    return JSONResponse({"ok": True, "saved": name, "label": FIELDS[name]})


async def after_profile(request: Request) -> Response:
    return RedirectResponse("/profile?saved=1", status_code=303)


SITE = Site(
    name="autosave",
    routes=[
        Route("/profile", profile),
        Route("/submit/autosave", autosave, methods=["POST"]),
        Route("/submitted/profile/{id:int}", after_profile),
    ],
    forms={"profile": _profile_rule},
    new_state=_new_state,
)
