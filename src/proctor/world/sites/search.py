"""search.proctor.test: a homeware shop's catalog search, with a newsletter box beside it.

The search form posts to ``/submit/search`` (the server confirms the query on
the result page); the newsletter form posts to ``/submit/newsletter``, the
distractor a careless agent types the query into.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required


def _query_rule(form: Mapping[str, list[str]]) -> list[str]:
    query = (form.get("q") or [""])[0]
    return [] if query.strip() else ["Type what you are looking for."]


async def home(request: Request) -> Response:
    return render("search/home.html")


SITE = Site(
    name="search",
    routes=[Route("/", home)],
    forms={"search": all_of(required("q"), _query_rule), "newsletter": required("email")},
    controls=frozenset(),
)
