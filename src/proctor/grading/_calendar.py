"""Evaluators of the checks on changed calendar events: ``event_moved``, ``event_deleted``.

Both read the calendar's end-state snapshot (``CalendarSnapshot``): an event's
``original_start`` and ``original_end`` (where it was when the attempt began,
or when it was created) against where it is, and the ``deleted`` list. Times
they report are shown in the calendar's zone.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from proctor.grading._apps import SHOWN, moment
from proctor.grading._outcome import CheckOutcome
from proctor.records import CalendarEvent, CalendarSnapshot, EndState
from proctor.scenario import EventDeleted, EventMoved


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _shown(instant: dt.datetime, tz: str) -> str:
    return instant.astimezone(ZoneInfo(tz)).isoformat()


def _minutes(start: dt.datetime, end: dt.datetime) -> int:
    return int((end - start).total_seconds() // 60)


def event_moved(args: EventMoved, state: EndState) -> CheckOutcome:
    calendar = state.app(CalendarSnapshot)
    expected: dict[str, Any] = {"id": args.id} if args.id is not None else {"title": args.title}
    if calendar is None:
        return CheckOutcome(False, expected, None, "no calendar in the end state")
    now, tz = calendar.now, calendar.tz or "UTC"
    source = moment(args.from_, now, tz) if args.from_ is not None else None
    target = moment(args.to, now, tz) if args.to is not None else None
    if source is not None:
        expected["from"] = source.isoformat()
    if target is not None:
        expected["to"] = target.isoformat()
    expected["same_length"] = args.same_length

    def picked(event: CalendarEvent) -> bool:
        if args.id is not None:
            return event.id == args.id
        return _fold(event.title) == _fold(args.title or "")

    found = [e for e in calendar.events if picked(e)]
    if len(found) != 1:
        gone = [e.id for e in calendar.deleted if picked(e)]
        if found:
            detail = f"{len(found)} events match: {', '.join(e.id for e in found)}; pick by id"
        else:
            detail = "no such event at the end" + (f"; deleted: {', '.join(gone)}" if gone else "")
        return CheckOutcome(False, expected, {"matching": [e.id for e in found]}, detail)
    event = found[0]
    misses = []
    if source is not None and event.original_start != source:
        misses.append(f"it started at {_shown(event.original_start, tz)}, not at `from`")
    if event.start == event.original_start:
        misses.append("it still starts where it did")
    if target is not None and event.start != target:
        misses.append(f"it starts at {_shown(event.start, tz)}")
    was = _minutes(event.original_start, event.original_end)
    now_lasts = _minutes(event.start, event.end)
    if args.same_length and now_lasts != was:
        misses.append(f"it lasts {now_lasts} minutes, not {was}")
    actual = {
        "id": event.id,
        "start": _shown(event.start, tz),
        "end": _shown(event.end, tz),
        "original_start": _shown(event.original_start, tz),
        "original_end": _shown(event.original_end, tz),
    }
    return CheckOutcome(not misses, expected, actual, "; ".join(misses))


def event_deleted(args: EventDeleted, state: EndState) -> CheckOutcome:
    calendar = state.app(CalendarSnapshot)
    keys = ("id", "title", "title_contains")
    expected: dict[str, Any] = {k: getattr(args, k) for k in keys if getattr(args, k) is not None}
    if calendar is None:
        return CheckOutcome(False, expected, None, "no calendar in the end state")
    now, tz = calendar.now, calendar.tz or "UTC"
    start = moment(args.start, now, tz) if args.start is not None else None
    if start is not None:
        expected["start"] = start.isoformat()
    expected |= {"deleted": "at least 1", "left": 0}

    def picked(event: CalendarEvent) -> bool:
        return (
            (args.id is None or event.id == args.id)
            and (args.title is None or _fold(event.title) == _fold(args.title))
            and (args.title_contains is None or _fold(args.title_contains) in _fold(event.title))
            and (start is None or event.start == start)
        )

    gone = [e for e in calendar.deleted if picked(e)]
    left = [e for e in calendar.events if picked(e)]
    actual = {"deleted": [e.id for e in gone], "left": [e.id for e in left]}
    if left:
        shown = [f"{e.id} {e.title!r} at {_shown(e.start, tz)}" for e in left[:SHOWN]]
        return CheckOutcome(False, expected, actual, "still on the calendar: " + " | ".join(shown))
    if not gone:
        others = [f"{e.id} {e.title!r}" for e in calendar.deleted[:SHOWN]]
        detail = "nothing deleted matches" + (f"; deleted: {', '.join(others)}" if others else "")
        return CheckOutcome(False, expected, actual, detail)
    return CheckOutcome(True, expected, actual, "")
