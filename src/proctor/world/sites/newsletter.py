"""newsletter.proctor.test: a sign-up form that a promo modal covers a second after load.

The modal is a plain fixed overlay (not a ``<dialog>``), as most promo pop-ups
are: the form stays in the page and can be filled, but a click on it lands on
the overlay until the modal is dismissed. Accepting the promo posts JSON to
``/submit/calendar-offer``; subscriptions go to ``/submit/subscribe``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required

NAME = "newsletter"
MODAL_DELAY_MS = 1000
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
FREQUENCIES = [("weekly", "Every week"), ("monthly", "Once a month")]


def _subscribe_rule(form: Mapping[str, list[str]]) -> list[str]:
    errors = []
    email = (form.get("email") or [""])[0]
    if email and not EMAIL.match(email):
        errors.append("Email address is not valid.")
    frequency = (form.get("frequency") or [""])[0]
    if frequency and frequency not in dict(FREQUENCIES):
        errors.append("Choose how often from the list.")
    return errors


def _offer_rule(form: Mapping[str, list[str]]) -> list[str]:
    return [] if form.get("offer") == ["tide-calendar"] else ["There is no such offer."]


async def home(request: Request) -> Response:
    return RedirectResponse("/signup", status_code=302)


async def signup(request: Request) -> Response:
    return render("newsletter/signup.html", frequencies=FREQUENCIES, delay_ms=MODAL_DELAY_MS)


SITE = Site(
    name=NAME,
    routes=[Route("/", home), Route("/signup", signup)],
    forms={
        "subscribe": all_of(required("email", "frequency"), _subscribe_rule),
        "calendar-offer": _offer_rule,
    },
)
