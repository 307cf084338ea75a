"""How the sites write dates, money and addresses, and hand out ids."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Collection, Iterator
from zoneinfo import ZoneInfo

from proctor.scenario import split_address
from proctor.world._kit._time import run_now
from proctor.world._site import AttemptWorld


def today(world: AttemptWorld, tz: str) -> dt.date:
    """The run clock's date in ``tz``."""
    return run_now(world).astimezone(ZoneInfo(tz)).date()


def long_date(day: dt.date) -> str:
    """``7 March 2025``: no weekday, so text never names one."""
    return f"{day.day} {day:%B %Y}"


def short_date(day: dt.date) -> str:
    """``7 Mar 2025``."""
    return f"{day.day} {day:%b %Y}"


def money(cents: int, symbol: str) -> str:
    """``£1,234.56``, and ``-£12.00`` for a negative amount."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{symbol}{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def addresses(text: str) -> tuple[list[str], list[str]]:
    """Lowercase addresses in a comma- or semicolon-separated list, and the parts that are not."""
    good: list[str] = []
    bad: list[str] = []
    for part in re.split(r"[,;\n]", text):
        if not part.strip():
            continue
        parsed = split_address(part)
        if parsed is None:
            bad.append(part.strip())
        elif parsed[1] not in good:
            good.append(parsed[1])
    return good, bad


def fresh_ids(prefix: str, taken: Collection[str]) -> Iterator[str]:
    """``m1``, ``m2``... skipping ids a seed already names."""
    n = 0
    while True:
        n += 1
        if f"{prefix}{n}" not in taken:
            yield f"{prefix}{n}"
