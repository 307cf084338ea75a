"""Changing an event the owner organizes: edit, move, delete, guests; what is wrong with input.

The pages and the JSON API share these: each ``read_*`` turns what was typed
(form fields, or JSON members) into a change or the messages that say what is
wrong with it, and each ``apply_*`` makes a change and marks the calendar
touched. Only the organizer changes an event: an invite is answered instead.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from proctor.world._kit import MAX_TEXT, addresses, text_of
from proctor.world._kit._time import parse_instant, zone_ok
from proctor.world.apps.calendar._state import (
    DAY_TEXT,
    TIME_TEXT,
    Attendee,
    Calendar,
    Event,
    check_form,
)


@dataclass(frozen=True)
class Edit:
    """An event's new fields, all checked."""

    title: str
    start: dt.datetime
    end: dt.datetime
    tz: str
    location: str
    description: str


@dataclass(frozen=True)
class Move:
    """An event's new start and zone; it keeps its length."""

    start: dt.datetime
    tz: str


@dataclass(frozen=True)
class Guests:
    """Addresses to invite and to take off the guest list."""

    add: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)


def not_organizer(cal: Calendar, event: Event) -> str | None:
    """Why the owner may not change ``event``; None when they organize it."""
    if event.organizer == cal.owner:
        return None
    return (
        f"Only the organizer ({event.organizer}) can change this event; "
        "answer the invitation instead."
    )


def edit_values(event: Event, tz: str) -> dict[str, str]:
    """The edit form's fields for ``event``, its times shown in zone ``tz``."""
    start = event.start.astimezone(ZoneInfo(tz))
    end = event.end.astimezone(ZoneInfo(tz))
    return {
        "title": event.title,
        "date": start.date().isoformat(),
        "start": f"{start:%H:%M}",
        "end": f"{end:%H:%M}",
        "tz": tz,
        "location": event.location,
        "description": event.description,
    }


def read_edit_form(values: Mapping[str, str]) -> Edit | list[str]:
    """The edit form's fields (date, start and end as HH:MM in ``tz``) as an edit, or errors."""
    draft = check_form({**values, "attendees": ""})
    if draft.errors or draft.start is None or draft.end is None:
        return draft.errors
    return Edit(
        values["title"].strip(),
        draft.start,
        draft.end,
        values["tz"].strip(),
        values["location"].strip(),
        values["description"],
    )


def read_edit_json(body: Mapping[str, object], event: Event) -> Edit | list[str]:
    """A PATCH body: any of title, start, end (ISO), tz, location, description, as an edit."""
    errors: list[str] = []
    known = {"title", "start", "end", "tz", "location", "description"}
    errors += [f"unknown field {key!r}" for key in body if key not in known]
    tz = text_of(body.get("tz", event.tz)).strip()
    if not zone_ok(tz):
        errors.append(f"unknown time zone {tz!r}")
    title = text_of(body.get("title", event.title)).strip()
    if not title:
        errors.append("title must not be empty")
    elif len(title) > 200:
        errors.append("title is too long")
    description = text_of(body.get("description", event.description))
    if len(description) > MAX_TEXT:
        errors.append("description is too long")
    moments: list[dt.datetime | None] = []
    for key, now in (("start", event.start), ("end", event.end)):
        if key not in body:
            moments.append(now)
            continue
        moment = parse_instant(text_of(body.get(key, "")), tz) if zone_ok(tz) else None
        if moment is None and zone_ok(tz):
            errors.append(f"{key} must be an ISO date-time, e.g. 2025-03-14T14:00")
        moments.append(moment)
    start, end = moments
    if start is not None and end is not None and end <= start:
        errors.append("end must be after start")
    if errors or start is None or end is None:
        return errors
    location = text_of(body.get("location", event.location)).strip()
    return Edit(title, start, end, tz, location, description)


def move_values(event: Event, tz: str) -> dict[str, str]:
    """The move form's fields for ``event``: where it starts, shown in zone ``tz``."""
    start = event.start.astimezone(ZoneInfo(tz))
    return {"date": start.date().isoformat(), "start": f"{start:%H:%M}", "tz": tz}


def read_move_form(values: Mapping[str, str]) -> Move | list[str]:
    """The move form's date (YYYY-MM-DD), start (HH:MM) and zone as a move, or errors."""
    errors: list[str] = []
    tz = values.get("tz", "").strip()
    if not zone_ok(tz):
        errors.append(f"Unknown time zone {tz!r}.")
    day: dt.date | None = None
    date_text = values.get("date", "").strip()
    if not DAY_TEXT.match(date_text):
        errors.append("Date must look like 2025-03-14.")
    else:
        try:
            day = dt.date.fromisoformat(date_text)
        except ValueError:
            errors.append("Date is not a real day.")
    time_text = values.get("start", "").strip()
    if not TIME_TEXT.match(time_text):
        errors.append("Start time must look like 14:30.")
    if errors or day is None:
        return errors
    hour, minute = (int(part) for part in time_text.split(":"))
    start = dt.datetime.combine(day, dt.time(hour, minute), tzinfo=ZoneInfo(tz))
    return Move(start.astimezone(dt.UTC), tz)


def read_move_json(body: Mapping[str, object], event: Event) -> Move | list[str]:
    """A move body: ``start`` (ISO; without an offset, read in ``tz``) and ``tz`` (optional)."""
    errors = [f"unknown field {key!r}" for key in body if key not in ("start", "tz")]
    tz = text_of(body.get("tz", event.tz)).strip()
    if not zone_ok(tz):
        errors.append(f"unknown time zone {tz!r}")
    start = parse_instant(text_of(body.get("start", "")), tz) if zone_ok(tz) else None
    if start is None and zone_ok(tz):
        errors.append("start must be an ISO date-time, e.g. 2025-03-14T14:00")
    if errors or start is None:
        return errors
    return Move(start, tz)


def read_guests(add: str, remove: str, cal: Calendar, event: Event) -> Guests | list[str]:
    """Addresses to add and remove (comma-separated), checked against the guest list."""
    adding, bad_add = addresses(add)
    removing, bad_remove = addresses(remove)
    errors = [f"{b!r} is not a valid email address." for b in [*bad_add, *bad_remove]]
    invited = {a.email for a in event.attendees}
    errors += [f"{r} is not a guest of this event." for r in removing if r not in invited]
    errors += [f"{a} is both added and removed." for a in adding if a in removing]
    if not errors and not adding and not removing:
        errors.append("Give an email address to invite or a guest to remove.")
    if errors:
        return errors
    return Guests([a for a in adding if a not in invited and a != cal.owner], removing)


def apply_edit(cal: Calendar, event: Event, edit: Edit) -> None:
    event.title, event.start, event.end, event.tz = edit.title, edit.start, edit.end, edit.tz
    event.location, event.description = edit.location, edit.description
    cal.touched = True


def apply_move(cal: Calendar, event: Event, move: Move) -> None:
    length = event.end - event.start
    event.start, event.end, event.tz = move.start, move.start + length, move.tz
    cal.touched = True


def apply_delete(cal: Calendar, event: Event) -> None:
    cal.events.remove(event)
    cal.deleted.append(event)
    cal.touched = True


def apply_guests(cal: Calendar, event: Event, guests: Guests) -> None:
    kept = [a for a in event.attendees if a.email not in guests.remove]
    event.attendees = kept + [Attendee(a, cal.names.get(a, "")) for a in guests.add]
    cal.touched = True
