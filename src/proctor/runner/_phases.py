"""One attempt's phase timings, on one clock, in whole ticks.

A phase is timed by ``with phases.phase(name):``; phases cannot nest, so they
never overlap, and a name used twice adds up. Seconds are kept as integer
nanoseconds and floored to ticks of 0.1 ms only when read, so the phases'
seconds never add up to more than the total: what no phase covers (``other``
in the bench) is never negative.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from proctor.errors import RunError

TICK_NS = 100_000
"""0.1 ms: the resolution of every recorded time (seconds, agent_seconds, timings)."""
TICKS_PER_SECOND = 1_000_000_000 // TICK_NS


def ticks_to_seconds(ticks: int) -> float:
    return ticks / TICKS_PER_SECOND


def seconds_to_ticks(seconds: float) -> int:
    """The whole ticks of a recorded time (exact for values written by ``Phases``)."""
    return round(seconds * TICKS_PER_SECOND)


@dataclass(frozen=True)
class Timing:
    """An attempt's total and its phases, in seconds (multiples of a tick)."""

    seconds: float
    phases: dict[str, float]


class Phases:
    """Times the phases of one attempt from the moment it is made."""

    def __init__(self) -> None:
        self._start = time.perf_counter_ns()
        self._ns: dict[str, int] = {}
        self._open: str | None = None

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time the block as ``name`` (added to earlier blocks of that name).

        Raises:
            RunError: when another phase is still open: phases never overlap.
        """
        if self._open is not None:
            raise RunError(f"phase {name!r} started inside phase {self._open!r}")
        self._open = name
        began = time.perf_counter_ns()
        try:
            yield
        finally:
            self._ns[name] = self._ns.get(name, 0) + time.perf_counter_ns() - began
            self._open = None

    def done(self) -> Timing:
        """The total so far and each phase, floored to ticks (the phases never exceed it)."""
        total = time.perf_counter_ns() - self._start
        return Timing(
            seconds=ticks_to_seconds(total // TICK_NS),
            phases={name: ticks_to_seconds(ns // TICK_NS) for name, ns in self._ns.items()},
        )
