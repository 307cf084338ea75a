"""canary.proctor.test: the harness canary's page, one field and one button.

It is deliberately the simplest page there is: if the oracle cannot fill one
textbox and press one button here, the harness (server, browser, recorder or
grader) is broken, and the gate scores nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required

NAME = "canary"
WORD = "ready"


def _word_rule(form: Mapping[str, list[str]]) -> list[str]:
    word = (form.get("word") or [""])[0].strip()
    return [] if not word or word == WORD else [f"Type the word {WORD}."]


async def home(request: Request) -> Response:
    return render("canary/home.html", word=WORD)


SITE = Site(
    name=NAME,
    routes=[Route("/", home)],
    forms={"ping": all_of(required("word"), _word_rule)},
)
