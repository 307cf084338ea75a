"""forms.proctor.test: everyday forms (contact) with server-side validation."""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required

TOPICS = [("billing", "Billing question"), ("bug", "Report a problem"), ("sales", "Talk to sales")]
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")


def _contact_rule(form: Mapping[str, list[str]]) -> list[str]:
    errors = []
    email = (form.get("email") or [""])[0]
    if email and not EMAIL.match(email):
        errors.append("Email address is not valid.")
    topic = (form.get("topic") or [""])[0]
    if topic and topic not in dict(TOPICS):
        errors.append("Choose a topic from the list.")
    return errors


async def contact(request: Request) -> Response:
    return render("forms/contact.html", topics=TOPICS)


SITE = Site(
    name="forms",
    routes=[Route("/contact", contact)],
    forms={"contact": all_of(required("name", "email", "topic", "message"), _contact_rule)},
)
