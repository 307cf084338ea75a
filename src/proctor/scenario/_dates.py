"""Date placeholders: a date (or time) relative to the run clock, in the user's time zone.

The grammar (inside the braces of a placeholder)::

    date      := "date" [ ":" offset [ ":" format ] ]
    offset    := ( "+" | "-" ) digits unit         +3d, -1w, +90min (at most 5 digits)
    unit      := "d" | "w" | "h" | "min"           days, weeks, hours, minutes
    format    := text with at least one directive  %A %-d %B; no braces

``{date}`` is today, ``{date:+3d}`` three days on, both as an ISO date
(``2025-03-07``, the default format). Days and weeks move the calendar (the
wall-clock time stays, across a DST change too); hours and minutes move the
instant. Months and years are not offsets: their length varies, so write days
or weeks. Names of days and months are English whatever the machine's
locale, so a brief reads the same everywhere.

The run clock and the zone reach ``substitute`` as two reserved values
(``CLOCK_KEY``, ``ZONE_KEY``; see ``date_values``); the colon keeps them from
ever being read as a placeholder name.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import NamedTuple, cast
from zoneinfo import ZoneInfo

from proctor.vocab import DateUnit

DEFAULT_FORMAT = "%Y-%m-%d"
"""The format of a date placeholder without one: an ISO date."""
CLOCK_KEY = "date:clock"
"""The reserved placeholder value holding the run clock (ISO 8601, UTC)."""
ZONE_KEY = "date:tz"
"""The reserved placeholder value holding the user's time zone (an IANA name)."""

DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
DIRECTIVES: dict[str, str] = {
    "%Y": "year (2025)",
    "%y": "year in two digits (25)",
    "%m": "month (03)",
    "%-m": "month (3)",
    "%B": "month's name (March)",
    "%b": "month's short name (Mar)",
    "%d": "day of the month (07)",
    "%-d": "day of the month (7)",
    "%A": "weekday (Friday)",
    "%a": "weekday, short (Fri)",
    "%j": "day of the year (066)",
    "%H": "hour, 24-hour clock (09)",
    "%-H": "hour, 24-hour clock (9)",
    "%I": "hour, 12-hour clock (09)",
    "%-I": "hour, 12-hour clock (9)",
    "%M": "minute (05)",
    "%p": "AM or PM",
    "%%": "a literal %",
}
"""Every directive a date format may use."""
DATE_HINT = (
    "dates: {date} (today, 2025-03-07), {date:+3d} (offset: a sign, a whole number and a unit: "
    "d, w, h or min), {date:+3d:%A %-d %B} (format directives: " + " ".join(DIRECTIVES) + ")"
)

_OFFSET = re.compile(r"([+-])([0-9]{1,5})(d|w|h|min)")
_LOOSE_OFFSET = re.compile(r"([+-]?)([0-9]+)([A-Za-z]*)")
_DIRECTIVE = re.compile(r"%(-?)(.?)")
_UNIT_WORDS: dict[str, DateUnit] = {
    **{w: "d" for w in ("d", "day", "days", "D")},
    **{w: "w" for w in ("w", "wk", "wks", "week", "weeks", "W")},
    **{w: "h" for w in ("h", "hr", "hrs", "hour", "hours", "H")},
    **{w: "min" for w in ("min", "mins", "minute", "minutes", "mn")},
}


class DateSpec(NamedTuple):
    """A parsed date placeholder: a signed amount of a unit, and a format."""

    amount: int
    unit: DateUnit
    format: str


class DateSlip(ValueError):
    """A malformed date placeholder: why, and the placeholder it likely meant ('' if none)."""

    def __init__(self, reason: str, guess: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.guess = guess


def is_date(name: str) -> bool:
    """Whether a placeholder's inside is a date placeholder (well formed or not)."""
    return name == "date" or name.startswith("date:")


def parse_date(inside: str) -> DateSpec:
    """The date placeholder ``inside`` its braces (``date:+3d:%A``) means.

    Raises:
        DateSlip: the reason it is malformed, and a guess at what was meant.
    """
    if inside != inside.strip():
        raise DateSlip("spaces inside braces are not allowed", "{" + inside.strip() + "}")
    _, _, rest = inside.partition(":")
    if inside == "date":
        return DateSpec(0, "d", DEFAULT_FORMAT)
    offset, colon, fmt = rest.partition(":")
    if not offset:
        raise DateSlip("nothing where the offset goes: write one, e.g. +0d for today", "{date:+0d}")
    m = _OFFSET.fullmatch(offset)
    if m is None and "%" in offset:
        raise DateSlip(
            f"{rest!r} reads as a format, and the offset comes first: +0d for today",
            "{date:+0d:" + rest + "}",
        )
    if m is None:
        raise DateSlip(*_offset_slip(offset))
    sign, digits, unit = m.groups()
    amount = int(digits) * (-1 if sign == "-" else 1)
    if colon and not fmt:
        raise DateSlip("nothing after the last colon: give a format, or drop the colon")
    if colon:
        _check_format(fmt, offset)
    return DateSpec(amount, cast(DateUnit, unit), fmt or DEFAULT_FORMAT)


def _offset_slip(offset: str) -> tuple[str, str]:
    """Why an offset is malformed, and the placeholder it likely meant."""
    if " " in offset:
        return "spaces inside braces are not allowed", _guess(offset.replace(" ", ""))
    loose = _LOOSE_OFFSET.fullmatch(offset)
    if loose is None:
        return (
            f"offset {offset!r} is not a sign, a whole number and a unit (d, w, h or min)",
            "",
        )
    sign, digits, word = loose.groups()
    if len(digits) > 5:
        return f"offset {offset!r} is too far: at most 5 digits", ""
    if word.lower() in ("m", "mo", "month", "months", "y", "yr", "year", "years"):
        return (
            f"offset {offset!r}: {word!r} is not a unit; months and years vary in length "
            "(minutes are min): write days or weeks",
            "",
        )
    if not word:
        return f"offset {offset!r} has no unit: d, w, h or min", _guess(f"{sign or '+'}{digits}d")
    if word not in _UNIT_WORDS:
        return f"offset {offset!r}: {word!r} is not a unit: d, w, h or min", ""
    if not sign:
        return (
            f"offset {offset!r} needs a sign: +{digits}{_UNIT_WORDS[word]} or "
            f"-{digits}{_UNIT_WORDS[word]}",
            _guess(f"+{digits}{_UNIT_WORDS[word]}"),
        )
    return (
        f"offset {offset!r}: write the unit as {_UNIT_WORDS[word]}",
        _guess(f"{sign}{digits}{_UNIT_WORDS[word]}"),
    )


def _guess(offset: str) -> str:
    return "{date:" + offset + "}" if _OFFSET.fullmatch(offset) else ""


def _check_format(fmt: str, offset: str) -> None:
    found = False
    for m in _DIRECTIVE.finditer(fmt):
        directive = m.group(0)
        if directive not in DIRECTIVES:
            shown = directive if m.group(2) else "a lone % at the end"
            raise DateSlip(f"format {fmt!r}: {shown} is not a directive (write %% for a literal %)")
        found = found or directive != "%%"
    if not found:
        raise DateSlip(
            f"format {fmt!r} has no directive, so it would print as it is",
            "{date:" + offset + ":%A %-d %B}",
        )


def moment(spec: DateSpec, clock: dt.datetime, tz: str) -> dt.datetime:
    """The local moment a spec names for the run clock ``clock``, in the zone ``tz``."""
    zone = ZoneInfo(tz)
    now = (clock if clock.tzinfo is not None else clock.replace(tzinfo=dt.UTC)).astimezone(zone)
    if spec.unit in ("d", "w"):
        # aware + timedelta moves the wall clock (ZoneInfo recomputes the offset)
        return now + dt.timedelta(days=spec.amount * (7 if spec.unit == "w" else 1))
    delta = (
        dt.timedelta(hours=spec.amount) if spec.unit == "h" else dt.timedelta(minutes=spec.amount)
    )
    return (now.astimezone(dt.UTC) + delta).astimezone(zone)


def format_date(when: dt.datetime, fmt: str) -> str:
    """``when`` in a format of ``DIRECTIVES`` (English names, whatever the locale)."""

    def one(m: re.Match[str]) -> str:
        pad, code = m.group(1) != "-", m.group(2)
        hour12 = when.hour % 12 or 12
        number = {
            "m": when.month,
            "d": when.day,
            "H": when.hour,
            "I": hour12,
        }
        if code in number:
            return f"{number[code]:02d}" if pad else str(number[code])
        return {
            "Y": f"{when.year:04d}",
            "y": f"{when.year % 100:02d}",
            "B": MONTHS[when.month - 1],
            "b": MONTHS[when.month - 1][:3],
            "A": DAYS[when.weekday()],
            "a": DAYS[when.weekday()][:3],
            "j": f"{when.timetuple().tm_yday:03d}",
            "M": f"{when.minute:02d}",
            "p": "AM" if when.hour < 12 else "PM",
            "%": "%",
        }[code]

    return _DIRECTIVE.sub(one, fmt)


def render_date(inside: str, values: dict[str, str]) -> str | None:
    """A date placeholder's text for the run clock and zone in ``values``; None when they are
    missing or the placeholder is malformed (the loader reports those first)."""
    clock, tz = values.get(CLOCK_KEY), values.get(ZONE_KEY)
    if clock is None or tz is None:
        return None
    try:
        spec = parse_date(inside)
    except DateSlip:
        return None
    return format_date(moment(spec, dt.datetime.fromisoformat(clock), tz), spec.format)


def date_values(clock: dt.datetime, tz: str) -> dict[str, str]:
    """The reserved placeholder values that date placeholders read: the run clock and zone."""
    aware = clock if clock.tzinfo is not None else clock.replace(tzinfo=dt.UTC)
    return {CLOCK_KEY: aware.astimezone(dt.UTC).isoformat(), ZONE_KEY: tz}
