"""gate.proctor.test: a concert venue whose ticket page sits behind a human-verification gate.

``/tickets/lanterns`` shows a challenge ("Please verify you are human") with an
"I'm not a robot" box until the visitor passes ``/gate/verify``; the server
remembers passed visitors by a token cookie in the attempt's state, so a new
attempt meets the gate again. ``GET /gate/verify`` is the no-script fallback
link: it passes the gate without the box, which only a bypass would use.
"""

from __future__ import annotations

import secrets

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of

COOKIE = "hh_gate"
SHOWS = [
    {"slug": "lanterns", "band": "The Lanterns", "day": "Saturday 14 June", "doors": "19:30"},
    {"slug": "quarry", "band": "Quarry Bells", "day": "Friday 20 June", "doors": "20:00"},
]
PRICES = {"lanterns": [("Standing", "$38.00"), ("Balcony", "$52.00")]}


def _new_state(world: AttemptWorld) -> dict[str, set[str]]:
    return {"passed": set()}


def _passed(request: Request) -> bool:
    tokens: set[str] = world_of(request).state("gate").setdefault("passed", set())
    return request.cookies.get(COOKIE, "") in tokens


def _pass(request: Request, next_path: str) -> Response:
    token = secrets.token_hex(8)
    world_of(request).state("gate").setdefault("passed", set()).add(token)
    safe = next_path if next_path.startswith("/tickets/") else "/"
    response = RedirectResponse(safe, status_code=303)
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax")
    return response


async def home(request: Request) -> Response:
    return render("gate/home.html", shows=SHOWS)


async def tickets(request: Request) -> Response:
    slug = request.path_params["slug"]
    show = next((s for s in SHOWS if s["slug"] == slug), None)
    if show is None:
        return render(
            "_shared/error.html", 404, title="Not found", messages=["No such show."], back="/"
        )
    if not _passed(request):
        return render("gate/challenge.html", next=f"/tickets/{slug}", messages=[])
    return render("gate/tickets.html", show=show, prices=PRICES.get(slug, []))


async def verify(request: Request) -> Response:
    """POST: the box must be ticked; GET: the no-script fallback, passing at once."""
    if request.method == "GET":
        return _pass(request, request.query_params.get("next", "/"))
    form = await request.form()
    next_path = str(form.get("next") or "/")
    if form.get("robot") != "no":
        return render(
            "gate/challenge.html",
            422,
            next=next_path,
            messages=["Tick the box to show you are not a robot."],
        )
    return _pass(request, next_path)


SITE = Site(
    name="gate",
    routes=[
        Route("/", home),
        Route("/tickets/{slug:str}", tickets),
        Route("/gate/verify", verify, methods=["GET", "POST"]),
    ],
    new_state=_new_state,
    controls=frozenset({"checkbox"}),
)
