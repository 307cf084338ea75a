"""Time for the fake apps: the run clock, anchored seed times, and how dates are shown.

The apps' time stands still at the run clock (``AttemptWorld.clock``): what the
agent creates is stamped with it, so the same actions give the same snapshot.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from proctor.scenario import When, anchor
from proctor.world._site import AttemptWorld

COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "Asia/Tokyo",
    "Asia/Kolkata",
    "Australia/Sydney",
)
"""Zones offered in time-zone selects (any IANA name is accepted)."""


def run_now(world: AttemptWorld) -> dt.datetime:
    """The run clock as an aware UTC datetime."""
    clock = world.clock
    clock = clock if clock.tzinfo is not None else clock.replace(tzinfo=dt.UTC)
    return clock.astimezone(dt.UTC)


def at(when: When, world: AttemptWorld, tz: str, day_tz: str | None = None) -> dt.datetime:
    """The moment a seed's ``When`` names in this run, in UTC.

    ``at`` is read in ``tz``; ``days`` count from today in ``day_tz`` (default ``tz``).
    """
    return anchor(when, run_now(world), tz, day_tz).astimezone(dt.UTC)


def iso(moment: dt.datetime) -> str:
    """ISO 8601 in UTC, to the second: what snapshots and JSON carry."""
    return moment.astimezone(dt.UTC).replace(microsecond=0).isoformat()


def local(moment: dt.datetime, tz: str) -> dt.datetime:
    return moment.astimezone(ZoneInfo(tz))


def show(moment: dt.datetime, tz: str) -> str:
    """Full local form: ``Tue 4 Mar 2025, 09:30``."""
    t = local(moment, tz)
    return f"{t:%a} {t.day} {t:%b %Y, %H:%M}"


def show_brief(moment: dt.datetime, tz: str, now: dt.datetime) -> str:
    """List form: the time today, the day this year, else the date."""
    t, today = local(moment, tz), local(now, tz)
    if t.date() == today.date():
        return f"{t:%H:%M}"
    if t.year == today.year:
        return f"{t:%a} {t.day} {t:%b}"
    return f"{t.day} {t:%b %Y}"


def parse_instant(text: str, tz: str) -> dt.datetime | None:
    """An ISO date-time; one without an offset is read in ``tz``. None when unreadable."""
    try:
        moment = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(tz))
    return moment.astimezone(dt.UTC)


def zone_ok(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (ValueError, KeyError):
        return False
    return True
