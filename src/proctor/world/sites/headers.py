"""headers.proctor.test: an outfitter's site whose header links lead to seven pages.

Every page shares the header. The Careers link opens in a new tab
(``target=_blank``); the others navigate the tab they are clicked in. The
model tier's ``header-enumeration`` asks for five of them, clicked.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site

PAGES = {
    "": ("Home", "Northwind Outfitters makes gear for wet weather and long walks."),
    "products": ("Products", "Rain shells, merino layers and trail packs, made to be mended."),
    "pricing": ("Pricing", "Free repairs for two years; shipping is free over $80."),
    "docs": ("Docs", "Care guides: washing a rain shell, re-proofing, patching a pack."),
    "blog": ("Blog", "Field notes from the West Highland Way, and what broke on it."),
    "careers": ("Careers", "We are hiring a repair technician and a pattern cutter."),
    "contact": ("Contact", "Write to help@northwind.example or call 0131 555 0199."),
}
NAV = [
    ("Products", "/products", False),
    ("Pricing", "/pricing", False),
    ("Docs", "/docs", False),
    ("Blog", "/blog", False),
    ("Careers", "/careers", True),
    ("Contact", "/contact", False),
]


def _page(slug: str) -> Response:
    title, text = PAGES[slug]
    return render("headers/page.html", title=title, text=text, nav=NAV, here=f"/{slug}")


async def home(request: Request) -> Response:
    return _page("")


async def page(request: Request) -> Response:
    slug = request.path_params["slug"]
    if slug not in PAGES or not slug:
        return render(
            "_shared/error.html", 404, title="Not found", messages=["No such page."], back="/"
        )
    return _page(slug)


SITE = Site(
    name="headers",
    routes=[Route("/", home), Route("/{slug:str}", page)],
    controls=frozenset({"new_tab"}),
)
