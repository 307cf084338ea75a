"""Telling a starved desktop from a missing control.

A healthy app answers an AT-SPI call in milliseconds. A starved one (not
scheduled on a loaded machine, or stopped) answers late or not at all: libatspi
gives up after its call timeout (``_atspi.CALL_TIMEOUT_MS``) and, for most
calls, returns an empty answer (a child count of -1, no child, no name) instead
of an error. The walk then drops the subtree it could not read, and the outline
lacks controls the app has: measured under load, galculator's window came back
with 1 node instead of 35, or with no window at all, while an AT-SPI call took
1.5 s or the walk ran out of time. So the same starvation that hides a control
shows in the round trips themselves.

``watching`` measures that while a step looks for a control: the slowest AT-SPI
round trip (``_tree`` times every call), whether a walk was cut by its time
limit, and how late this thread's own pauses between re-reads ran (this process
starved). A step that names a control re-reads the tree until ``FIND_WAIT_S``
before it calls the control missing (``_observing.find``); a control still
missing after a read that saw a stall (``Watch.stalled``) is the machine's, not
the agent's: a ``DesktopFault`` (infra, retried, never scored), not a step error.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

STALL_S = 1.0
"""A round trip this slow, where a healthy one takes milliseconds, is a stalled machine
(below libatspi's call timeout, so a call that got no answer always counts)."""
FIND_WAIT_S = 1.0
"""Seconds a step re-reads the tree for a control it names before calling it missing."""
REREAD_S = 0.1
"""Seconds between two reads of the tree while a control is looked for."""


@dataclass
class Watch:
    """What one watched stretch saw: its slowest round trip, and whether a walk was cut."""

    worst: float = 0.0
    cut: bool = False

    @property
    def stalled(self) -> bool:
        return self.cut or self.worst >= STALL_S

    def describe(self) -> str:
        """What the stall was, for the fault's message."""
        if self.worst >= STALL_S:
            return f"an accessibility call went {self.worst:.1f} s without an answer"
        return "a read of the window ran out of time"

    def pause(self, seconds: float) -> None:
        """Sleep ``seconds``; lateness past them is this process's own stall."""
        began = time.monotonic()
        time.sleep(seconds)
        self.worst = max(self.worst, time.monotonic() - began - seconds)


_local = threading.local()


def _active() -> list[Watch]:
    watches: list[Watch] | None = getattr(_local, "watches", None)
    if watches is None:
        watches = _local.watches = []
    return watches


@contextmanager
def watching() -> Iterator[Watch]:
    """Watch the AT-SPI calls this thread makes until the block ends."""
    watch = Watch()
    active = _active()
    active.append(watch)
    try:
        yield watch
    finally:
        active.remove(watch)


def saw_call(seconds: float) -> None:
    """One AT-SPI round trip of this thread took ``seconds``."""
    for watch in _active():
        watch.worst = max(watch.worst, seconds)


def saw_cut() -> None:
    """A walk of this thread ran out of time."""
    for watch in _active():
        watch.cut = True
