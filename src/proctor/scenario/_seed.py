"""What every app seed is made of: the strict base, addresses, time zones, names, and
``When``, a moment relative to the run clock.

Times are never absolute: a ``When`` is relative to the run clock, in the app's
time zone (``tz``), so a seed never rots and the same clock gives the same world.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    model_validator,
)

ADDRESS = re.compile(r"^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")
NAMED_ADDRESS = re.compile(r"^\s*(?:\"?([^\"<>]*?)\"?\s*)?<([^<>\s]+)>\s*$")


def split_address(text: str) -> tuple[str, str] | None:
    """``(name, lowercase address)`` of ``a@b.test`` or ``Name <a@b.test>``; None if invalid."""
    text = text.strip()
    named = NAMED_ADDRESS.match(text)
    name, address = (named.group(1) or "", named.group(2)) if named else ("", text)
    if not ADDRESS.match(address):
        return None
    return name.strip(), address.lower()


def _address(text: str) -> str:
    if split_address(text) is None:
        raise ValueError(f"{text!r} is not an email address (a@b.test or Name <a@b.test>)")
    return text.strip()


def _bare_address(text: str) -> str:
    if not ADDRESS.match(text.strip()):
        raise ValueError(f"{text!r} is not an email address like name@example.test")
    return text.strip().lower()


def _zone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r}; use an IANA name like Europe/Paris") from exc
    return name


Address = Annotated[str, AfterValidator(_address)]
"""``a@b.test`` or ``Name <a@b.test>``."""
Email = Annotated[str, AfterValidator(_bare_address)]
"""A bare address, stored lowercase."""
TimeZone = Annotated[str, AfterValidator(_zone)]
"""An IANA time zone name, e.g. Europe/Paris."""
Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=60)]
Handle = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", max_length=40)]


class Seed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class When(Seed):
    """A moment relative to the run clock, in the app's time zone.

    With ``at``: that local time on the day ``days`` from today, e.g.
    ``{days: -3, at: "09:30"}``. Without: now plus ``days``, ``hours`` and
    ``minutes``, e.g. ``{minutes: -20}``.
    """

    days: int = Field(default=0, ge=-3650, le=3650, description="Days from today (local).")
    at: str | None = Field(
        default=None, pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="Local time HH:MM."
    )
    hours: int = Field(default=0, ge=-87600, le=87600, description="Hours from now (no `at`).")
    minutes: int = Field(default=0, ge=-525600, le=525600, description="Minutes from now.")

    @model_validator(mode="after")
    def _at_or_offsets(self) -> When:
        if self.at is not None and (self.hours or self.minutes):
            raise ValueError("give `at` (a local time of day), or hours/minutes from now, not both")
        return self


def anchor(when: When, now: dt.datetime, tz: str, day_tz: str | None = None) -> dt.datetime:
    """The aware moment a ``When`` names, for the run clock ``now`` and the zone ``tz``.

    ``at`` is read in ``tz``; ``days`` count from today in ``day_tz`` (default
    ``tz``), so an event kept in another zone still falls on the user's day.
    """
    zone = ZoneInfo(tz)
    now = now if now.tzinfo is not None else now.replace(tzinfo=dt.UTC)
    if when.at is None:
        delta = dt.timedelta(days=when.days, hours=when.hours, minutes=when.minutes)
        return (now + delta).astimezone(zone)
    day = now.astimezone(ZoneInfo(day_tz or tz)).date() + dt.timedelta(days=when.days)
    hour, minute = (int(part) for part in when.at.split(":"))
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=zone)


_REFERENCE_NOW = dt.datetime(2001, 1, 1, 12, tzinfo=dt.UTC)


def ordered(start: When, end: When, tz: str) -> bool:
    """Whether ``start`` comes before ``end`` in ``tz``, whatever the run clock."""
    return anchor(start, _REFERENCE_NOW, tz) < anchor(end, _REFERENCE_NOW, tz)
