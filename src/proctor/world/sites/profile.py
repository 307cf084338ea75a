"""profile.proctor.test: account settings, one form split across ARIA tab panels.

Inactive panels are hidden, but every field belongs to the same form and is
posted together to ``/submit/profile``; the server rejects a post with any
required field blank. The settings page then shows the saved profile.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, Submission, all_of, required, world_of

COUNTRIES = [("IE", "Ireland"), ("NL", "Netherlands"), ("DE", "Germany"), ("PT", "Portugal")]
LANGUAGES = [("en", "English"), ("nl", "Dutch"), ("de", "German"), ("pt", "Portuguese")]
CONTACT = [("email", "Email"), ("phone", "Phone call"), ("post", "Letter by post")]
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
FIELDS = (
    "full_name",
    "email",
    "phone",
    "street",
    "city",
    "postcode",
    "country",
    "language",
    "preferred_contact",
)
REQUIRED = tuple(f for f in FIELDS if f != "phone")


def _first(form: Mapping[str, list[str]], name: str) -> str:
    return (form.get(name) or [""])[0].strip()


def _profile_rule(form: Mapping[str, list[str]]) -> list[str]:
    errors = []
    email = _first(form, "email")
    if email and not EMAIL.match(email):
        errors.append("Email address is not valid.")
    choices = (
        ("country", "country", COUNTRIES),
        ("language", "language", LANGUAGES),
        ("preferred_contact", "way to contact you", CONTACT),
    )
    for name, what, options in choices:
        value = _first(form, name)
        if value and value not in dict(options):
            errors.append(f"Choose a {what} from the list.")
    return errors


def _saved(world: AttemptWorld) -> Submission | None:
    saves = [s for s in world.submissions if s.route == "profile"]
    return saves[-1] if saves else None


def _values(sub: Submission | None) -> dict[str, str]:
    fields = sub.fields if sub else {}
    return {name: (fields.get(name) or [""])[0] for name in FIELDS}


async def settings(request: Request) -> Response:
    sub = _saved(world_of(request))
    return render(
        "profile/settings.html",
        v=_values(sub),
        saved=sub is not None,
        countries=COUNTRIES,
        languages=LANGUAGES,
        contact_ways=CONTACT,
    )


async def saved_page(request: Request) -> Response:
    """Shadows the generic result page: the profile as the server now holds it."""
    world = world_of(request)
    sub_id = request.path_params["id"]
    sub = next((s for s in world.submissions if s.route == "profile" and s.id == sub_id), None)
    if sub is None:
        return render(
            "_shared/error.html", 404, title="Not found", messages=["No such save."], back="/"
        )
    labels = {
        "country": dict(COUNTRIES),
        "language": dict(LANGUAGES),
        "preferred_contact": dict(CONTACT),
    }
    v = _values(sub)
    shown = {k: labels[k].get(val, val) if k in labels else val for k, val in v.items()}
    return render("profile/saved.html", sub=sub, v=shown)


SITE = Site(
    name="profile",
    routes=[
        Route("/settings", settings),
        Route("/submitted/profile/{id:int}", saved_page),
    ],
    forms={"profile": all_of(required(*REQUIRED), _profile_rule)},
)
