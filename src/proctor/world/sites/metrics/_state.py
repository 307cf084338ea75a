"""Pulseboard's numbers: the weeks drawn from the seed, the report layout, the snapshot."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from proctor.world._kit import (
    short_date,
    today,
)
from proctor.world._site import AttemptWorld

NAME = "metrics"


TZ = "Europe/London"


EMAIL = "jordan.ames@example.test"


PASSWORD = "Comet-Harbor-58"


WORKSPACE = "Lumenfold"


SENDER = "Pulseboard <no-reply@pulseboard.example.test>"


CODE_SUBJECT = "Your Pulseboard sign-in code"


COOKIE = "pb_session"


SHARE = "wk-7f3a9c"


REPORT_FILE = "weekly-kpi-report.pdf"


WEEKS = 8


MAX_WRONG_CODES = 5


LINES_PER_PAGE = 44


FIXED_SIGNUPS = {1: 1412, 2: 1304}


"""Weeks ago -> signups that the scenarios' answers rely on."""


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    unit: str


SECTIONS = (
    Section("overview", "Overview", ""),
    Section("signups", "Signups", "signups"),
    Section("active", "Active users", "active users"),
    Section("revenue", "Revenue", "revenue"),
    Section("churn", "Churn", "accounts churned"),
)


DEFAULT_LAYOUT = {"sections": [s.key for s in SECTIONS], "cover": False, "page_breaks": False}


METRICS = ("signups", "active", "revenue", "churn")


@dataclass(frozen=True)
class Week:
    start: dt.date
    weeks_ago: int
    days: int
    """Days of the week counted: 7, or fewer for this week so far."""
    values: dict[str, int]
    """signups, active, revenue (in dollars), churn."""

    @property
    def complete(self) -> bool:
        return self.weeks_ago > 0

    @property
    def label(self) -> str:
        if not self.complete:
            return f"This week so far (from {short_date(self.start)})"
        return f"Week of {short_date(self.start)}"


def _week_values(world: AttemptWorld, weeks_ago: int) -> dict[str, int]:
    rng = world.rng(f"metrics:week:{weeks_ago}")
    signups = FIXED_SIGNUPS.get(weeks_ago, rng.randint(1050, 1390))
    return {
        "signups": signups,
        "active": rng.randint(8200, 9400),
        "revenue": rng.randint(41_000, 52_000),
        "churn": rng.randint(18, 46),
    }


def weeks(world: AttemptWorld) -> list[Week]:
    """This week so far, then the last eight full weeks, newest first."""
    day = today(world, TZ)
    monday = day - dt.timedelta(days=day.weekday())
    counted = day.weekday() + 1
    whole = _week_values(world, 0)
    # Counts grow through the week; active users are a level, not a sum.
    partial = {k: round(v * counted / 7) for k, v in whole.items()}
    partial["active"] = whole["active"]
    out = [Week(monday, 0, counted, partial)]
    for ago in range(1, WEEKS + 1):
        out.append(Week(monday - dt.timedelta(weeks=ago), ago, 7, _week_values(world, ago)))
    return out


def change(now: int, before: int) -> str:
    """Week-over-week change: ``+8.3%``."""
    return f"{(now - before) / before * 100:+.1f}%" if before else "n/a"


def sign_in_code(world: AttemptWorld, n: int) -> str:
    """The ``n``-th sign-in code emailed in an attempt (1 first)."""
    return f"{world.rng(f'metrics:code:{n}').randint(0, 999_999):06d}"


def layout_of(state: dict[str, Any]) -> dict[str, Any]:
    layout: dict[str, Any] = state.setdefault("layout", dict(DEFAULT_LAYOUT))
    return layout


def section_of(key: str) -> Section:
    return next(s for s in SECTIONS if s.key == key)


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    state = world.state(NAME)
    if not state.get("touched"):
        return None
    return {
        "signed_in": state.get("signed_in", 0),
        "codes_sent": state.get("codes_sent", 0),
        "wrong_codes": state.get("wrong_codes", 0),
        "layout": dict(layout_of(state)),
        "downloads": state.get("downloads", 0),
    }
