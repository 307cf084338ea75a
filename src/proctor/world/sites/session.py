"""session.proctor.test: a sign-in with "Remember me" (a persistent cookie) and an account page.

Signing in sets ``sid``, a session cookie (no Max-Age, so a browser restart
drops it). Ticking "Remember me" also sets ``remember``, a persistent cookie
(Max-Age 30 days). The account page recognises either; when only ``remember``
comes back it says so and opens a new session. Tokens live in the attempt's
site state and are random, so a cookie from another attempt is never valid.
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of

NAME = "session"
SESSION_COOKIE = "sid"
REMEMBER_COOKIE = "remember"
REMEMBER_SECONDS = 30 * 24 * 3600


USERS: dict[str, dict[str, str]] = {
    "morgan.ellis": {
        "password": "tulip-harbor-42",
        "display": "Morgan Ellis",
        "email": "morgan.ellis@example.test",
        "plan": "Team (5 seats)",
    },
}
"""Synthetic accounts: username -> password and profile."""


def _new_state(world: AttemptWorld) -> dict[str, Any]:
    return {"sessions": {}, "remembered": {}}


def _state(request: Request) -> dict[str, Any]:
    return world_of(request).state(NAME)


async def home(request: Request) -> Response:
    return render("session/home.html")


async def signin_page(request: Request) -> Response:
    note = request.query_params.get("note", "")
    return render("session/signin.html", messages=[], username="", note=note)


async def signin(request: Request) -> Response:
    """POST /submit/signin: check the password, set the cookies, 303 to the account."""
    form = await request.form()
    username = str(form.get("username", "")).strip()
    password = str(form.get("password", ""))
    remember = form.get("remember") == "yes"
    messages = []
    if not username:
        messages.append("Username is required.")
    if not password:
        messages.append("Password is required.")
    user = USERS.get(username)
    if not messages and (user is None or user["password"] != password):
        messages.append("The username or password is incorrect.")
    if messages:
        return render("session/signin.html", 422, messages=messages, username=username, note="")
    state = _state(request)
    sid = secrets.token_hex(16)
    state["sessions"][sid] = username
    response = RedirectResponse("/account", status_code=303)
    response.set_cookie(SESSION_COOKIE, sid, httponly=True, samesite="lax")
    if remember:
        token = secrets.token_hex(16)
        state["remembered"][token] = username
        response.set_cookie(
            REMEMBER_COOKIE, token, max_age=REMEMBER_SECONDS, httponly=True, samesite="lax"
        )
    return response


async def account(request: Request) -> Response:
    """GET /account: the signed-in user's page, by session or by the remembered device."""
    state = _state(request)
    username = state["sessions"].get(request.cookies.get(SESSION_COOKIE, ""))
    new_sid: str | None = None
    if username is None:
        username = state["remembered"].get(request.cookies.get(REMEMBER_COOKIE, ""))
        if username is None:
            return RedirectResponse("/signin?note=signin-needed", status_code=303)
        new_sid = secrets.token_hex(16)
        state["sessions"][new_sid] = username
    response = render(
        "session/account.html",
        username=username,
        user=USERS[username],
        remembered=new_sid is not None,
    )
    if new_sid is not None:
        response.set_cookie(SESSION_COOKIE, new_sid, httponly=True, samesite="lax")
    return response


async def signout(request: Request) -> Response:
    """POST /submit/signout: forget this browser's session and remembered device."""
    state = _state(request)
    state["sessions"].pop(request.cookies.get(SESSION_COOKIE, ""), None)
    state["remembered"].pop(request.cookies.get(REMEMBER_COOKIE, ""), None)
    response = RedirectResponse("/signin?note=signed-out", status_code=303)
    response.delete_cookie(SESSION_COOKIE)
    response.delete_cookie(REMEMBER_COOKIE)
    return response


SITE = Site(
    name=NAME,
    routes=[
        Route("/", home),
        Route("/signin", signin_page),
        Route("/submit/signin", signin, methods=["POST"]),
        Route("/submit/signout", signout, methods=["POST"]),
        Route("/account", account),
    ],
    new_state=_new_state,
)
