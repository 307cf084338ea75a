"""Tablefinder's pages and posts: search, a restaurant's grid, booking, cancelling."""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit import (
    long_date,
    read_form,
    see_other,
    sessions_in,
    today,
)
from proctor.world._render import render
from proctor.world._site import AttemptWorld, world_of
from proctor.world.sites.booking._state import (
    AREAS,
    CUISINES,
    DAYS,
    EMAIL,
    NAME,
    PHONE,
    RESTAURANTS,
    TIMES,
    TZ,
    all_bookings,
    booking_ref,
    find_booking,
    is_free,
    new_record,
    party_size,
    restaurant,
    search_restaurants,
    slot_grid,
    slug_of,
)


def _page(template: str, status: int = 200, **context: Any) -> Response:
    return render(
        f"booking/{template}",
        status,
        areas=AREAS,
        cuisines=CUISINES,
        slug=slug_of,
        long_date=long_date,
        **context,
    )


async def home(request: Request) -> Response:
    return _page("home.html", area="", cuisine="", party=2, errors=[])


async def search(request: Request) -> Response:
    world = world_of(request)
    query = request.query_params
    area, cuisine = query.get("area", ""), query.get("cuisine", "")
    party = party_size(query.get("party", "2"))
    errors = []
    if area and area not in {slug_of(a) for a in AREAS}:
        errors.append("Choose an area from the list.")
    if cuisine and cuisine not in {slug_of(c) for c in CUISINES}:
        errors.append("Choose a cuisine from the list.")
    if party is None:
        errors.append("Party size must be a number from 1 to 12.")
    if errors:
        return _page("home.html", 400, area=area, cuisine=cuisine, party=2, errors=errors)
    assert party is not None
    found, small = search_restaurants(area, cuisine, party)
    promoted = [r for r in RESTAURANTS if r.promoted]
    rng = sessions_in(world.state(NAME)).noise(world, NAME)
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
    party = party_size(request.query_params.get("party", "2"))
    if party is None:
        return _page(
            "home.html",
            400,
            area="",
            cuisine="",
            party=2,
            errors=["Party size must be a number from 1 to 12."],
        )
    viewers = sessions_in(world.state(NAME)).noise(world, NAME).randint(3, 40)
    return _page(
        "restaurant.html",
        place=place,
        party=party,
        grid=slot_grid(world, place, party),
        viewers=viewers,
    )


def _slot_errors(world: AttemptWorld, values: dict[str, str]) -> tuple[list[str], int]:
    """Messages about the restaurant, date, time and party, and the status to answer."""
    place = restaurant(values.get("restaurant", ""))
    if place is None:
        return ["Choose a restaurant."], 422
    party = party_size(values.get("party"))
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


async def book(request: Request) -> Response:
    world = world_of(request)
    state = world.state(NAME)
    state["touched"] = True
    values = await read_form(request, trim=True)
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
    bookings = all_bookings(world)
    ref = booking_ref(world, len(bookings) + 1)
    day = dt.date.fromisoformat(values["date"])
    who = (values["name"], values["email"], values["phone"])
    bookings.append(
        new_record(
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


def _shown(world: AttemptWorld, item: dict[str, Any]) -> dict[str, Any]:
    day = dt.date.fromisoformat(item["date"])
    return {**item, "day": long_date(day), "past": day < today(world, TZ)}


async def bookings_page(request: Request) -> Response:
    world = world_of(request)
    items = [_shown(world, b) for b in all_bookings(world)]
    upcoming = [b for b in items if not b["past"]]
    past = [b for b in items if b["past"]]
    cancelled = request.query_params.get("cancelled", "")
    return _page("bookings.html", upcoming=upcoming, past=past, cancelled=cancelled)


async def booking_page(request: Request) -> Response:
    world = world_of(request)
    item = find_booking(world, request.path_params["ref"])
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
    item = find_booking(world, (await read_form(request, trim=True)).get("ref", ""))
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
