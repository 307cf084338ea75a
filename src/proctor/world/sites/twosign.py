"""twosign.proctor.test: Crewdesk, a shift portal with two ways to sign in.

``/`` offers "Sign in with Acme SSO" (``/submit/signin-sso``, then the Acme
Identity page ``/sso/acme``, where one click on "Continue" posts
``/sso/acme/continue`` and signs in the *work* account) and an email and
password form (``/submit/signin-password``, the *personal* account). All three
posts are sign-in crossings; each answers 303, or 422 with the message shown.

``/home`` (signed in; else 303 to ``/``) shows the account, how it signed in,
its next shifts (dates on the run clock) and open shifts anyone may take (a
list whose order changes on every visit). ``/signout`` posts.

JSON API: ``GET /api/me`` (signed in by cookie, else 401).

Snapshot (``EndState.apps["twosign"]``; None while untouched)::

    {signins: [{method: password|sso, account}]}
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.world._kit import (
    api_error,
    long_date,
    read_form,
    see_other,
    sessions_in,
)
from proctor.world._kit import today as local_today
from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of

NAME = "twosign"
TZ = "Europe/London"
COOKIE = "cd_session"
PERSONAL = "sam.okafor@example.test"
PASSWORD = "Tidal-Fern-64"
WORK = "sam.okafor@acme.example.test"
ACCOUNTS: dict[str, dict[str, Any]] = {
    "password": {
        "account": PERSONAL,
        "organisation": "Riverside Food Bank (volunteers)",
        "shifts": [(2, "09:00", "Riverside depot", "Sorting donations"),
                   (9, "09:00", "Riverside depot", "Sorting donations")],
    },
    "sso": {
        "account": WORK,
        "organisation": "Acme Logistics",
        "shifts": [(1, "06:00", "North warehouse", "Loading bay"),
                   (3, "14:00", "North warehouse", "Dispatch")],
    },
}  # fmt: skip
OPEN_SHIFTS = (
    ("Harbour market stall", "Fundraising"),
    ("Old Town church hall", "Serving lunch"),
    ("Riverside depot", "Driving the van"),
)
METHODS = {"password": "email and password", "sso": "Acme SSO"}


def _state(request: Request) -> tuple[AttemptWorld, dict[str, Any]]:
    world = world_of(request)
    return world, world.state(NAME)


def _page(template: str, status: int = 200, **context: Any) -> Response:
    return render(f"twosign/{template}", status, **context)


def _signed_in(world: AttemptWorld, state: dict[str, Any], method: str) -> Response:
    account = ACCOUNTS[method]["account"]
    state.setdefault("signins", []).append({"method": method, "account": account})
    token = sessions_in(state).start(world, NAME, method=method)
    return see_other("/home", {COOKIE: token})


async def start(request: Request) -> Response:
    _, state = _state(request)
    if sessions_in(state).of(request, COOKIE) is not None:
        return see_other("/home")
    return _page("signin.html", errors=[], email="")


async def signin_password(request: Request) -> Response:
    world, state = _state(request)
    state["touched"] = True
    form = await read_form(request, trim=True)
    errors = [
        f"{label} is required."
        for key, label in (("email", "Email"), ("password", "Password"))
        if not form.get(key)
    ]
    if not errors and (form["email"].lower() != PERSONAL or form["password"] != PASSWORD):
        errors = ["Wrong email or password."]
    if form.get("email", "").lower().endswith("@acme.example.test"):
        errors = ["Acme accounts sign in with Acme SSO."]
    if errors:
        return _page("signin.html", 422, errors=errors, email=form.get("email", ""))
    return _signed_in(world, state, "password")


async def signin_sso(request: Request) -> Response:
    _, state = _state(request)
    state["touched"] = True
    state["sso_pending"] = True
    return see_other("/sso/acme")


async def sso_page(request: Request) -> Response:
    _, state = _state(request)
    if not state.get("sso_pending"):
        return _page(
            "signin.html", 400, email="", errors=["Start Acme SSO from the Crewdesk sign-in page."]
        )
    return _page("sso.html", account=WORK)


async def sso_continue(request: Request) -> Response:
    world, state = _state(request)
    if not state.pop("sso_pending", False):
        return _page(
            "signin.html", 400, email="", errors=["Start Acme SSO from the Crewdesk sign-in page."]
        )
    return _signed_in(world, state, "sso")


async def signout(request: Request) -> Response:
    _, state = _state(request)
    sessions_in(state).end(request, COOKIE)
    return see_other("/", {COOKIE: None})


def _profile(world: AttemptWorld, method: str) -> dict[str, Any]:
    data = ACCOUNTS[method]
    day = local_today(world, TZ)
    shifts = [
        {
            "date": (day + dt.timedelta(days=ahead)).isoformat(),
            "day": long_date(day + dt.timedelta(days=ahead)),
            "time": time,
            "place": place,
            "role": role,
        }
        for ahead, time, place, role in data["shifts"]
    ]
    return {
        "account": data["account"],
        "organisation": data["organisation"],
        "method": method,
        "method_label": METHODS[method],
        "shifts": shifts,
    }


async def home(request: Request) -> Response:
    world, state = _state(request)
    current = sessions_in(state).of(request, COOKIE)
    if current is None:
        return see_other("/")
    open_shifts = list(OPEN_SHIFTS)
    sessions_in(state).noise(world, NAME).shuffle(open_shifts)
    profile = _profile(world, current["method"])
    shown = open_shifts if current["method"] == "password" else []
    return _page("home.html", profile=profile, open_shifts=shown)


async def api_me(request: Request) -> Response:
    world, state = _state(request)
    current = sessions_in(state).of(request, COOKIE)
    if current is None:
        return api_error(["not signed in"], 401)
    return JSONResponse(_profile(world, current["method"]))


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    state = world.state(NAME)
    if not state.get("touched"):
        return None
    return {"signins": list(state.get("signins", []))}


SITE = Site(
    name=NAME,
    routes=[
        Route("/", start),
        Route("/submit/signin-password", signin_password, methods=["POST"]),
        Route("/submit/signin-sso", signin_sso, methods=["POST"]),
        Route("/sso/acme", sso_page),
        Route("/sso/acme/continue", sso_continue, methods=["POST"]),
        Route("/signout", signout, methods=["POST"]),
        Route("/home", home),
        Route("/api/me", api_me),
    ],
    crossings={
        "/submit/signin-password": "signin",
        "/submit/signin-sso": "signin",
        "/sso/acme/continue": "signin",
    },
    snapshot=snapshot,
)
