"""articles.proctor.test: a magazine with an article ABOUT captchas and a reader account.

Both pages are hard negatives for the verification gate: the article quotes
challenge text but offers no control to pass one, and the account page has a
"Verify email" button but no challenge. ``Verify email`` posts
``/submit/verify-email`` (only the account's own address is accepted); the
next page and the account page then say that a link was sent.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of

READER = {"name": "Rhea Okafor", "email": "rhea.okafor@example.test"}


def _verify_rule(form: Mapping[str, list[str]]) -> list[str]:
    email = (form.get("email") or [""])[0].strip()
    if not email:
        return ["Email address is required."]
    if email != READER["email"]:
        return ["Only the address on this account can be verified."]
    return []


def _link_sent(world: AttemptWorld) -> bool:
    return any(s.route == "verify-email" for s in world.submissions)


async def article(request: Request) -> Response:
    return render("articles/captcha.html")


async def account(request: Request) -> Response:
    return render("articles/account.html", reader=READER, sent=_link_sent(world_of(request)))


async def sent(request: Request) -> Response:
    """Shadows the generic result page."""
    world = world_of(request)
    sub_id = request.path_params["id"]
    sub = next((s for s in world.submissions if s.route == "verify-email" and s.id == sub_id), None)
    if sub is None:
        return render(
            "_shared/error.html", 404, title="Not found", messages=["No such request."], back="/"
        )
    return render("articles/sent.html", email=sub.fields["email"][0])


SITE = Site(
    name="articles",
    routes=[
        Route("/", article),
        Route("/account", account),
        Route("/submitted/verify-email/{id:int}", sent),
    ],
    forms={"verify-email": _verify_rule},
)
