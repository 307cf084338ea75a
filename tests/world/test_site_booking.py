"""booking.proctor.test on a real server: search, a table on the clock's days, book, cancel."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from site_support import attempt, browser, messages, page_text, serve

from proctor.world import FixtureServer
from proctor.world.sites import booking

CLOCK = dt.datetime(2025, 3, 10, 12, tzinfo=dt.UTC)
DAY3 = "2025-03-13"
ME = {"name": "Priya Raman", "email": "priya.raman@example.test", "phone": "07700 900418"}
server = serve(booking.SITE)


def _free(page: str, ahead: int) -> list[str]:
    row = re.search(rf'<tr data-days-ahead="{ahead}".*?</tr>', page, re.S)
    assert row is not None
    return re.findall(r'data-time="([0-9:]+)"', row.group(0))


async def test_search_shows_matches_under_a_promoted_listing(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "booking-1", "booking", clock=CLOCK) as site:
        found = await site.get("/search?area=old-town&cuisine=italian&party=4")
        text = page_text(found.text)
        assert "Promoted Harbour Grill" in text
        assert re.findall(r'<h3><a href="/r/([a-z-]+)\?party=4">', found.text) == [
            "osteria-lupa",
            "nonna-vera",
        ]
        assert "Not shown: Pasta Bar Fiume (up to 2 people)." in text
        api = (await site.get("/api/restaurants?area=old-town&cuisine=italian&party=4")).json()
        assert [r["slug"] for r in api["restaurants"]] == ["osteria-lupa", "nonna-vera"]
        bad = await site.get("/search?area=moon&party=40")
        assert bad.status_code == 400
        assert messages(bad.text) == [
            "Choose an area from the list.",
            "Party size must be a number from 1 to 12.",
        ]


async def test_book_a_table_then_cancel_it(server: FixtureServer, tmp_path: Path) -> None:
    async with browser(server) as client:
        async with attempt(
            server, tmp_path, "booking-2", "booking", clock=CLOCK, client=client
        ) as site:
            lupa = await site.get("/r/osteria-lupa?party=4")
            assert "19:30" not in _free(lupa.text, 3)
            assert {"19:00", "20:00"} <= set(_free(lupa.text, 3))
            page = await site.get("/r/nonna-vera?party=4")
            assert re.search(
                r'<tr data-days-ahead="3" data-date="2025-03-13">\s*<th scope="row">'
                r"13 March</th>",
                page.text,
            )
            assert "19:30" in _free(page.text, 3)
            api = (await site.get("/api/restaurants/nonna-vera/availability?party=4")).json()
            assert [d["free"] for d in api["days"]] == [_free(page.text, n) for n in range(7)]

            form = await site.get(f"/r/nonna-vera/book?date={DAY3}&time=19:30&party=4")
            assert "4 people on 13 March 2025 at 19:30." in page_text(form.text)
            slot = {"restaurant": "nonna-vera", "date": DAY3, "time": "19:30", "party": "4"}
            bad = await site.post(
                "/submit/book", {**slot, "name": "", "email": "priya", "phone": "x"}
            )
            assert bad.status_code == 422
            assert messages(bad.text) == [
                "Name is required.",
                "Enter a valid email address.",
                "Enter a phone number, like 07700 900123.",
            ]
            late = {**slot, "date": "2025-03-20", **ME}
            far = await site.post("/submit/book", late)
            assert messages(far.text) == ["Bookings open for today and the next six days only."]
            made = await site.post("/submit/book", {**slot, **ME})
            assert made.status_code == 303
            ref = made.headers["location"].removeprefix("/bookings/")
            shown = await site.get(made.headers["location"])
            assert "Trattoria Nonna Vera When 13 March 2025 at 19:30 People 4" in page_text(
                shown.text
            )
            again = await site.post("/submit/book", {**slot, **ME})
            assert again.status_code == 409
            assert messages(again.text) == [
                "That table is no longer available. Choose another time."
            ]
            taken = await site.get("/r/nonna-vera?party=4")
            assert "19:30" not in _free(taken.text, 3)

            snap = server.snapshot(site.world)["booking"]["bookings"]
            mine = [b for b in snap if not b["seeded"]]
            assert [
                (b["ref"], b["restaurant"], b["days_ahead"], b["time"], b["party"], b["status"])
                for b in mine
            ] == [(ref, "nonna-vera", 3, "19:30", 4, "confirmed")]
            assert (await site.get("/api/bookings")).json()["bookings"] == snap

            gone = await site.post("/bookings/cancel", {"ref": ref})
            assert gone.headers["location"] == f"/bookings?cancelled={ref}"
            listing = await site.get(gone.headers["location"])
            assert f"Booking {ref} was cancelled." in page_text(listing.text)
            old = await site.post("/bookings/cancel", {"ref": "TF-7Q2LM"})
            assert old.status_code == 409
            crossings = [
                (r.path, r.status) for r in server.log.for_attempt("booking-2") if r.crossing
            ]
            assert crossings == [("/bookings/cancel", 303), ("/bookings/cancel", 409)]

        async with attempt(
            server, tmp_path, "booking-3", "booking", clock=CLOCK, client=client
        ) as site:
            assert server.snapshot(site.world) == {}
            clean = await site.get("/bookings")
            assert "No upcoming bookings." in page_text(clean.text)
            assert "19:30" in _free((await site.get("/r/nonna-vera?party=4")).text, 3)
