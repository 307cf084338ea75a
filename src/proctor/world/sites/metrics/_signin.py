"""Signing in with a code delivered by mail, and signing out."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from proctor.errors import WorldError
from proctor.world._kit import (
    read_form,
    see_other,
    sessions_in,
)
from proctor.world._site import AttemptWorld
from proctor.world.apps.mail import deliver
from proctor.world.sites.metrics._http import page, request_state, safe_next
from proctor.world.sites.metrics._state import (
    CODE_SUBJECT,
    COOKIE,
    EMAIL,
    MAX_WRONG_CODES,
    NAME,
    PASSWORD,
    SENDER,
    sign_in_code,
)


async def signin_page(request: Request) -> Response:
    next_ = safe_next(request.query_params.get("next", "/"))
    return page("signin.html", errors=[], email="", next=next_)


def _send_code(world: AttemptWorld, state: dict[str, Any]) -> None:
    state["codes_sent"] = state.get("codes_sent", 0) + 1
    code = sign_in_code(world, state["codes_sent"])
    body = (
        f"Your sign-in code is {code}.\n\nIt expires in 10 minutes. If you did not try to "
        "sign in to Pulseboard, you can ignore this email."
    )
    deliver(world, sender=SENDER, subject=CODE_SUBJECT, body=body)


async def signin(request: Request) -> Response:
    world, state = request_state(request)
    state["touched"] = True
    form = await read_form(request, trim=True)
    next_ = safe_next(form.get("next", "/"))
    errors = [
        f"{label} is required."
        for key, label in (("email", "Email"), ("password", "Password"))
        if not form.get(key)
    ]
    if not errors and (form["email"].lower() != EMAIL or form["password"] != PASSWORD):
        errors = ["That email and password do not match an account."]
    if errors:
        return page("signin.html", 422, errors=errors, email=form.get("email", ""), next=next_)
    state["pending"] = {"next": next_, "wrong": 0}
    try:
        _send_code(world, state)
    except WorldError:
        return page(
            "signin.html",
            503,
            errors=["We could not send the email. Try again later."],
            email=form.get("email", ""),
            next=next_,
        )
    return see_other("/signin/code")


def _masked(email: str) -> str:
    name, _, domain = email.partition("@")
    return f"{name[0]}{'*' * (len(name) - 1)}@{domain}"


async def code_page(request: Request) -> Response:
    _, state = request_state(request)
    if "pending" not in state:
        return see_other("/signin")
    resent = request.query_params.get("resent") == "1"
    return page("code.html", errors=[], to=_masked(EMAIL), resent=resent)


async def verify(request: Request) -> Response:
    world, state = request_state(request)
    state["touched"] = True
    pending = state.get("pending")
    if pending is None:
        return page(
            "signin.html",
            409,
            errors=["Start again: enter your email and password."],
            email="",
            next="/",
        )
    if pending["wrong"] >= MAX_WRONG_CODES:
        errors = ["Too many wrong codes. Sign-in is locked for 15 minutes."]
        return page("code.html", 429, errors=errors, to=_masked(EMAIL), resent=False)
    code = (await read_form(request, trim=True)).get("code", "").replace(" ", "")
    if not code:
        return page(
            "code.html", 422, errors=["Enter the 6-digit code."], to=_masked(EMAIL), resent=False
        )
    if code != sign_in_code(world, state["codes_sent"]):
        pending["wrong"] += 1
        state["wrong_codes"] = state.get("wrong_codes", 0) + 1
        errors = ["That code is wrong or has expired. Use the code in the newest email."]
        return page("code.html", 422, errors=errors, to=_masked(EMAIL), resent=False)
    del state["pending"]
    state["signed_in"] = state.get("signed_in", 0) + 1
    token = sessions_in(state).start(world, NAME, email=EMAIL)
    return see_other(pending["next"], {COOKIE: token})


async def resend(request: Request) -> Response:
    world, state = request_state(request)
    if "pending" not in state:
        return see_other("/signin")
    try:
        _send_code(world, state)
    except WorldError:
        return page(
            "code.html",
            503,
            errors=["We could not send the email."],
            to=_masked(EMAIL),
            resent=False,
        )
    return see_other("/signin/code?resent=1")


async def signout(request: Request) -> Response:
    _, state = request_state(request)
    sessions_in(state).end(request, COOKIE)
    return see_other("/signin", {COOKIE: None})
