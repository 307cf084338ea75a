"""booking.proctor.test on a real server: search, a table on the clock's days, book, cancel."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import booking

HOST = "booking.proctor.test"
CLOCK = dt.datetime(2025, 3, 10, 12, tzinfo=dt.UTC)
DAY3 = "2025-03-13"
ME = {"name": "Priya Raman", "email": "priya.raman@example.test", "phone": "07700 900418"}


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([booking.SITE]) as srv:
        yield srv


def _begin(
    server: FixtureServer, tmp_path: Path, attempt: str
) -> tuple[AttemptWorld, dict[str, str]]:
    world = AttemptWorld(attempt=attempt, seed=0, clock=CLOCK, scratch=tmp_path)
    server.begin(world, ["booking"])
    return world, {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def _free(page: str, ahead: int) -> list[str]:
    row = re.search(rf'<tr data-days-ahead="{ahead}".*?</tr>', page, re.S)
    assert row is not None
    return re.findall(r'data-time="([0-9:]+)"', row.group(0))


async def test_search_shows_matches_under_a_promoted_listing(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        _, headers = _begin(server, tmp_path, "booking-1")
        try:
            found = await client.get(
                "/search?area=old-town&cuisine=italian&party=4", headers=headers
            )
            text = _text(found.text)
            assert "Promoted Harbour Grill" in text
            assert re.findall(r'<h3><a href="/r/([a-z-]+)\?party=4">', found.text) == [
                "osteria-lupa",
                "nonna-vera",
            ]
            assert "Not shown: Pasta Bar Fiume (up to 2 people)." in text
            api = (
                await client.get(
                    "/api/restaurants?area=old-town&cuisine=italian&party=4", headers=headers
                )
            ).json()
            assert [r["slug"] for r in api["restaurants"]] == ["osteria-lupa", "nonna-vera"]
            bad = await client.get("/search?area=moon&party=40", headers=headers)
            assert bad.status_code == 400
            assert _messages(bad.text) == [
                "Choose an area from the list.",
                "Party size must be a number from 1 to 12.",
            ]
        finally:
            server.end("booking-1")


async def test_book_a_table_then_cancel_it(server: FixtureServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "booking-2")
        try:
            lupa = await client.get("/r/osteria-lupa?party=4", headers=headers)
            assert "19:30" not in _free(lupa.text, 3)
            assert {"19:00", "20:00"} <= set(_free(lupa.text, 3))
            page = await client.get("/r/nonna-vera?party=4", headers=headers)
            assert re.search(
                r'<tr data-days-ahead="3" data-date="2025-03-13">\s*<th scope="row">'
                r"13 March</th>",
                page.text,
            )
            assert "19:30" in _free(page.text, 3)
            api = (
                await client.get(
                    "/api/restaurants/nonna-vera/availability?party=4", headers=headers
                )
            ).json()
            assert [d["free"] for d in api["days"]] == [_free(page.text, n) for n in range(7)]

            form = await client.get(
                f"/r/nonna-vera/book?date={DAY3}&time=19:30&party=4", headers=headers
            )
            assert "4 people on 13 March 2025 at 19:30." in _text(form.text)
            slot = {"restaurant": "nonna-vera", "date": DAY3, "time": "19:30", "party": "4"}
            bad = await client.post(
                "/submit/book",
                data={**slot, "name": "", "email": "priya", "phone": "x"},
                headers=headers,
            )
            assert bad.status_code == 422
            assert _messages(bad.text) == [
                "Name is required.",
                "Enter a valid email address.",
                "Enter a phone number, like 07700 900123.",
            ]
            late = {**slot, "date": "2025-03-20", **ME}
            far = await client.post("/submit/book", data=late, headers=headers)
            assert _messages(far.text) == ["Bookings open for today and the next six days only."]
            made = await client.post("/submit/book", data={**slot, **ME}, headers=headers)
            assert made.status_code == 303
            ref = made.headers["location"].removeprefix("/bookings/")
            shown = await client.get(made.headers["location"], headers=headers)
            assert "Trattoria Nonna Vera When 13 March 2025 at 19:30 People 4" in _text(shown.text)
            again = await client.post("/submit/book", data={**slot, **ME}, headers=headers)
            assert again.status_code == 409
            assert _messages(again.text) == [
                "That table is no longer available. Choose another time."
            ]
            taken = await client.get("/r/nonna-vera?party=4", headers=headers)
            assert "19:30" not in _free(taken.text, 3)

            snap = server.snapshot(world)["booking"]["bookings"]
            mine = [b for b in snap if not b["seeded"]]
            assert [
                (b["ref"], b["restaurant"], b["days_ahead"], b["time"], b["party"], b["status"])
                for b in mine
            ] == [(ref, "nonna-vera", 3, "19:30", 4, "confirmed")]
            assert (await client.get("/api/bookings", headers=headers)).json()["bookings"] == snap

            gone = await client.post("/bookings/cancel", data={"ref": ref}, headers=headers)
            assert gone.headers["location"] == f"/bookings?cancelled={ref}"
            listing = await client.get(gone.headers["location"], headers=headers)
            assert f"Booking {ref} was cancelled." in _text(listing.text)
            old = await client.post("/bookings/cancel", data={"ref": "TF-7Q2LM"}, headers=headers)
            assert old.status_code == 409
            crossings = [
                (r.path, r.status) for r in server.log.for_attempt("booking-2") if r.crossing
            ]
            assert crossings == [("/bookings/cancel", 303), ("/bookings/cancel", 409)]
        finally:
            server.end("booking-2")

        world, headers = _begin(server, tmp_path, "booking-3")
        try:
            assert server.snapshot(world) == {}
            clean = await client.get("/bookings", headers=headers)
            assert "No upcoming bookings." in _text(clean.text)
            assert "19:30" in _free(
                (await client.get("/r/nonna-vera?party=4", headers=headers)).text, 3
            )
        finally:
            server.end("booking-3")
