"""Changing calendar events in real Chromium, graded by event_moved, event_deleted, event_exists.

Each test writes a one-off scenario whose steps use the calendar's forms, runs it
through the session's worker (fixture server + Chromium) and reads the attempt's
record: the steps, the graded checks, the server's request log and the snapshot.
Times are relative to the worker's run clock, so the expected instants are
computed from the snapshot's ``now``; the shipped scenario also runs at fixed
clocks on both sides of New York's daylight saving time.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import (
    SUITE_ROOT,
    LoadedScenario,
    When,
    anchor,
    dump_scenario,
    load_scenario,
)
from proctor.world import all_sites

pytestmark = pytest.mark.browser

NY = "America/New_York"
KENJI = "kenji.mori@kitano-parts.example.test"
BO = "bo@harborline.example.test"
ANA = "ana@harborline.example.test"
CALENDAR: dict[str, Any] = {
    "tz": NY,
    "owner": "maya@harborline.example.test",
    "name": "Maya Chen",
    "events": [
        {
            "id": "sync",
            "title": "Supplier sync",
            "tz": "Asia/Tokyo",
            "start": {"days": 2, "at": "10:30"},
            "minutes": 45,
            "attendees": [
                {"email": KENJI, "name": "Kenji Mori", "rsvp": "accepted"},
                {"email": BO, "name": "Bo Chen"},
            ],
        },
        {
            "id": "standup",
            "title": "Team standup",
            "start": {"days": 1, "at": "09:30"},
            "minutes": 15,
        },
    ],
}
FROM_TOKYO = {"days": 2, "at": "10:30", "tz": "Asia/Tokyo"}
OPEN = [{"op": "navigate", "url": "{site.calendar}/event/sync"}]


def _scenario(
    folder: Path, sid: str, steps: list[dict[str, Any]], checks: list[dict[str, Any]]
) -> LoadedScenario:
    data = {
        "id": sid,
        "title": sid,
        "tier": "local",
        "category": "regression",
        "brief": "Change the supplier sync.",
        "world": {
            "sites": ["calendar"],
            "apps": {"calendar": CALENDAR},
            "browser": {"start": "{site.calendar}/"},
        },
        "checks": checks,
        "solution": steps,
        "decoys": [{"name": "none", "steps": [{"op": "done"}], "fails": [_name(checks[0])]}],
    }
    path = folder / f"{sid}.yaml"
    path.write_text(dump_scenario(data), encoding="utf-8")
    return load_scenario(path, sites=set(all_sites()))


def _name(check: dict[str, Any]) -> str:
    (args,) = check.values()
    name: str = args["name"]
    return name


async def _run(
    worker: Worker, loaded: LoadedScenario, spec: str = "oracle=scripted"
) -> AttemptRecord:
    return await run_attempt(worker, PlanItem(loaded, parse_arm(spec), 1), write=False)


def _ok(record: AttemptRecord, steps: int) -> None:
    assert [s.status for s in record.steps] == ["ok"] * steps, [s.error for s in record.steps]


def _verdicts(record: AttemptRecord) -> list[tuple[str, bool]]:
    return [(c.name, c.passed) for c in record.checks]


def _posts(record: AttemptRecord) -> list[tuple[str, int, dict[str, list[str]]]]:
    requests = record.end_state.requests
    return [(r.path, r.status, r.form) for r in requests if r.method == "POST"]


def _calendar(record: AttemptRecord) -> dict[str, Any]:
    snap: dict[str, Any] = record.end_state.apps["calendar"]
    return snap


def _at(record: AttemptRecord, when: dict[str, Any], tz: str = NY) -> str:
    """The UTC ISO instant a ``When`` names on this attempt's run clock (days in New York)."""
    now = dt.datetime.fromisoformat(_calendar(record)["now"])
    return anchor(When(**when), now, tz, NY).astimezone(dt.UTC).isoformat()


def _event(record: AttemptRecord, eid: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [e for e in _calendar(record)["events"] if e["id"] == eid]
    assert len(found) == 1, eid
    return found[0]


async def test_move_by_the_form_in_my_zone_and_in_the_events_zone(
    worker: Worker, tmp_path: Path
) -> None:
    mine = [
        *OPEN,
        {"op": "click", "role": "link", "name": "Move event"},
        {"op": "click", "role": "link", "name": f"Use my time zone ({NY})"},
        {"op": "fill", "role": "textbox", "name": "Start time", "value": "8am"},
        {"op": "click", "role": "button", "name": "Move event"},
        {"op": "wait", "text": "Start time must look like 14:30."},
        {"op": "fill", "role": "textbox", "name": "Start time", "value": "08:00"},
        {"op": "click", "role": "button", "name": "Move event"},
        {"op": "wait", "text": "Moved to"},
        {"op": "done"},
    ]
    checks: list[dict[str, Any]] = [
        {
            "event_moved": {
                "name": "moved",
                "id": "sync",
                "from": FROM_TOKYO,
                "to": {"days": 1, "at": "08:00"},
            }
        },
        {"event_exists": {"name": "at-8", "id": "sync", "start": {"days": 1, "at": "08:00"}}},
    ]
    record = await _run(worker, _scenario(tmp_path, "cal-move-mine", mine, checks))
    _ok(record, len(mine))
    assert _verdicts(record) == [("moved", True), ("at-8", True)]
    eight = _at(record, {"days": 1, "at": "08:00"})
    sync = _event(record, "sync")
    assert (sync["start"], sync["tz"]) == (eight, NY)
    assert sync["original_start"] == _at(record, {"days": 2, "at": "10:30"}, "Asia/Tokyo")
    form = {"date": [eight[:10]], "tz": [NY]}
    assert _posts(record) == [
        ("/event/sync/move", 400, {**form, "start": ["8am"]}),
        ("/event/sync/move", 303, {**form, "start": ["08:00"]}),
    ]
    assert record.end_state.url == "http://calendar.proctor.test/event/sync?moved=1"

    # The same 08:00 typed into the form as it opens, in the event's zone (Tokyo).
    tokyo = [
        *OPEN,
        {"op": "click", "role": "link", "name": "Move event"},
        {"op": "fill", "role": "textbox", "name": "Start time", "value": "08:00"},
        {"op": "click", "role": "button", "name": "Move event"},
        {"op": "wait", "text": "Moved to"},
        {"op": "done"},
    ]
    record = await _run(worker, _scenario(tmp_path, "cal-move-tokyo", tokyo, checks))
    _ok(record, len(tokyo))
    assert _verdicts(record) == [("moved", False), ("at-8", False)]
    tokyo_eight = _at(record, {"days": 2, "at": "08:00"}, "Asia/Tokyo")
    assert _event(record, "sync")["start"] == tokyo_eight
    shown = dt.datetime.fromisoformat(tokyo_eight).astimezone(ZoneInfo(NY)).isoformat()
    assert record.checks[0].detail == f"it starts at {shown}"


async def test_edit_changes_the_fields_and_is_not_a_move(worker: Worker, tmp_path: Path) -> None:
    steps = [
        *OPEN,
        {"op": "click", "role": "link", "name": "Edit event"},
        {"op": "fill", "role": "textbox", "name": "Title", "value": "Supplier sync (forecast)"},
        {"op": "fill", "role": "textbox", "name": "Location", "value": "Osaka office"},
        {"op": "click", "role": "button", "name": "Save changes"},
        {"op": "wait", "text": "Saved."},
        {"op": "done"},
    ]
    checks: list[dict[str, Any]] = [
        {
            "event_exists": {
                "name": "renamed",
                "id": "sync",
                "title": "Supplier sync (forecast)",
                "start": FROM_TOKYO,
                "minutes": 45,
                "new": False,
            },
        },
        {"event_moved": {"name": "moved", "title": "Supplier sync (forecast)"}},
    ]
    record = await _run(worker, _scenario(tmp_path, "cal-edit", steps, checks))
    _ok(record, len(steps))
    assert _verdicts(record) == [("renamed", True), ("moved", False)]
    assert record.checks[1].detail == "it still starts where it did"
    sync = _event(record, "sync")
    assert (sync["title"], sync["location"], sync["tz"]) == (
        "Supplier sync (forecast)",
        "Osaka office",
        "Asia/Tokyo",
    )
    ((path, status, form),) = _posts(record)
    assert (path, status, form["title"], form["tz"]) == (
        "/event/sync/edit",
        303,
        ["Supplier sync (forecast)"],
        ["Asia/Tokyo"],
    )


async def test_delete_is_graded_by_event_deleted(worker: Worker, tmp_path: Path) -> None:
    steps = [
        *OPEN,
        {"op": "click", "role": "button", "name": "Delete event"},
        {"op": "wait", "text": "Deleted “Supplier sync”."},
        {"op": "done"},
    ]
    checks: list[dict[str, Any]] = [
        {"event_deleted": {"name": "deleted", "id": "sync"}},
        {"event_deleted": {"name": "standup-deleted", "title": "Team standup"}},
        {"event_exists": {"name": "no-sync", "title_contains": "supplier", "count": 0}},
    ]
    record = await _run(worker, _scenario(tmp_path, "cal-delete", steps, checks))
    _ok(record, len(steps))
    assert _verdicts(record) == [("deleted", True), ("standup-deleted", False), ("no-sync", True)]
    assert record.checks[0].actual == {"deleted": ["sync"], "left": []}
    assert record.checks[1].actual == {"deleted": [], "left": ["standup"]}
    snap = _calendar(record)
    assert [e["id"] for e in snap["events"]] == ["standup"]
    assert [e["id"] for e in snap["deleted"]] == ["sync"]
    start = dt.datetime.fromisoformat(_at(record, {"days": 2, "at": "10:30"}, "Asia/Tokyo"))
    day = start.astimezone(ZoneInfo(NY)).date()  # the redirect names the day in New York
    assert _posts(record) == [("/event/sync/delete", 303, {})]
    assert record.end_state.url == f"http://calendar.proctor.test/day?date={day}&deleted=sync"


async def test_guests_are_invited_and_removed(worker: Worker, tmp_path: Path) -> None:
    steps = [
        *OPEN,
        {
            "op": "fill",
            "role": "textbox",
            "name": "Invite guests (email addresses, comma-separated)",
            "value": f"Ana Ruiz <{ANA}>",
        },
        {"op": "click", "role": "button", "name": "Invite"},
        {"op": "wait", "text": "Guests updated."},
        {"op": "click", "role": "button", "name": f"Remove {BO}"},
        {"op": "wait", "text": "Guests updated."},
        {"op": "done"},
    ]
    checks: list[dict[str, Any]] = [
        {
            "event_exists": {
                "name": "guests",
                "id": "sync",
                "attendees": [KENJI, ANA],
                "uninvited": [BO],
            }
        },
        {"event_exists": {"name": "bo-kept", "id": "sync", "attendees": [BO]}},
    ]
    record = await _run(worker, _scenario(tmp_path, "cal-guests", steps, checks))
    _ok(record, len(steps))
    assert _verdicts(record) == [("guests", True), ("bo-kept", False)]
    assert [(a["email"], a["rsvp"]) for a in _event(record, "sync")["attendees"]] == [
        (KENJI, "accepted"),
        (ANA, "needs_action"),
    ]
    assert _posts(record) == [
        ("/event/sync/guests", 303, {"add": [f"Ana Ruiz <{ANA}>"]}),
        ("/event/sync/guests", 303, {"remove": [BO]}),
    ]


@contextmanager
def _clock(worker: Worker, at: dt.datetime) -> Iterator[None]:
    """The worker's run clock set to ``at`` for the attempts inside."""
    before = worker.clock
    worker.clock = at
    try:
        yield
    finally:
        worker.clock = before


@pytest.mark.parametrize(
    ("clock", "evening"),
    [
        (dt.datetime(2025, 1, 14, 15, 0, tzinfo=dt.UTC), "20:30"),  # New York on EST
        (dt.datetime(2025, 7, 15, 3, 30, tzinfo=dt.UTC), "21:30"),  # EDT, 23:30 the day before
    ],
    ids=["est", "edt-late-evening"],
)
async def test_the_shipped_scenario_at_both_offsets(
    worker: Worker, clock: dt.datetime, evening: str
) -> None:
    loaded = load_scenario(
        SUITE_ROOT / "local" / "move-meeting-across-zones.yaml", sites=set(all_sites())
    )
    tomorrow = clock.astimezone(ZoneInfo(NY)).date() + dt.timedelta(days=1)
    with _clock(worker, clock):
        oracle = await _run(worker, loaded)
        decoy = await _run(worker, loaded, "tokyo=decoy:types-the-time-in-the-tokyo-zone")
    assert oracle.result == "passed", [(c.name, c.detail) for c in oracle.checks]
    moved = _event(oracle, "supplier-sync")
    assert moved["original_start"] == _at(oracle, {"days": 1, "at": evening})
    assert moved["start"] == _at(oracle, {"days": 1, "at": "08:00"})
    assert moved["start"][:10] == tomorrow.isoformat()
    assert decoy.result == "failed"
    assert [(c.name, c.passed) for c in decoy.checks] == [
        ("moved-to-8am-new-york", False),
        ("kenji-still-invited", True),
        ("last-sync-untouched", True),
        ("no-new-event", True),
    ]
    assert _event(decoy, "supplier-sync")["start"] == _at(
        decoy, {"days": 2, "at": "08:00"}, "Asia/Tokyo"
    )
