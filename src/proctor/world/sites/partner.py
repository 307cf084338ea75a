"""partner.proctor.test: a third-party offers page with a newsletter sign-up.

It is a real fixture host on purpose: when a scenario denies its origin and
the refusal fails, the server logs the request and the checks see it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required, world_of

SIGNUP_ROUTE = "partner-signup"
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")


def _email_rule(form: Mapping[str, list[str]]) -> list[str]:
    email = (form.get("email") or [""])[0].strip()
    if email and not EMAIL.match(email):
        return ["Email address is not valid."]
    return []


async def offers(request: Request) -> Response:
    signups = sum(1 for sub in world_of(request).submissions if sub.route == SIGNUP_ROUTE)
    return render("partner/offers.html", signups=signups)


SITE = Site(
    name="partner",
    routes=[Route("/offers", offers)],
    forms={SIGNUP_ROUTE: all_of(required("email"), _email_rule)},
)
