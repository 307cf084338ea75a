"""The calendar: events, attendees and RSVPs, the seed it starts from, its snapshot."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from proctor.scenario import CalendarSeed
from proctor.world._kit import (
    MAX_TEXT,
    addresses,
    fresh_ids,
)
from proctor.world._kit._time import (
    at,
    iso,
    local,
    run_now,
    zone_ok,
)
from proctor.world._site import AttemptWorld

NAME = "calendar"
ANSWERS = ("accepted", "tentative", "declined")
RSVP_WORDS = {  # keys: every Rsvp state
    "needs_action": "Not answered",
    "accepted": "Going",
    "tentative": "Maybe",
    "declined": "Not going",
}


@dataclass
class Attendee:
    email: str
    name: str
    rsvp: str = "needs_action"


@dataclass
class Event:
    id: str
    title: str
    start: dt.datetime
    end: dt.datetime
    tz: str
    organizer: str
    attendees: list[Attendee]
    seeded: bool
    location: str = ""
    description: str = ""
    original_start: dt.datetime = field(init=False)
    """Its start when the attempt began (seeded) or when it was created."""
    original_end: dt.datetime = field(init=False)

    def __post_init__(self) -> None:
        self.original_start, self.original_end = self.start, self.end

    def answer_of(self, email: str) -> str | None:
        if email == self.organizer:
            return "accepted"
        return next((a.rsvp for a in self.attendees if a.email == email), None)


@dataclass
class Calendar:
    """One attempt's calendar."""

    tz: str
    owner: str
    name: str
    now: dt.datetime
    seeded: bool
    events: list[Event] = field(default_factory=list)
    deleted: list[Event] = field(default_factory=list)
    """Events deleted during the attempt, as they were when deleted."""
    names: dict[str, str] = field(default_factory=dict)
    busy: dict[str, list[tuple[dt.datetime, dt.datetime]]] = field(default_factory=dict)
    touched: bool = False
    counter: int = 0

    def event(self, eid: str) -> Event | None:
        return next((e for e in self.events if e.id == eid), None)

    def mine(self) -> list[Event]:
        """Events on the owner's calendar, in start order."""
        picked = [e for e in self.events if e.answer_of(self.owner) is not None]
        return sorted(picked, key=lambda e: (e.start, e.id))

    def between(self, start: dt.datetime, end: dt.datetime) -> list[Event]:
        return [e for e in self.mine() if e.start < end and e.end > start]

    def invites(self) -> list[Event]:
        return [e for e in self.mine() if e.organizer != self.owner]

    def pending(self) -> int:
        return sum(e.answer_of(self.owner) == "needs_action" for e in self.mine())

    def today(self) -> dt.date:
        return local(self.now, self.tz).date()

    def day_bounds(self, day: dt.date) -> tuple[dt.datetime, dt.datetime]:
        zone = ZoneInfo(self.tz)
        start = dt.datetime.combine(day, dt.time(), tzinfo=zone)
        end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=zone)
        return start.astimezone(dt.UTC), end.astimezone(dt.UTC)

    def busy_of(self, email: str, start: dt.datetime, end: dt.datetime) -> list[dict[str, Any]]:
        """Busy intervals of one person in a window, in start order."""
        out: list[dict[str, Any]] = []
        for event in sorted(self.events, key=lambda e: (e.start, e.id)):
            answer = event.answer_of(email)
            if answer in (None, "declined") or not (event.start < end and event.end > start):
                continue
            item = {"start": iso(event.start), "end": iso(event.end)}
            if email == self.owner:
                item["title"] = event.title
            out.append(item)
        for b_start, b_end in self.busy.get(email, []):
            if b_start < end and b_end > start:
                out.append({"start": iso(b_start), "end": iso(b_end)})
        return sorted(out, key=lambda i: (i["start"], i["end"]))

    def create(
        self,
        title: str,
        start: dt.datetime,
        end: dt.datetime,
        tz: str,
        attendees: list[str],
        location: str,
        description: str,
    ) -> Event:
        taken = {e.id for e in [*self.events, *self.deleted]}  # a deleted id is never reused
        while True:
            self.counter += 1
            eid = f"e{self.counter}"
            if eid not in taken:
                break
        people = [Attendee(a, self.names.get(a, "")) for a in attendees if a != self.owner]
        event = Event(eid, title, start, end, tz, self.owner, people, False, location, description)
        self.events.append(event)
        self.touched = True
        return event

    def data(self, event: Event) -> dict[str, Any]:
        return {
            "id": event.id,
            "title": event.title,
            "start": iso(event.start),
            "end": iso(event.end),
            "tz": event.tz,
            "location": event.location,
            "description": event.description,
            "organizer": event.organizer,
            "attendees": [
                {"email": a.email, "name": a.name, "rsvp": a.rsvp} for a in event.attendees
            ],
            "my_rsvp": event.answer_of(self.owner),
            "seeded": event.seeded,
        }

    def record(self, event: Event) -> dict[str, Any]:
        """An event as the snapshot keeps it: its API data and where it started out."""
        return {
            **self.data(event),
            "original_start": iso(event.original_start),
            "original_end": iso(event.original_end),
        }

    def snapshot(self) -> dict[str, Any] | None:
        if not self.seeded and not self.touched:
            return None
        return {
            "now": iso(self.now),
            "tz": self.tz,
            "owner": self.owner,
            "name": self.name,
            "events": [self.record(e) for e in self.events],
            "deleted": [self.record(e) for e in self.deleted],
        }


def new_state(world: AttemptWorld) -> Calendar:
    raw = world.seeds.get(NAME)
    seed = CalendarSeed.model_validate(raw if raw is not None else {})
    cal = Calendar(seed.tz, seed.owner, seed.name, run_now(world), seeded=raw is not None)
    cal.names[seed.owner] = seed.name
    for person in seed.people:
        cal.names[person.email] = person.name or ""
        cal.busy[person.email] = [
            (at(s.start, world, seed.tz), at(s.end, world, seed.tz)) for s in person.busy
        ]
    ids = fresh_ids("e", {e.id for e in seed.events if e.id})
    for e in seed.events:
        zone = e.tz or seed.tz  # times of day in the event's own zone, days in the calendar's
        start = at(e.start, world, zone, seed.tz)
        end = (
            at(e.end, world, zone, seed.tz)
            if e.end
            else start + dt.timedelta(minutes=e.minutes or 0)
        )
        for a in e.attendees:
            if a.name:
                cal.names.setdefault(a.email, a.name)
        attendees = [
            Attendee(a.email, a.name or cal.names.get(a.email, ""), a.rsvp) for a in e.attendees
        ]
        cal.events.append(
            Event(
                id=e.id or next(ids),
                title=e.title,
                start=start,
                end=end,
                tz=zone,
                organizer=e.organizer or seed.owner,
                attendees=attendees,
                seeded=True,
                location=e.location,
                description=e.description,
            )
        )
    return cal


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    return world.state_of(NAME, Calendar).snapshot()


@dataclass
class Draft:
    """A new event as typed, with what is wrong with it."""

    values: dict[str, str]
    errors: list[str]
    start: dt.datetime | None = None
    end: dt.datetime | None = None
    attendees: list[str] = field(default_factory=list)


DAY_TEXT = re.compile(r"^\d{4}-\d{2}-\d{2}$")
"""A date as the forms take it: YYYY-MM-DD."""
TIME_TEXT = re.compile(r"^([01]?\d|2[0-3]):[0-5]\d$")
"""A time of day as the forms take it: HH:MM (or H:MM)."""


def check_form(values: dict[str, str]) -> Draft:
    draft = Draft(values, [])
    errors = draft.errors
    title = values["title"].strip()
    if not title:
        errors.append("Title is required.")
    elif len(title) > 200:
        errors.append("Title is too long.")
    tz = values["tz"].strip()
    if not zone_ok(tz):
        errors.append(f"Unknown time zone {tz!r}.")
    day: dt.date | None = None
    if not DAY_TEXT.match(values["date"].strip()):
        errors.append("Date must look like 2025-03-14.")
    else:
        try:
            day = dt.date.fromisoformat(values["date"].strip())
        except ValueError:
            errors.append("Date is not a real day.")
    times = []
    for key, label in (("start", "Start time"), ("end", "End time")):
        text = values[key].strip()
        if not TIME_TEXT.match(text):
            errors.append(f"{label} must look like 14:30.")
        else:
            hour, minute = text.split(":")
            times.append(dt.time(int(hour), int(minute)))
    if day is not None and len(times) == 2 and zone_ok(tz):
        zone = ZoneInfo(tz)
        draft.start = dt.datetime.combine(day, times[0], tzinfo=zone).astimezone(dt.UTC)
        draft.end = dt.datetime.combine(day, times[1], tzinfo=zone).astimezone(dt.UTC)
        if draft.end <= draft.start:
            errors.append("End time must be after the start time.")
    good, bad = addresses(values["attendees"])
    errors.extend(f"{b!r} is not a valid email address." for b in bad)
    draft.attendees = good
    if len(values["description"]) > MAX_TEXT:
        errors.append("Description is too long.")
    return draft


def answer(cal: Calendar, event: Event, response: str) -> str | None:
    """Record the owner's RSVP; the message to show when it cannot be."""
    if response not in ANSWERS:
        return "Choose Going, Maybe or Not going."
    if event.organizer == cal.owner:
        return "You organize this event; there is nothing to answer."
    mine = next((a for a in event.attendees if a.email == cal.owner), None)
    if mine is None:
        return "You are not invited to this event."
    mine.rsvp = response
    cal.touched = True
    return None
