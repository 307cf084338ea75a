"""signup.proctor.test: a sign-up form whose button stays disabled until it is valid.

The page's script keeps "Create account" disabled until the password is long
enough, its confirmation matches and the terms box is ticked; the server
enforces the same rules on ``/submit/signup`` whatever the client did.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required, world_of

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
MIN_PASSWORD = 10
TERMS_VALUE = "accepted"


def _first(form: Mapping[str, list[str]], name: str) -> str:
    return (form.get(name) or [""])[0]


def _signup_rule(form: Mapping[str, list[str]]) -> list[str]:
    errors = []
    email = _first(form, "email").strip()
    if email and not EMAIL.match(email):
        errors.append("Email address is not valid.")
    password = _first(form, "password")
    if password and len(password) < MIN_PASSWORD:
        errors.append(f"Password must be at least {MIN_PASSWORD} characters.")
    if password and _first(form, "password_confirm") != password:
        errors.append("Passwords do not match.")
    if _first(form, "terms") != TERMS_VALUE:
        errors.append("You must accept the Terms of Service.")
    return errors


async def join(request: Request) -> Response:
    return render("signup/join.html", min_password=MIN_PASSWORD, terms_value=TERMS_VALUE)


async def welcome(request: Request) -> Response:
    """Shadows the generic result page, which would echo the password back."""
    world = world_of(request)
    sub_id = request.path_params["id"]
    sub = next((s for s in world.submissions if s.route == "signup" and s.id == sub_id), None)
    if sub is None:
        return render(
            "_shared/error.html", 404, title="Not found", messages=["No such account."], back="/"
        )
    return render(
        "signup/welcome.html",
        name=_first(sub.fields, "full_name"),
        email=_first(sub.fields, "email"),
        account=sub.id,
    )


SITE = Site(
    name="signup",
    routes=[
        Route("/join", join),
        Route("/submitted/signup/{id:int}", welcome),
    ],
    forms={
        "signup": all_of(
            required("full_name", "email", "password", "password_confirm"), _signup_rule
        )
    },
)
