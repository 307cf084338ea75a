"""Arguments of the checks on changed calendar events (moved, deleted), and their times.

Both read the calendar's end-state snapshot: an event's ``original_start``
(where it was when the attempt began, or when it was created) against its
``start``, and the ``deleted`` list. ``event_exists`` (in ``_check_args_apps``)
checks what is on the calendar at the end and takes the same ``Moment``.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import AwareDatetime, ConfigDict, Field, model_validator

from proctor.scenario._check_args import CheckArgs
from proctor.scenario._seed import TimeZone, When


class ZonedWhen(When):
    """A ``When`` whose ``at`` may be a time in another zone.

    ``{days: 2, at: '10:30', tz: Asia/Tokyo}`` is 10:30 in Tokyo on the day two
    days from today in the calendar's zone (as a seeded event with that ``tz``
    is); without ``tz``, ``at`` is a time in the calendar's zone.
    """

    tz: TimeZone | None = Field(default=None, description="Zone of `at` (default: the calendar's).")


Moment = ZonedWhen | AwareDatetime
"""A time on the run clock (``{days: 1, at: '09:00'}``, optionally with ``tz``) or ISO with
an offset."""

_ID = "The event's id: a seeded event's `id`, else e1, e2... in seed order."


class EventMoved(CheckArgs):
    """One event, picked by ``id`` or ``title``, was moved during the attempt.

    Exactly one event at the end must match; it passes when that event no
    longer starts where it did when the attempt began (its snapshot's
    ``original_start``), started at ``from`` if given, starts at ``to`` if
    given, and lasts as long as it did unless ``same_length`` is false. An event
    deleted and created again is a new event: it was never moved.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    reads_site: ClassVar[str | None] = "calendar"

    id: str | None = Field(default=None, description=_ID)
    title: str | None = Field(
        default=None, description="Its whole title, case-insensitive (instead of id)."
    )
    from_: Moment | None = Field(
        default=None,
        alias="from",
        description="Where it started when the attempt began, e.g. {days: 2, at: '10:30', "
        "tz: Asia/Tokyo}; the check fails when it started anywhere else (a guard against "
        "picking the wrong event).",
    )
    to: Moment | None = Field(
        default=None, description="Where it starts at the end, e.g. {days: 1, at: '08:00'}."
    )
    same_length: bool = Field(
        default=True, description="It lasts as long as it did: moved, not resized."
    )

    @model_validator(mode="after")
    def _one_event(self) -> EventMoved:
        if (self.id is None) == (self.title is None):
            raise ValueError("give exactly one of id or title")
        return self


class EventDeleted(CheckArgs):
    """An event was deleted during the attempt, and no event at the end matches it.

    Picks by ``id``, ``title``, ``title_contains`` and ``start`` (all given must
    hold). It passes when the snapshot's ``deleted`` list holds a match and no
    event left on the calendar matches the same fields; a selector that matches
    nothing ever deleted fails, so a typo cannot pass for a deletion.
    """

    reads_site: ClassVar[str | None] = "calendar"

    id: str | None = Field(default=None, description=_ID)
    title: str | None = Field(default=None, description="Its whole title, case-insensitive.")
    title_contains: str | None = Field(
        default=None, description="Text in its title, case-insensitive."
    )
    start: Moment | None = Field(default=None, description="Its start when it was deleted.")

    @model_validator(mode="after")
    def _picked(self) -> EventDeleted:
        if self.id is None and self.title is None and self.title_contains is None:
            raise ValueError("give id, title or title_contains")
        return self
