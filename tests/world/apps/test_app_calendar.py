"""calendar.proctor.test on a real server: views, create, invites and RSVP, free/busy, zones."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from pathlib import Path
from typing import Any

import httpx
from apps_support import CLOCK, App, alerts, begin, status_text

from proctor.world import FixtureServer
from proctor.world.apps import calendar

SEEDS: dict[str, Any] = {
    "calendar": {
        "tz": "Europe/Paris",
        "owner": "sam@example.test",
        "name": "Sam Lee",
        "events": [
            {"title": "Standup", "start": {"days": 0, "at": "09:00"}, "minutes": 15},
            {
                "id": "offsite",
                "title": "Offsite planning",
                "start": {"days": 2, "at": "10:00"},
                "end": {"days": 2, "at": "16:00"},
                "organizer": "ana@example.test",
                "attendees": [
                    {"email": "sam@example.test"},
                    {"email": "bo@example.test", "name": "Bo Chen", "rsvp": "accepted"},
                ],
            },
            {
                "title": "Not mine",
                "start": {"days": 1, "at": "08:00"},
                "minutes": 30,
                "organizer": "ana@example.test",
                "attendees": [{"email": "bo@example.test"}],
            },
        ],
        "people": [
            {
                "email": "bo@example.test",
                "name": "Bo Chen",
                "busy": [{"start": {"days": 1, "at": "13:00"}, "end": {"days": 1, "at": "14:30"}}],
            }
        ],
    }
}
FORM = {
    "title": "Budget review",
    "date": "2025-03-06",
    "start": "14:00",
    "end": "15:00",
    "tz": "Europe/Paris",
    "attendees": "bo@example.test, Ana Ruiz <ana@example.test>",
    "location": "Room 2",
    "description": "Q2 numbers",
}


def _linked(html: str) -> list[str]:
    return re.findall(r'<a href="/event/([^"]+)">', html)


async def test_week_day_and_api_agree(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "cal-1", SEEDS)
    app = App(client, "calendar", "cal-1")
    try:
        week = await app.get("/")
        assert "Week of Monday 3 March 2025" in week.text
        assert _linked(week.text) == ["e1", "offsite"]  # not the event she is not invited to
        assert "09:00–09:15 Standup" in unescape(week.text)
        api = (await app.get("/api/events")).json()
        assert [e["id"] for e in api["events"]] == ["e1", "offsite"]
        assert [(e["start"], e["end"]) for e in api["events"]] == [
            ("2025-03-04T08:00:00+00:00", "2025-03-04T08:15:00+00:00"),
            ("2025-03-06T09:00:00+00:00", "2025-03-06T15:00:00+00:00"),
        ]
        day = await app.get("/day?date=2025-03-06")
        assert _linked(day.text) == ["offsite"]
        window = await app.get("/api/events?from=2025-03-06T00:00&to=2025-03-07T00:00")
        assert [e["id"] for e in window.json()["events"]] == ["offsite"]
        assert "Invitations (1 to answer)" in week.text
        invites = await app.get("/invites")
        assert _linked(invites.text) == ["offsite"]
        assert (await app.get("/event/e2")).status_code == 404  # not invited
    finally:
        server.end("cal-1")


async def test_create_event_redirects_and_shows_it(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "cal-2", SEEDS)
    app = App(client, "calendar", "cal-2")
    try:
        created = await app.post("/events", FORM)
        assert created.status_code == 303
        assert created.headers["location"] == "/event/e3?created=1"
        page = await app.get(created.headers["location"])
        assert status_text(page.text) == "Saved."
        assert "<h1>Budget review</h1>" in page.text
        assert "Thu 6 Mar 2025, 14:00 – 15:00 (Europe/Paris)" in unescape(page.text)
        guests = re.findall(r"&lt;([^&]+)&gt;</td><td>([^<]+)</td>", page.text)
        assert guests == [("bo@example.test", "Not answered"), ("ana@example.test", "Not answered")]
        day = await app.get("/day?date=2025-03-06")
        assert _linked(day.text) == ["offsite", "e3"]
        event = (await app.get("/api/events/e3")).json()
        assert event == {
            "id": "e3",
            "title": "Budget review",
            "start": "2025-03-06T13:00:00+00:00",
            "end": "2025-03-06T14:00:00+00:00",
            "tz": "Europe/Paris",
            "location": "Room 2",
            "description": "Q2 numbers",
            "organizer": "sam@example.test",
            "attendees": [
                {"email": "bo@example.test", "name": "Bo Chen", "rsvp": "needs_action"},
                {"email": "ana@example.test", "name": "", "rsvp": "needs_action"},
            ],
            "my_rsvp": "accepted",
            "seeded": False,
        }
        # Another zone: 09:00 in New York is 14:00 UTC; both zones are shown.
        api = await app.post_json(
            "/api/events",
            {
                "title": "Call with NY",
                "start": "2025-03-07T09:00",
                "end": "2025-03-07T09:30",
                "tz": "America/New_York",
                "attendees": ["cy@example.test"],
            },
        )
        assert api.status_code == 201
        assert (api.json()["event"]["id"], api.json()["event"]["start"]) == (
            "e4",
            "2025-03-07T14:00:00+00:00",
        )
        ny = unescape((await app.get("/event/e4")).text)
        assert "Fri 7 Mar 2025, 15:00 – 15:30 (Europe/Paris)" in ny
        assert "Fri 7 Mar 2025, 09:00 – 09:30 (America/New_York)" in ny
        snap = calendar.snapshot(world)
        assert snap is not None
        assert [(e["id"], e["seeded"]) for e in snap["events"]] == [
            ("e1", True),
            ("offsite", True),
            ("e2", True),
            ("e3", False),
            ("e4", False),
        ]
    finally:
        server.end("cal-2")


async def test_invalid_events_are_refused_with_visible_messages(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "cal-3", SEEDS)
    app = App(client, "calendar", "cal-3")
    try:
        backwards = await app.post("/events", {**FORM, "start": "15:00", "end": "14:00"})
        assert backwards.status_code == 422
        assert alerts(backwards.text) == ["End time must be after the start time."]
        assert 'name="title" type="text" value="Budget review"' in backwards.text
        wrong = await app.post(
            "/events",
            {**FORM, "title": " ", "date": "6/3/2025", "tz": "Mars/Olympus", "attendees": "bo@"},
        )
        assert wrong.status_code == 422
        assert alerts(wrong.text) == [
            "Title is required.",
            "Unknown time zone 'Mars/Olympus'.",
            "Date must look like 2025-03-14.",
            "'bo@' is not a valid email address.",
        ]
        api = await app.post_json("/api/events", {"title": "x", "start": "soon", "end": "later"})
        assert api.status_code == 422
        assert api.json()["errors"] == [
            "start must be an ISO date-time, e.g. 2025-03-14T14:00",
            "end must be an ISO date-time, e.g. 2025-03-14T14:00",
        ]
        rsvp = await app.post("/event/offsite/rsvp", {"response": "maybe-later"})
        assert rsvp.status_code == 422
        assert alerts(rsvp.text) == ["Choose Going, Maybe or Not going."]
        own = await app.post("/event/e1/rsvp", {"response": "declined"})
        assert own.status_code == 422
        assert alerts(own.text) == ["You organize this event; there is nothing to answer."]
        assert (await app.get("/day?date=tomorrow")).status_code == 400
        snap = calendar.snapshot(world)
        assert snap is not None
        assert len(snap["events"]) == 3
    finally:
        server.end("cal-3")


async def test_rsvp_and_free_busy(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "cal-4", SEEDS)
    app = App(client, "calendar", "cal-4")
    try:
        answered = await app.post("/event/offsite/rsvp", {"response": "accepted"})
        assert answered.status_code == 303
        assert answered.headers["location"] == "/event/offsite?answered=1"
        page = await app.get(answered.headers["location"])
        assert "<h2>Your answer: Going</h2>" in page.text
        assert "Invitations (" not in page.text
        assert (await app.get("/api/events/offsite")).json()["my_rsvp"] == "accepted"
        declined = await app.post_json("/api/events/offsite/rsvp", {"response": "declined"})
        assert declined.json()["event"]["my_rsvp"] == "declined"

        busy = await app.get(
            "/api/freebusy?emails=bo@example.test,sam@example.test"
            "&from=2025-03-04T00:00&to=2025-03-07T00:00"
        )
        assert busy.json()["busy"] == {
            "bo@example.test": [
                {"start": "2025-03-05T07:00:00+00:00", "end": "2025-03-05T07:30:00+00:00"},
                {"start": "2025-03-05T12:00:00+00:00", "end": "2025-03-05T13:30:00+00:00"},
                {"start": "2025-03-06T09:00:00+00:00", "end": "2025-03-06T15:00:00+00:00"},
            ],
            "sam@example.test": [  # the declined offsite no longer makes her busy
                {
                    "start": "2025-03-04T08:00:00+00:00",
                    "end": "2025-03-04T08:15:00+00:00",
                    "title": "Standup",
                }
            ],
        }
        ui = await app.get("/freebusy?emails=bo@example.test&date=2025-03-05")
        rows = re.findall(r"&lt;([^&]+)&gt;</td><td>(.*?)</td></tr>", ui.text)
        assert [(email, unescape(busy)) for email, busy in rows] == [
            ("sam@example.test", "Free all day"),
            ("bo@example.test", "08:00–08:30, 13:00–14:30"),
        ]
        bad = await app.get("/freebusy?emails=nobody")
        assert bad.status_code == 400
        assert alerts(bad.text) == ["'nobody' is not a valid email address."]
    finally:
        server.end("cal-4")


async def test_a_second_attempt_starts_clean_and_same_seed_and_clock_repeat(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    first = begin(server, tmp_path, "cal-5", SEEDS)
    app = App(client, "calendar", "cal-5")
    try:
        await app.post("/events", FORM)
        await app.post("/event/offsite/rsvp", {"response": "tentative"})
        touched = calendar.snapshot(first)
    finally:
        server.end("cal-5")
    second = begin(server, tmp_path, "cal-6", SEEDS)
    app = App(client, "calendar", "cal-6")
    try:
        assert [e["id"] for e in (await app.get("/api/events")).json()["events"]] == [
            "e1",
            "offsite",
        ]
        assert (await app.get("/api/events/offsite")).json()["my_rsvp"] == "needs_action"
        fresh = calendar.snapshot(second)
    finally:
        server.end("cal-6")
    third = begin(server, tmp_path, "cal-7", SEEDS)
    server.end("cal-7")
    assert touched is not None and fresh is not None
    assert len(touched["events"]) == 4 and len(fresh["events"]) == 3
    assert calendar.snapshot(third) == fresh
    later = begin(server, tmp_path, "cal-8", SEEDS, clock=CLOCK + dt.timedelta(days=7))
    server.end("cal-8")
    moved = calendar.snapshot(later)
    assert moved is not None
    assert moved["events"][0]["start"] == "2025-03-11T08:00:00+00:00"
