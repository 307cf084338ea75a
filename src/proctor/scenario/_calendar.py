"""The calendar's seed (``world.apps.calendar``): events, invites, people's free/busy."""

from __future__ import annotations

from pydantic import (
    Field,
    model_validator,
)

from proctor.scenario._seed import Email, Seed, Slug, TimeZone, When, ordered
from proctor.vocab import Rsvp


class AttendeeSeed(Seed):
    email: Email
    name: str | None = None
    rsvp: Rsvp = "needs_action"


class Span(Seed):
    """A busy interval."""

    start: When
    end: When


class PersonSeed(Seed):
    """Someone whose free/busy the calendar knows (besides their events)."""

    email: Email
    name: str | None = None
    busy: list[Span] = Field(default_factory=list)


class EventSeed(Seed):
    """An event on the user's calendar; an invite when someone else organizes it."""

    id: Slug | None = Field(default=None, description="Stable id (default e1, e2... in order).")
    title: str = Field(min_length=1)
    start: When
    end: When | None = Field(default=None, description="Give end, or minutes.")
    minutes: int | None = Field(default=None, ge=1, le=10080, description="Duration.")
    tz: TimeZone | None = Field(
        default=None,
        description="The event's own zone (default: the calendar's tz): `at` in start and end "
        "is a time there, on the day `days` from today in the calendar's zone.",
    )
    location: str = ""
    description: str = ""
    organizer: Email | None = Field(default=None, description="Default: the calendar owner.")
    attendees: list[AttendeeSeed] = Field(default_factory=list)

    @model_validator(mode="after")
    def _end(self) -> EventSeed:
        if (self.end is None) == (self.minutes is None):
            raise ValueError("give exactly one of end or minutes")
        if self.end is not None and not ordered(self.start, self.end, "UTC"):
            raise ValueError("end must be after start")
        return self


class CalendarSeed(Seed):
    """The user's calendar."""

    tz: TimeZone = Field(default="UTC", description="The user's time zone.")
    owner: Email = Field(default="me@example.test", description="The user's address.")
    name: str = "Me"
    events: list[EventSeed] = Field(default_factory=list)
    people: list[PersonSeed] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> CalendarSeed:
        ids = [e.id for e in self.events if e.id is not None]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"event ids must be unique: {', '.join(dupes)}")
        return self
