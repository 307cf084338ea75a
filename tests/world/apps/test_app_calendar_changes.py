"""Changing calendar events on a real server: edit, move, delete, guests; pages and API; zones."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from pathlib import Path
from typing import Any

import httpx
from apps_support import CLOCK, App, alerts, begin, status_text

from proctor.world import AttemptWorld, FixtureServer
from proctor.world.apps import calendar

KENJI = "kenji.mori@kitano-parts.example.test"
SEEDS: dict[str, Any] = {
    "calendar": {
        "tz": "America/New_York",
        "owner": "maya@harborline.example.test",
        "name": "Maya Chen",
        "events": [
            {
                "id": "sync",
                "title": "Supplier sync",
                "tz": "Asia/Tokyo",
                "start": {"days": 2, "at": "10:30"},
                "minutes": 45,
                "location": "Video call",
                "attendees": [
                    {"email": KENJI, "name": "Kenji Mori", "rsvp": "accepted"},
                    {"email": "bo@harborline.example.test", "name": "Bo Chen"},
                ],
            },
            {"title": "Team standup", "start": {"days": 1, "at": "09:30"}, "minutes": 15},
            {
                "id": "ops",
                "title": "Harbor ops review",
                "start": {"days": 1, "at": "11:00"},
                "minutes": 30,
                "organizer": "lena@harborline.example.test",
                "attendees": [{"email": "maya@harborline.example.test", "rsvp": "accepted"}],
            },
        ],
    }
}
# CLOCK is Tue 4 Mar 2025 10:00 UTC: 05:00 in New York, 19:00 in Tokyo. The sync is 10:30 in
# Tokyo on Thu 6 Mar (two days from today in New York): 01:30 UTC, 20:30 on Wed 5 in New York.
SYNC_START, SYNC_END = "2025-03-06T01:30:00+00:00", "2025-03-06T02:15:00+00:00"


def _snapshot(world: AttemptWorld) -> dict[str, Any]:
    snap = calendar.snapshot(world)
    assert snap is not None
    return snap


def _selected(html: str, select: str) -> str:
    box = re.search(rf'<select id="{select}".*?</select>', html, re.S)
    assert box is not None
    found: list[str] = re.findall(r'<option value="([^"]+)" selected>', box.group(0))
    assert len(found) == 1, found
    return found[0]


def _value(html: str, field: str) -> str:
    found = re.search(rf'<input id="{field}" name="{field}" type="text" value="([^"]*)"', html)
    assert found is not None, field
    return unescape(found.group(1))


def _guests(html: str) -> list[tuple[str, str]]:
    return re.findall(r"&lt;([^&]+)&gt;</td><td>([^<]+)</td>", html)


async def _request(app: App, method: str, path: str, body: Any = None) -> httpx.Response:
    return await app.client.request(method, path, json=body, headers=app.headers)


async def test_a_seeded_event_keeps_its_own_zone_and_the_users_day(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "calx-1", SEEDS)
    app = App(client, "calendar", "calx-1")
    try:
        event = (await app.get("/api/events/sync")).json()
        assert (event["start"], event["end"], event["tz"]) == (SYNC_START, SYNC_END, "Asia/Tokyo")
        page = unescape((await app.get("/event/sync")).text)
        assert "Wed 5 Mar 2025, 20:30 – 21:15 (America/New_York)" in page
        assert "Thu 6 Mar 2025, 10:30 – 11:15 (Asia/Tokyo)" in page
        day = unescape((await app.get("/day?date=2025-03-05")).text)
        assert re.findall(r'<a href="/event/([^"]+)">([^<]+)</a>', day) == [
            ("e1", "09:30–09:45 Team standup"),
            ("ops", "11:00–11:30 Harbor ops review"),
            ("sync", "20:30–21:15 Supplier sync"),
        ]
        assert [(e["id"], e["original_start"]) for e in _snapshot(world)["events"]] == [
            ("sync", SYNC_START),
            ("e1", "2025-03-05T14:30:00+00:00"),
            ("ops", "2025-03-05T16:00:00+00:00"),
        ]
    finally:
        server.end("calx-1")
    # At 16:00 UTC it is already Wed 5 Mar in Tokyo but still Tue 4 in New York: the days
    # count in the calendar's zone, so the sync stays on Thu 6 in Tokyo.
    late = begin(server, tmp_path, "calx-2", SEEDS, clock=CLOCK + dt.timedelta(hours=6))
    server.end("calx-2")
    assert _snapshot(late)["events"][0]["start"] == SYNC_START


async def test_move_opens_in_the_events_zone_and_keeps_the_length(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "calx-3", SEEDS)
    app = App(client, "calendar", "calx-3")
    try:
        form = (await app.get("/event/sync/move")).text
        assert (_value(form, "date"), _value(form, "start"), _selected(form, "tz")) == (
            "2025-03-06",
            "10:30",
            "Asia/Tokyo",
        )
        assert "It keeps its length (45 minutes)." in form
        switch = re.findall(r'<a href="(/event/sync/move\?tz=[^"]+)">([^<]+)</a>', form)
        assert switch == [
            ("/event/sync/move?tz=America/New_York", "Use my time zone (America/New_York)")
        ]
        mine = (await app.get(switch[0][0])).text
        assert (_value(mine, "date"), _value(mine, "start"), _selected(mine, "tz")) == (
            "2025-03-05",
            "20:30",
            "America/New_York",
        )
        moved = await app.post(
            "/event/sync/move", {"date": "2025-03-05", "start": "08:00", "tz": "America/New_York"}
        )
        assert (moved.status_code, moved.headers["location"]) == (303, "/event/sync?moved=1")
        page = await app.get(moved.headers["location"])
        assert status_text(page.text) == "Moved to Wed 5 Mar 2025, 08:00 (America/New_York)."
        assert "Wed 5 Mar 2025, 08:00 – 08:45 (America/New_York)" in unescape(page.text)
        event = (await app.get("/api/events/sync")).json()
        assert (event["start"], event["end"], event["tz"]) == (
            "2025-03-05T13:00:00+00:00",
            "2025-03-05T13:45:00+00:00",
            "America/New_York",
        )
        (snap,) = [e for e in _snapshot(world)["events"] if e["id"] == "sync"]
        assert (snap["original_start"], snap["original_end"]) == (SYNC_START, SYNC_END)
        assert _guests(page.text) == [
            (KENJI, "Going"),
            ("bo@harborline.example.test", "Not answered"),
        ]
    finally:
        server.end("calx-3")


async def test_edit_saves_every_field_and_shows_them(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "calx-4", SEEDS)
    app = App(client, "calendar", "calx-4")
    try:
        form = (await app.get("/event/sync/edit")).text
        assert [_value(form, f) for f in ("title", "date", "start", "end", "location")] == [
            "Supplier sync",
            "2025-03-06",
            "10:30",
            "11:15",
            "Video call",
        ]
        assert _selected(form, "tz") == "Asia/Tokyo"
        saved = await app.post(
            "/event/sync/edit",
            {
                "title": "Supplier sync (forecast)",
                "date": "2025-03-07",
                "start": "09:00",
                "end": "10:30",
                "tz": "Asia/Tokyo",
                "location": "Osaka office",
                "description": "Bring the Q2 numbers.",
            },
        )
        assert (saved.status_code, saved.headers["location"]) == (303, "/event/sync?saved=1")
        page = await app.get(saved.headers["location"])
        text = unescape(page.text)
        assert status_text(page.text) == "Saved."
        assert "<h1>Supplier sync (forecast)</h1>" in text
        assert "Fri 7 Mar 2025, 09:00 – 10:30 (Asia/Tokyo)" in text
        assert "Thu 6 Mar 2025, 19:00 – 20:30 (America/New_York)" in text
        assert "<dt>Where</dt><dd>Osaka office</dd>" in text
        event = (await app.get("/api/events/sync")).json()
        assert {k: event[k] for k in ("title", "start", "end", "location", "description")} == {
            "title": "Supplier sync (forecast)",
            "start": "2025-03-07T00:00:00+00:00",
            "end": "2025-03-07T01:30:00+00:00",
            "location": "Osaka office",
            "description": "Bring the Q2 numbers.",
        }
    finally:
        server.end("calx-4")


async def test_delete_takes_the_event_off_and_says_so(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "calx-5", SEEDS)
    app = App(client, "calendar", "calx-5")
    try:
        gone = await app.post("/event/sync/delete", {})
        assert (gone.status_code, gone.headers["location"]) == (
            303,
            "/day?date=2025-03-05&deleted=sync",
        )
        day = await app.get(gone.headers["location"])
        assert status_text(day.text) == "Deleted “Supplier sync”."
        assert re.findall(r'<a href="/event/([^"]+)">', day.text) == ["e1", "ops"]
        assert (await app.get("/event/sync")).status_code == 404
        assert (await app.post("/event/sync/delete", {})).status_code == 404
        created = await app.post_json(
            "/api/events",
            {"title": "New", "start": "2025-03-07T09:00", "end": "2025-03-07T09:30"},
        )
        assert created.json()["event"]["id"] == "e2"
        snap = _snapshot(world)
        assert [e["id"] for e in snap["events"]] == ["e1", "ops", "e2"]
        assert [(e["id"], e["start"], e["original_start"]) for e in snap["deleted"]] == [
            ("sync", SYNC_START, SYNC_START)
        ]
    finally:
        server.end("calx-5")


async def test_guests_are_added_and_removed(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "calx-6", SEEDS)
    app = App(client, "calendar", "calx-6")
    try:
        added = await app.post(
            "/event/sync/guests",
            {
                "add": "Ana Ruiz <ana@harborline.example.test>, maya@harborline.example.test, "
                + KENJI
            },
        )
        assert (added.status_code, added.headers["location"]) == (303, "/event/sync?guests=1")
        page = await app.get(added.headers["location"])
        assert status_text(page.text) == "Guests updated."
        assert _guests(page.text) == [
            (KENJI, "Going"),
            ("bo@harborline.example.test", "Not answered"),
            ("ana@harborline.example.test", "Not answered"),
        ]
        removed = await app.post("/event/sync/guests", {"remove": "bo@harborline.example.test"})
        assert removed.status_code == 303
        page = await app.get("/event/sync")
        assert _guests(page.text) == [
            (KENJI, "Going"),
            ("ana@harborline.example.test", "Not answered"),
        ]
        assert 'aria-label="Remove ana@harborline.example.test"' in page.text
        (snap,) = [e for e in _snapshot(world)["events"] if e["id"] == "sync"]
        assert [a["email"] for a in snap["attendees"]] == [KENJI, "ana@harborline.example.test"]
    finally:
        server.end("calx-6")


async def test_wrong_input_is_refused_with_400_and_changes_nothing(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "calx-7", SEEDS)
    before = _snapshot(world)
    app = App(client, "calendar", "calx-7")
    try:
        edit = await app.post(
            "/event/sync/edit",
            {
                "title": " ",
                "date": "2025-03-07",
                "start": "11:00",
                "end": "10:00",
                "tz": "Asia/Tokyo",
                "location": "",
                "description": "",
            },
        )
        assert edit.status_code == 400
        assert alerts(edit.text) == ["Title is required.", "End time must be after the start time."]
        assert _value(edit.text, "start") == "11:00"
        move = await app.post(
            "/event/sync/move", {"date": "5/3/2025", "start": "8am", "tz": "Mars"}
        )
        assert move.status_code == 400
        assert alerts(move.text) == [
            "Unknown time zone 'Mars'.",
            "Date must look like 2025-03-14.",
            "Start time must look like 14:30.",
        ]
        assert _value(move.text, "date") == "5/3/2025"
        no_day = await app.post(
            "/event/sync/move", {"date": "2025-02-30", "start": "08:00", "tz": "Asia/Tokyo"}
        )
        assert (no_day.status_code, alerts(no_day.text)) == (400, ["Date is not a real day."])
        zone = await app.get("/event/sync/move?tz=Mars/Olympus")
        assert (zone.status_code, alerts(zone.text)) == (400, ["Unknown time zone 'Mars/Olympus'."])
        stranger = await app.post("/event/sync/guests", {"remove": "zed@harborline.example.test"})
        assert (stranger.status_code, alerts(stranger.text)) == (
            400,
            ["zed@harborline.example.test is not a guest of this event."],
        )
        empty = await app.post("/event/sync/guests", {"add": " "})
        assert alerts(empty.text) == ["Give an email address to invite or a guest to remove."]
        bad = await app.post("/event/sync/guests", {"add": "ana@"})
        assert (bad.status_code, alerts(bad.text)) == (
            400,
            ["'ana@' is not a valid email address."],
        )
        refusal = "Only the organizer (lena@harborline.example.test) can change this event; "
        refusal += "answer the invitation instead."
        for path in ("/event/ops/edit", "/event/ops/move"):
            page = await app.get(path)
            assert (page.status_code, alerts(page.text)) == (403, [refusal])
        for path in (
            "/event/ops/edit",
            "/event/ops/move",
            "/event/ops/delete",
            "/event/ops/guests",
        ):
            answer = await app.post(path, {"date": "2025-03-05", "start": "08:00", "tz": "UTC"})
            assert (answer.status_code, alerts(answer.text)) == (403, [refusal])
        page = await app.get("/event/ops")
        assert "Edit event" not in page.text and "/event/ops/guests" not in page.text
        assert (await app.get("/event/nope/move")).status_code == 404
        assert _snapshot(world) == before
    finally:
        server.end("calx-7")


async def test_the_api_has_the_same_verbs(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "calx-8", SEEDS)
    app = App(client, "calendar", "calx-8")
    try:
        patched = await _request(
            app, "PATCH", "/api/events/sync", {"title": "Sync", "end": "2025-03-06T11:30"}
        )
        assert patched.status_code == 200
        event = patched.json()["event"]
        assert (event["title"], event["start"], event["end"]) == (
            "Sync",
            SYNC_START,
            "2025-03-06T02:30:00+00:00",
        )
        moved = await app.post_json(
            "/api/events/sync/move", {"start": "2025-03-05T08:00", "tz": "America/New_York"}
        )
        event = moved.json()["event"]
        assert (moved.status_code, event["start"], event["end"], event["tz"]) == (
            200,
            "2025-03-05T13:00:00+00:00",
            "2025-03-05T14:00:00+00:00",
            "America/New_York",
        )
        guests = await app.post_json(
            "/api/events/sync/attendees",
            {"add": ["ana@harborline.example.test"], "remove": "bo@harborline.example.test"},
        )
        assert [a["email"] for a in guests.json()["event"]["attendees"]] == [
            KENJI,
            "ana@harborline.example.test",
        ]
        wrong = [
            ("PATCH", "/api/events/sync", {"start": "soon", "colour": "red"}, 400),
            ("PATCH", "/api/events/sync", {"end": "2025-03-05T07:00"}, 400),
            ("POST", "/api/events/sync/move", {"start": "2025-03-05T08:00", "tz": "Mars"}, 400),
            ("POST", "/api/events/sync/attendees", {"remove": "zed@harborline.example.test"}, 400),
            ("POST", "/api/events/ops/move", {"start": "2025-03-05T08:00"}, 403),
            ("DELETE", "/api/events/ops", None, 403),
            ("DELETE", "/api/events/nope", None, 404),
        ]
        errors = []
        for method, path, body, status in wrong:
            answer = await _request(app, method, path, body)
            assert answer.status_code == status, (method, path, answer.text)
            errors.append(answer.json()["errors"])
        assert errors[:4] == [
            ["unknown field 'colour'", "start must be an ISO date-time, e.g. 2025-03-14T14:00"],
            ["end must be after start"],
            ["unknown time zone 'Mars'"],
            ["zed@harborline.example.test is not a guest of this event."],
        ]
        assert errors[6] == ["no event 'nope'"]
        deleted = await _request(app, "DELETE", "/api/events/sync")
        assert (deleted.status_code, deleted.json()) == (200, {"ok": True, "deleted": "sync"})
        assert (await app.get("/api/events/sync")).status_code == 404
        snap = _snapshot(world)
        assert [e["id"] for e in snap["deleted"]] == ["sync"]
        assert snap["deleted"][0]["title"] == "Sync"
    finally:
        server.end("calx-8")
