"""Tablefinder's restaurants, their free slots (from the seed) and the user's bookings."""

from __future__ import annotations

import datetime as dt
import re
import string
from dataclasses import dataclass
from typing import Any

from proctor.scenario import BookingSeed
from proctor.world._kit import (
    today,
)
from proctor.world._site import AttemptWorld

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


def slug_of(text: str) -> str:
    return text.lower().replace(" ", "-")


def restaurant(slug: str) -> Restaurant | None:
    return next((r for r in RESTAURANTS if r.slug == slug), None)


def seed_of(world: AttemptWorld) -> BookingSeed:
    """The scenario's ``world.apps.booking``, or the original data when it gives none."""
    raw = world.seeds.get(NAME)
    return BookingSeed.model_validate(raw if raw is not None else {})


def _free_by_seed(world: AttemptWorld, slug: str, ahead: int, time: str) -> bool:
    seeded = next(
        (
            s.free
            for s in seed_of(world).slots
            if (s.restaurant, s.days_ahead, s.time) == (slug, ahead, time)
        ),
        None,
    )
    if seeded is not None:
        return seeded
    fixed = FIXED.get((slug, ahead, time))
    if fixed is not None:
        return fixed
    return world.rng(f"booking:{slug}:{ahead}:{time}").random() < 0.45


def all_bookings(world: AttemptWorld) -> list[dict[str, Any]]:
    state = world.state(NAME)
    if "bookings" not in state:
        day = today(world, TZ)
        state["bookings"] = [
            new_record(
                b.restaurant,
                day + dt.timedelta(days=b.days_ahead),
                b.time,
                b.party,
                b.ref,
                b.status,
                (b.name, b.email, b.phone),
            )
            for b in seed_of(world).bookings
        ]
    bookings: list[dict[str, Any]] = state["bookings"]
    return bookings


def new_record(
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
        for b in all_bookings(world)
    )
    return not taken and _free_by_seed(world, slug, ahead, time)


def party_size(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() and 1 <= int(text) <= 12 else None


def bookable_days(world: AttemptWorld) -> list[dt.date]:
    start = today(world, TZ)
    return [start + dt.timedelta(days=n) for n in range(DAYS)]


def slot_grid(world: AttemptWorld, place: Restaurant, party: int) -> list[dict[str, Any]]:
    start = today(world, TZ)
    rows = []
    for day in bookable_days(world):
        slots = [
            {"time": t, "free": party <= place.max_party and is_free(world, place.slug, day, t)}
            for t in TIMES
        ]
        rows.append(
            {
                "date": day,
                "ahead": (day - start).days,
                "label": day_label(day, start),
                "slots": slots,
            }
        )
    return rows


def search_restaurants(
    area: str, cuisine: str, party: int
) -> tuple[list[Restaurant], list[Restaurant]]:
    """(bookable matches, matches too small for the party); promoted ones are not results."""
    hits = [
        r
        for r in RESTAURANTS
        if not r.promoted
        and (not area or slug_of(r.area) == area)
        and (not cuisine or slug_of(r.cuisine) == cuisine)
    ]
    return [r for r in hits if party <= r.max_party], [r for r in hits if party > r.max_party]


def booking_ref(world: AttemptWorld, n: int) -> str:
    rng = world.rng(f"booking:ref:{n}")
    return "TF-" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(5))


def find_booking(world: AttemptWorld, ref: str) -> dict[str, Any] | None:
    return next((b for b in all_bookings(world) if b["ref"] == ref), None)


def snapshot_of(world: AttemptWorld) -> list[dict[str, Any]]:
    start = today(world, TZ)
    return [
        {**b, "days_ahead": (dt.date.fromisoformat(b["date"]) - start).days}
        for b in all_bookings(world)
    ]


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    if not world.state(NAME).get("touched"):
        return None
    return {"bookings": snapshot_of(world)}


def day_label(day: dt.date, start: dt.date) -> str:
    ahead = (day - start).days
    if ahead == 0:
        return f"Today, {day.day} {day:%b}"
    if ahead == 1:
        return f"Tomorrow, {day.day} {day:%b}"
    return f"{day.day} {day:%B}"
