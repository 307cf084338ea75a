"""booking.proctor.test: Tablefinder, restaurant search and table booking.

Pages: ``/`` (search form), ``/search?area=&cuisine=&party=`` (results, with a
promoted listing on top that ignores the filters), ``/r/<slug>?party=`` (a
restaurant: its tables for today and the next six days, 17:30 to 21:30, with a
viewer count that changes on every visit), ``/r/<slug>/book?date=&time=&party=``
(the booking form), ``/bookings`` (upcoming and past bookings; two past ones
are seeded), ``/bookings/<ref>``.

Posts: ``/submit/book`` (303 to the booking; 422 with the messages shown for a
bad form, 409 when the table is taken) and ``/bookings/<ref>/cancel`` (a
destructive crossing). Dates are the run clock's days (Europe/London); each
day row of the grid carries ``data-days-ahead`` and each free slot
``data-time``. Availability comes from the seed, except the fixed slots in
``FIXED`` that scenarios rely on.

JSON API (read only): ``GET /api/restaurants?area=&cuisine=&party=``,
``GET /api/restaurants/<slug>/availability?party=``, ``GET /api/bookings``.

Snapshot (``EndState.apps["booking"]``; None until something is posted)::

    {bookings: [{ref, restaurant, restaurant_name, date, days_ahead, time, party,
                 name, email, phone, status, seeded}]}
"""

from __future__ import annotations

import datetime as dt
import re
import string
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of
from proctor.world.sites._kit import long_date, noise, posted, see_other, today

NAME = "booking"
TZ = "Europe/London"
DAYS = 7
TIMES = tuple(f"{h:02d}:{m:02d}" for h in range(17, 22) for m in (0, 30))[1:]
"""17:30 to 21:30, every half hour."""
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
PHONE = re.compile(r"^\+?[0-9][0-9 ()-]{6,18}[0-9]$")


@dataclass(frozen=True)
class Restaurant:
    slug: str
    name: str
    area: str
    cuisine: str
    price: str
    rating: float
    max_party: int
    blurb: str
    promoted: bool = False


RESTAURANTS = (
    Restaurant("harbour-grill", "Harbour Grill", "Harbourside", "Seafood", "£££", 4.3, 10,
               "Grilled fish on the quay.", promoted=True),
    Restaurant("osteria-lupa", "Osteria Lupa", "Old Town", "Italian", "£££", 4.8, 8,
               "Handmade pasta and a long wine list."),
    Restaurant("nonna-vera", "Trattoria Nonna Vera", "Old Town", "Italian", "££", 4.6, 6,
               "Family recipes from Liguria."),
    Restaurant("pasta-fiume", "Pasta Bar Fiume", "Old Town", "Italian", "£", 4.4, 2,
               "Counter seats only, pasta to order."),
    Restaurant("forno-rosso", "Forno Rosso", "Harbourside", "Italian", "££", 4.5, 6,
               "Wood-fired pizza by the water."),
    Restaurant("saffron-lane", "Saffron Lane", "Old Town", "Indian", "££", 4.7, 8,
               "Regional curries and a tandoor."),
    Restaurant("kumo", "Kumo", "Riverside", "Japanese", "£££", 4.6, 4,
               "Sushi counter and small plates."),
    Restaurant("la-cantina", "La Cantina", "Riverside", "Spanish", "££", 4.2, 12,
               "Tapas and sherry."),
    Restaurant("green-fork", "The Green Fork", "Riverside", "Vegetarian", "££", 4.5, 6,
               "Seasonal vegetables, nothing else."),
)  # fmt: skip
AREAS = ("Old Town", "Harbourside", "Riverside")
CUISINES = ("Italian", "Seafood", "Indian", "Japanese", "Spanish", "Vegetarian")
FIXED: dict[tuple[str, int, str], bool] = {
    ("nonna-vera", 3, "19:30"): True,
    ("nonna-vera", 3, "19:00"): False,
    ("nonna-vera", 3, "20:00"): True,
    ("nonna-vera", 2, "19:30"): True,
    ("osteria-lupa", 3, "19:30"): False,
    ("osteria-lupa", 3, "19:00"): True,
    ("osteria-lupa", 3, "20:00"): True,
    ("forno-rosso", 3, "19:30"): True,
}
"""(restaurant, days ahead, time) -> free: slots scenarios rely on, whatever the seed."""


def _slug(text: str) -> str:
    return text.lower().replace(" ", "-")


def restaurant(slug: str) -> Restaurant | None:
    return next((r for r in RESTAURANTS if r.slug == slug), None)


def _free_by_seed(world: AttemptWorld, slug: str, ahead: int, time: str) -> bool:
    fixed = FIXED.get((slug, ahead, time))
    if fixed is not None:
        return fixed
    return world.rng(f"booking:{slug}:{ahead}:{time}").random() < 0.45


def _bookings(world: AttemptWorld) -> list[dict[str, Any]]:
    state = world.state(NAME)
    if "bookings" not in state:
        day = today(world, TZ)
        state["bookings"] = [
            _record(
                "osteria-lupa", day - dt.timedelta(days=23), "20:00", 4, "TF-7Q2LM", "completed"
            ),
            _record("forno-rosso", day - dt.timedelta(days=9), "19:30", 2, "TF-3KD8P", "cancelled"),
        ]
    bookings: list[dict[str, Any]] = state["bookings"]
    return bookings


def _record(
    slug: str,
    day: dt.date,
    time: str,
    party: int,
    ref: str,
    status: str,
    who: tuple[str, str, str] = ("Priya Raman", "priya.raman@example.test", "07700 900418"),
    seeded: bool = True,
) -> dict[str, Any]:
    place = restaurant(slug)
    assert place is not None
    name, email, phone = who
    return {
        "ref": ref,
        "restaurant": slug,
        "restaurant_name": place.name,
        "date": day.isoformat(),
        "time": time,
        "party": party,
        "name": name,
        "email": email,
        "phone": phone,
        "status": status,
        "seeded": seeded,
    }


def is_free(world: AttemptWorld, slug: str, day: dt.date, time: str) -> bool:
    """Whether the table is free: by the seed, and not taken by a booking of this attempt."""
    ahead = (day - today(world, TZ)).days
    if not 0 <= ahead < DAYS or time not in TIMES:
        return False
    taken = any(
        b["restaurant"] == slug
        and b["date"] == day.isoformat()
        and b["time"] == time
        and b["status"] == "confirmed"
        for b in _bookings(world)
    )
    return not taken and _free_by_seed(world, slug, ahead, time)


def _party(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() and 1 <= int(text) <= 12 else None


def _days(world: AttemptWorld) -> list[dt.date]:
    start = today(world, TZ)
    return [start + dt.timedelta(days=n) for n in range(DAYS)]


def _day_label(day: dt.date, start: dt.date) -> str:
    ahead = (day - start).days
    if ahead == 0:
        return f"Today, {day.day} {day:%b}"
    if ahead == 1:
        return f"Tomorrow, {day.day} {day:%b}"
    return f"{day.day} {day:%B}"


def _grid(world: AttemptWorld, place: Restaurant, party: int) -> list[dict[str, Any]]:
    start = today(world, TZ)
    rows = []
    for day in _days(world):
        slots = [
            {"time": t, "free": party <= place.max_party and is_free(world, place.slug, day, t)}
            for t in TIMES
        ]
        rows.append(
            {
                "date": day,
                "ahead": (day - start).days,
                "label": _day_label(day, start),
                "slots": slots,
            }
        )
    return rows


def _search(area: str, cuisine: str, party: int) -> tuple[list[Restaurant], list[Restaurant]]:
    """(bookable matches, matches too small for the party); promoted ones are not results."""
    hits = [
        r
        for r in RESTAURANTS
        if not r.promoted
        and (not area or _slug(r.area) == area)
        and (not cuisine or _slug(r.cuisine) == cuisine)
    ]
    return [r for r in hits if party <= r.max_party], [r for r in hits if party > r.max_party]


def _page(template: str, status: int = 200, **context: Any) -> Response:
    return render(
        f"booking/{template}",
        status,
        areas=AREAS,
        cuisines=CUISINES,
        slug=_slug,
        long_date=long_date,
        **context,
    )


async def home(request: Request) -> Response:
    return _page("home.html", area="", cuisine="", party=2, errors=[])


async def search(request: Request) -> Response:
    world = world_of(request)
    query = request.query_params
    area, cuisine = query.get("area", ""), query.get("cuisine", "")
    party = _party(query.get("party", "2"))
    errors = []
    if area and area not in {_slug(a) for a in AREAS}:
        errors.append("Choose an area from the list.")
    if cuisine and cuisine not in {_slug(c) for c in CUISINES}:
        errors.append("Choose a cuisine from the list.")
    if party is None:
        errors.append("Party size must be a number from 1 to 12.")
    if errors:
        return _page("home.html", 400, area=area, cuisine=cuisine, party=2, errors=errors)
    assert party is not None
    found, small = _search(area, cuisine, party)
    promoted = [r for r in RESTAURANTS if r.promoted]
    rng = noise(world, world.state(NAME), NAME)
    featured = rng.choice([r for r in RESTAURANTS if not r.promoted]).name
    return _page(
        "results.html",
        area=area,
        cuisine=cuisine,
        party=party,
        found=found,
        small=small,
        promoted=promoted,
        featured=featured,
        errors=[],
    )


async def restaurant_page(request: Request) -> Response:
    world = world_of(request)
    place = restaurant(request.path_params["slug"])
    if place is None:
        return _page(
            "home.html", 404, area="", cuisine="", party=2, errors=["There is no such restaurant."]
        )
    party = _party(request.query_params.get("party", "2"))
    if party is None:
        return _page(
            "home.html",
            400,
            area="",
            cuisine="",
            party=2,
            errors=["Party size must be a number from 1 to 12."],
        )
    viewers = noise(world, world.state(NAME), NAME).randint(3, 40)
    return _page(
        "restaurant.html",
        place=place,
        party=party,
        grid=_grid(world, place, party),
        viewers=viewers,
    )


def _slot_errors(world: AttemptWorld, values: dict[str, str]) -> tuple[list[str], int]:
    """Messages about the restaurant, date, time and party, and the status to answer."""
    place = restaurant(values.get("restaurant", ""))
    if place is None:
        return ["Choose a restaurant."], 422
    party = _party(values.get("party"))
    if party is None:
        return ["Party size must be a number from 1 to 12."], 422
    if party > place.max_party:
        return [f"{place.name} takes bookings for up to {place.max_party} people."], 422
    try:
        day = dt.date.fromisoformat(values.get("date", ""))
    except ValueError:
        return ["Choose a date."], 422
    ahead = (day - today(world, TZ)).days
    if not 0 <= ahead < DAYS:
        return ["Bookings open for today and the next six days only."], 422
    if values.get("time") not in TIMES:
        return ["Choose a time from the list."], 422
    if not is_free(world, place.slug, day, values["time"]):
        return ["That table is no longer available. Choose another time."], 409
    return [], 200


async def book_page(request: Request) -> Response:
    world = world_of(request)
    values = {"restaurant": request.path_params["slug"], **dict(request.query_params)}
    errors, status = _slot_errors(world, values)
    if errors:
        return _page(
            "home.html",
            404 if status == 422 else status,
            area="",
            cuisine="",
            party=2,
            errors=errors,
        )
    place = restaurant(values["restaurant"])
    return _page(
        "book.html",
        place=place,
        values=values,
        day=dt.date.fromisoformat(values["date"]),
        errors=[],
    )


def _ref(world: AttemptWorld, n: int) -> str:
    rng = world.rng(f"booking:ref:{n}")
    return "TF-" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(5))


async def book(request: Request) -> Response:
    world = world_of(request)
    state = world.state(NAME)
    state["touched"] = True
    values = await posted(request)
    errors, status = _slot_errors(world, values)
    if not values.get("name"):
        errors.append("Name is required.")
    if not EMAIL.match(values.get("email", "")):
        errors.append("Enter a valid email address.")
    if not PHONE.match(values.get("phone", "")):
        errors.append("Enter a phone number, like 07700 900123.")
    place = restaurant(values.get("restaurant", ""))
    if errors:
        if place is None or status == 409 or "date" not in values:
            return _page(
                "home.html",
                status if status != 200 else 422,
                area="",
                cuisine="",
                party=2,
                errors=errors,
            )
        try:
            day = dt.date.fromisoformat(values["date"])
        except ValueError:
            return _page("home.html", 422, area="", cuisine="", party=2, errors=errors)
        return _page("book.html", 422, place=place, values=values, day=day, errors=errors)
    assert place is not None
    bookings = _bookings(world)
    ref = _ref(world, len(bookings) + 1)
    day = dt.date.fromisoformat(values["date"])
    who = (values["name"], values["email"], values["phone"])
    bookings.append(
        _record(
            place.slug,
            day,
            values["time"],
            int(values["party"]),
            ref,
            "confirmed",
            who,
            seeded=False,
        )
    )
    return see_other(f"/bookings/{ref}")


def _find(world: AttemptWorld, ref: str) -> dict[str, Any] | None:
    return next((b for b in _bookings(world) if b["ref"] == ref), None)


def _shown(world: AttemptWorld, item: dict[str, Any]) -> dict[str, Any]:
    day = dt.date.fromisoformat(item["date"])
    return {**item, "day": long_date(day), "past": day < today(world, TZ)}


async def bookings_page(request: Request) -> Response:
    world = world_of(request)
    items = [_shown(world, b) for b in _bookings(world)]
    upcoming = [b for b in items if not b["past"]]
    past = [b for b in items if b["past"]]
    cancelled = request.query_params.get("cancelled", "")
    return _page("bookings.html", upcoming=upcoming, past=past, cancelled=cancelled)


async def booking_page(request: Request) -> Response:
    world = world_of(request)
    item = _find(world, request.path_params["ref"])
    if item is None:
        return _page(
            "home.html",
            404,
            area="",
            cuisine="",
            party=2,
            errors=["There is no booking with that reference."],
        )
    return _page("booking.html", item=_shown(world, item))


async def cancel(request: Request) -> Response:
    world = world_of(request)
    world.state(NAME)["touched"] = True
    item = _find(world, (await posted(request)).get("ref", ""))
    if item is None:
        return _page(
            "home.html",
            404,
            area="",
            cuisine="",
            party=2,
            errors=["There is no booking with that reference."],
        )
    if item["status"] != "confirmed" or _shown(world, item)["past"]:
        return _page(
            "booking.html",
            409,
            item=_shown(world, item),
            errors=["Only upcoming, confirmed bookings can be cancelled."],
        )
    item["status"] = "cancelled"
    return see_other(f"/bookings?cancelled={item['ref']}")


def _listing(r: Restaurant) -> dict[str, Any]:
    return {
        "slug": r.slug,
        "name": r.name,
        "area": r.area,
        "cuisine": r.cuisine,
        "price": r.price,
        "rating": r.rating,
        "max_party": r.max_party,
    }


async def api_restaurants(request: Request) -> Response:
    query = request.query_params
    party = _party(query.get("party", "2"))
    if party is None:
        return JSONResponse({"ok": False, "errors": ["party must be 1 to 12"]}, status_code=400)
    found, _ = _search(query.get("area", ""), query.get("cuisine", ""), party)
    return JSONResponse({"restaurants": [_listing(r) for r in found]})


async def api_availability(request: Request) -> Response:
    world = world_of(request)
    place = restaurant(request.path_params["slug"])
    party = _party(request.query_params.get("party", "2"))
    if place is None or party is None:
        return JSONResponse(
            {"ok": False, "errors": ["no such restaurant, or a bad party size"]}, status_code=404
        )
    days = [
        {
            "date": row["date"].isoformat(),
            "days_ahead": row["ahead"],
            "free": [s["time"] for s in row["slots"] if s["free"]],
        }
        for row in _grid(world, place, party)
    ]
    return JSONResponse({"restaurant": place.slug, "party": party, "days": days})


async def api_bookings(request: Request) -> Response:
    world = world_of(request)
    return JSONResponse({"bookings": snapshot_of(world)})


def snapshot_of(world: AttemptWorld) -> list[dict[str, Any]]:
    start = today(world, TZ)
    return [
        {**b, "days_ahead": (dt.date.fromisoformat(b["date"]) - start).days}
        for b in _bookings(world)
    ]


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    if not world.state(NAME).get("touched"):
        return None
    return {"bookings": snapshot_of(world)}


SITE = Site(
    name=NAME,
    routes=[
        Route("/", home),
        Route("/search", search),
        Route("/r/{slug:str}", restaurant_page),
        Route("/r/{slug:str}/book", book_page),
        Route("/submit/book", book, methods=["POST"]),
        Route("/bookings", bookings_page),
        Route("/bookings/cancel", cancel, methods=["POST"]),
        Route("/bookings/{ref:str}", booking_page),
        Route("/api/restaurants", api_restaurants),
        Route("/api/restaurants/{slug:str}/availability", api_availability),
        Route("/api/bookings", api_bookings),
    ],
    crossings={"/bookings/cancel": "destructive"},
    snapshot=snapshot,
)
