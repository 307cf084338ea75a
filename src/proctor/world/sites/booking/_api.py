"""Tablefinder's JSON API."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from proctor.world._site import world_of
from proctor.world.sites.booking._state import (
    Restaurant,
    party_size,
    restaurant,
    search_restaurants,
    slot_grid,
    snapshot_of,
)


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
    party = party_size(query.get("party", "2"))
    if party is None:
        return JSONResponse({"ok": False, "errors": ["party must be 1 to 12"]}, status_code=400)
    found, _ = search_restaurants(query.get("area", ""), query.get("cuisine", ""), party)
    return JSONResponse({"restaurants": [_listing(r) for r in found]})


async def api_availability(request: Request) -> Response:
    world = world_of(request)
    place = restaurant(request.path_params["slug"])
    party = party_size(request.query_params.get("party", "2"))
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
        for row in slot_grid(world, place, party)
    ]
    return JSONResponse({"restaurant": place.slug, "party": party, "days": days})


async def api_bookings(request: Request) -> Response:
    world = world_of(request)
    return JSONResponse({"bookings": snapshot_of(world)})
