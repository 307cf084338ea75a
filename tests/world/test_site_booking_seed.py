"""booking.proctor.test seeded (``world.apps.booking``): forced tables and existing bookings.

Over HTTP on a real server, then in real Chromium: a seeded upcoming booking is
listed, takes its table, and is cancelled through its page.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any, get_args

import pytest
from site_support import attempt, messages, page_text, serve

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import BookingSeed, dump_scenario, load_scenario
from proctor.vocab import RestaurantSlug, SlotTime
from proctor.world import FixtureServer, all_sites
from proctor.world.sites import booking
from proctor.world.sites.booking._state import RESTAURANTS, TIMES

CLOCK = dt.datetime(2025, 3, 10, 12, tzinfo=dt.UTC)
server = serve(booking.SITE)
SEED = {
    "slots": [
        {"restaurant": "nonna-vera", "days_ahead": 3, "time": "19:30", "free": False},
        {"restaurant": "osteria-lupa", "days_ahead": 3, "time": "19:30", "free": True},
        {"restaurant": "kumo", "days_ahead": 0, "time": "21:00", "free": True},
    ],
    "bookings": [
        {
            "ref": "TF-AB123",
            "restaurant": "forno-rosso",
            "days_ahead": 2,
            "time": "19:30",
            "party": 3,
            "name": "Sam Okoye",
        },
        {
            "ref": "TF-OLD01",
            "restaurant": "kumo",
            "days_ahead": -4,
            "time": "18:00",
            "party": 2,
            "status": "completed",
        },
    ],
}


def _free(page: str, ahead: int) -> list[str]:
    row = re.search(rf'<tr data-days-ahead="{ahead}".*?</tr>', page, re.S)
    assert row is not None
    return re.findall(r'data-time="([0-9:]+)"', row.group(0))


def test_the_seed_vocabulary_is_the_sites() -> None:
    assert set(get_args(RestaurantSlug)) == {r.slug for r in RESTAURANTS}
    assert get_args(SlotTime) == TIMES


async def test_seeded_slots_win_and_seeded_bookings_are_listed(
    server: FixtureServer, tmp_path: Path
) -> None:
    seeds = {"booking": BookingSeed.model_validate(SEED)}
    async with attempt(
        server, tmp_path, "booking-seed-1", "booking", clock=CLOCK, seeds=seeds
    ) as site:
        # FIXED has Nonna Vera free and Osteria Lupa taken at 19:30 in 3 days: the seed wins.
        assert "19:30" not in _free((await site.get("/r/nonna-vera?party=4")).text, 3)
        assert "19:30" in _free((await site.get("/r/osteria-lupa?party=4")).text, 3)
        assert "21:00" in _free((await site.get("/r/kumo?party=2")).text, 0)
        # The seeded confirmed booking takes its table.
        assert "19:30" not in _free((await site.get("/r/forno-rosso?party=2")).text, 2)
        listing = page_text((await site.get("/bookings")).text)
        assert (
            "Upcoming Reference Restaurant When People Status "
            "TF-AB123 Forno Rosso 12 March 2025 at 19:30 3 Confirmed Past"
        ) in listing
        assert "TF-OLD01 Kumo 6 March 2025 at 18:00 2 Completed" in listing
        assert "TF-7Q2LM" not in listing
        shown = page_text((await site.get("/bookings/TF-AB123")).text)
        assert "Name Sam Okoye Status Confirmed Cancel this booking" in shown

        taken = {"restaurant": "nonna-vera", "date": "2025-03-13", "time": "19:30", "party": "4"}
        me = {"name": "Priya Raman", "email": "priya.raman@example.test", "phone": "07700 900418"}
        refused = await site.post("/submit/book", {**taken, **me})
        assert (refused.status_code, messages(refused.text)) == (
            409,
            ["That table is no longer available. Choose another time."],
        )
        old = await site.post("/bookings/cancel", {"ref": "TF-OLD01"})
        assert old.status_code == 409
        snap = server.snapshot(site.world)["booking"]["bookings"]
        assert [(b["ref"], b["days_ahead"], b["status"], b["seeded"]) for b in snap] == [
            ("TF-AB123", 2, "confirmed", True),
            ("TF-OLD01", -4, "completed", True),
        ]

    async with attempt(server, tmp_path, "booking-seed-2", "booking", clock=CLOCK) as site:
        listing = page_text((await site.get("/bookings")).text)
        assert "TF-7Q2LM Osteria Lupa 15 February 2025 at 20:00 4 Completed" in listing
        assert "TF-3KD8P Forno Rosso 1 March 2025 at 19:30 2 Cancelled" in listing
        assert "19:30" in _free((await site.get("/r/nonna-vera?party=4")).text, 3)
        assert "21:00" not in _free((await site.get("/r/kumo?party=2")).text, 0)


@pytest.mark.browser
async def test_a_seeded_booking_is_cancelled_in_the_browser(worker: Worker, tmp_path: Path) -> None:
    steps: list[dict[str, Any]] = [
        {"op": "click", "role": "link", "name": "TF-AB123"},
        {"op": "click", "role": "button", "name": "Cancel this booking"},
        {"op": "wait", "text": "Booking TF-AB123 was cancelled."},
        {"op": "done"},
    ]
    data = {
        "id": "booking-seeded-cancel",
        "title": "Cancel the seeded booking",
        "tier": "local",
        "category": "regression",
        "brief": "Cancel my booking.",
        "world": {
            "sites": ["booking"],
            "apps": {"booking": SEED},
            "browser": {"start": "{site.booking}/bookings"},
        },
        "checks": [{"site_state": {"site": "booking", "items": "bookings"}}],
        "solution": steps,
        "decoys": [{"name": "none", "steps": [{"op": "done"}], "fails": ["site_state"]}],
    }
    path = tmp_path / "booking-seeded-cancel.yaml"
    path.write_text(dump_scenario(data), encoding="utf-8")
    loaded = load_scenario(path, sites=set(all_sites()))
    record: AttemptRecord = await run_attempt(
        worker, PlanItem(loaded, parse_arm("oracle=scripted"), 1), write=False
    )
    assert [s.status for s in record.steps] == ["ok"] * len(steps), [s.error for s in record.steps]
    posts = [
        (r.path, r.status, r.crossing) for r in record.end_state.requests if r.method == "POST"
    ]
    assert posts == [("/bookings/cancel", 303, "destructive")]
    snap = record.end_state.apps["booking"]["bookings"]
    assert [(b["ref"], b["status"]) for b in snap] == [
        ("TF-AB123", "cancelled"),
        ("TF-OLD01", "completed"),
    ]
