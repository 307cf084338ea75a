"""event_moved, event_deleted and event_exists (id, uninvited, zoned times) over built snapshots."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from proctor.grading import grade_one
from proctor.records import CheckResult, EndState
from proctor.scenario import CheckSpec

_CHECK: TypeAdapter[Any] = TypeAdapter(CheckSpec)


def check(data: dict[str, Any]) -> BaseModel:
    parsed: BaseModel = _CHECK.validate_python(data)
    return parsed


def run(data: dict[str, Any], apps: dict[str, Any]) -> CheckResult:
    return grade_one(check(data), EndState(apps=apps))


def event(eid: str, title: str, start: str, end: str, **fields: Any) -> dict[str, Any]:
    """An event as the calendar snapshots it; ``original`` is (start, end) when it began."""
    original = fields.pop("original", (start, end))
    return {
        "id": eid,
        "title": title,
        "start": start,
        "end": end,
        "tz": "America/New_York",
        "location": "",
        "description": "",
        "organizer": "maya@example.test",
        "attendees": [
            {"email": a, "name": "", "rsvp": "needs_action"} for a in fields.pop("guests", [])
        ],
        "my_rsvp": "accepted",
        "seeded": True,
        "original_start": original[0],
        "original_end": original[1],
        **fields,
    }


TOKYO_SLOT = ("2025-03-06T01:30:00+00:00", "2025-03-06T02:15:00+00:00")
"""10:30-11:15 in Tokyo on Thu 6 Mar: two days from Tue 4 Mar in New York."""
CALENDAR = {
    "calendar": {
        "now": "2025-03-04T10:00:00+00:00",
        "tz": "America/New_York",
        "owner": "maya@example.test",
        "name": "Maya",
        "events": [
            event(
                "sync",
                "Supplier sync",
                "2025-03-05T13:00:00+00:00",
                "2025-03-05T13:45:00+00:00",
                original=TOKYO_SLOT,
                guests=["kenji@example.test"],
            ),
            event(
                "stretched",
                "Planning",
                "2025-03-05T13:00:00+00:00",
                "2025-03-05T23:00:00+00:00",
                original=("2025-03-05T22:00:00+00:00", "2025-03-05T23:00:00+00:00"),
            ),
            event("still", "Standup", "2025-03-05T14:30:00+00:00", "2025-03-05T14:45:00+00:00"),
            event("again", "Standup", "2025-03-06T14:30:00+00:00", "2025-03-06T14:45:00+00:00"),
        ],
        "deleted": [
            event(
                "budget",
                "Budget review",
                "2025-03-07T15:00:00+00:00",
                "2025-03-07T16:00:00+00:00",
                tz="Asia/Tokyo",
            )
        ],
    }
}
FROM_TOKYO = {"days": 2, "at": "10:30", "tz": "Asia/Tokyo"}


def test_event_moved_passes_and_reports_times_in_the_calendars_zone() -> None:
    result = run(
        {"event_moved": {"id": "sync", "from": FROM_TOKYO, "to": {"days": 1, "at": "08:00"}}},
        CALENDAR,
    )
    assert (result.passed, result.detail) == (True, "")
    assert result.expected == {
        "id": "sync",
        "from": "2025-03-06T10:30:00+09:00",
        "to": "2025-03-05T08:00:00-05:00",
        "same_length": True,
    }
    assert result.actual == {
        "id": "sync",
        "start": "2025-03-05T08:00:00-05:00",
        "end": "2025-03-05T08:45:00-05:00",
        "original_start": "2025-03-05T20:30:00-05:00",
        "original_end": "2025-03-05T21:15:00-05:00",
    }


@pytest.mark.parametrize(
    ("args", "detail"),
    [
        (
            {"id": "sync", "to": {"days": 1, "at": "08:00", "tz": "Asia/Tokyo"}},
            "it starts at 2025-03-05T08:00:00-05:00",
        ),
        (
            {"id": "sync", "from": {"days": 2, "at": "10:30"}},
            "it started at 2025-03-05T20:30:00-05:00, not at `from`",
        ),
        ({"id": "still"}, "it still starts where it did"),
        ({"id": "stretched"}, "it lasts 600 minutes, not 60"),
        ({"title": "standup"}, "2 events match: still, again; pick by id"),
        ({"id": "budget"}, "no such event at the end; deleted: budget"),
        ({"id": "nope"}, "no such event at the end"),
    ],
)
def test_event_moved_fails_naming_what_is_off(args: dict[str, Any], detail: str) -> None:
    result = run({"event_moved": args}, CALENDAR)
    assert (result.passed, result.detail) == (False, detail)


def test_event_moved_by_title_and_a_resize_when_length_may_change() -> None:
    assert run({"event_moved": {"title": "SUPPLIER sync"}}, CALENDAR).passed is True
    stretched = run({"event_moved": {"id": "stretched", "same_length": False}}, CALENDAR)
    assert (stretched.passed, stretched.expected["same_length"]) == (True, False)
    none = run({"event_moved": {"id": "sync"}}, {})
    assert (none.passed, none.detail) == (False, "no calendar in the end state")


def test_event_deleted_needs_a_deletion_and_nothing_left_that_matches() -> None:
    by_id = run({"event_deleted": {"id": "budget"}}, CALENDAR)
    assert (by_id.passed, by_id.actual) == (True, {"deleted": ["budget"], "left": []})
    assert by_id.expected == {"id": "budget", "deleted": "at least 1", "left": 0}
    zoned = {"days": 3, "at": "10:00"}
    assert run({"event_deleted": {"title": "budget REVIEW", "start": zoned}}, CALENDAR).passed
    tokyo = run(
        {"event_deleted": {"title_contains": "budget", "start": {**zoned, "tz": "Asia/Tokyo"}}},
        CALENDAR,
    )
    assert (tokyo.passed, tokyo.detail) == (
        False,
        "nothing deleted matches; deleted: budget 'Budget review'",
    )
    left = run({"event_deleted": {"title": "Standup"}}, CALENDAR)
    assert (left.passed, left.actual) == (False, {"deleted": [], "left": ["still", "again"]})
    assert left.detail == (
        "still on the calendar: still 'Standup' at 2025-03-05T09:30:00-05:00 | "
        "again 'Standup' at 2025-03-06T09:30:00-05:00"
    )


def test_event_exists_by_id_with_uninvited_guests_and_a_time_in_another_zone() -> None:
    tokyo = {"days": 1, "at": "22:00", "tz": "Asia/Tokyo"}  # 08:00 on Wed 5 in New York
    found = run(
        {"event_exists": {"id": "sync", "start": tokyo, "uninvited": ["bo@example.test"]}},
        CALENDAR,
    )
    assert (found.passed, found.actual) == (True, {"matching": ["sync"]})
    assert found.expected["start"] == "2025-03-05T22:00:00+09:00"
    kenji = run({"event_exists": {"id": "sync", "uninvited": ["kenji@example.test"]}}, CALENDAR)
    assert kenji.passed is False
    assert "sync 'Supplier sync': kenji@example.test invited" in kenji.detail
    other = run({"event_exists": {"id": "still", "title": "Supplier sync"}}, CALENDAR)
    assert (other.passed, other.actual) == (False, {"matching": []})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"event_moved": {"to": {"days": 1, "at": "08:00"}}}, "give exactly one of id or title"),
        ({"event_moved": {"id": "a", "title": "A"}}, "give exactly one of id or title"),
        ({"event_deleted": {"start": {"days": 1, "at": "08:00"}}}, "give id, title or"),
        ({"event_moved": {"id": "a", "to": {"at": "08:00", "tz": "Mars/Base"}}}, "unknown time"),
        ({"event_moved": {"id": "a", "to": "2025-03-05T08:00"}}, "timezone"),
    ],
)
def test_bad_arguments_fail_at_load(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as info:
        check(data)
    assert message in str(info.value)
