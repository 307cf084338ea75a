"""Telling a starved machine from an agent's timeout.

An action waits a bounded time for its target (``ACTION_TIMEOUT_MS``; a navigation
``NAV_TIMEOUT_MS``, a wait for text ``WAIT_TEXT_TIMEOUT_MS``). On a loaded machine
the wait can run out while the processes that serve it are not being scheduled:
the element was there, nothing answered, or the page's own script that makes it
did not get a CPU. Such a timeout is the machine's, and counting it against the
agent would score the infrastructure.

While an action runs longer than ``GRACE_S`` the watch measures two things:

- **Pauses.** Every ``PING_EVERY_S`` a cheap round trip to the browser process
  (``context.cookies()``, through the driver) and to the page's renderer
  (evaluating ``0`` in the action's page), and how late its own timer fires. A
  stalled renderer looks, from Playwright's call log, exactly like a missing
  element ("waiting for locator(...)"), and the browser answers all the while;
  hence the second ping. Ops that wait on a load themselves (``_act.NAVIGATING``)
  do not ping the page: DevTools holds commands to a renderer until a pending
  navigation commits.
- **Starvation** (``_sched``). The kernel's count of how long the renderers' main
  threads were runnable but waiting for a CPU, or sat stopped. A busy machine that
  answers every ping within a second can still starve a page of most of its wait,
  so its script never makes the element; a page that merely lacks the element asks
  for almost no CPU, so on a busy machine its timeout stays the agent's.

The stall of an action is the larger of its worst pause and its worst-starved
process; a timeout with a stall of ``STALL_S`` or more is an infra fault
(``_act._dispatch``), retried and recorded, never scored.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from proctor.computer._sched import Pipeline, Starvation

GRACE_S = 0.5
"""An action that ends sooner is never pinged (nearly all of them)."""
PING_EVERY_S = 0.25
STALL_S = 1.5
"""A pause this long in a round trip that takes milliseconds, or a process of the
pipeline this long without a CPU, is a starved machine."""


class Stall(NamedTuple):
    """What the watch saw over one action, in seconds."""

    paused_s: float
    """The worst pause: a ping in flight, or this process's timer firing late."""
    starved_s: float
    """The longest one renderer was runnable without a CPU, or stopped."""
    cpu_some_s: float | None
    """PSI: how long any task of the machine waited for a CPU (evidence, never decides)."""

    @property
    def stalled(self) -> bool:
        return max(self.paused_s, self.starved_s) >= STALL_S

    def facts(self) -> dict[str, float | None]:
        """The step's ``facts.machine``: the stall's figures, rounded."""
        some = None if self.cpu_some_s is None else round(self.cpu_some_s, 2)
        return {"paused_s": round(self.paused_s, 2), "starved_s": round(self.starved_s, 2),
                "cpu_some_s": some}  # fmt: skip

    def describe(self) -> str:
        """What starved, for the fault's message."""
        if self.paused_s >= self.starved_s:
            return f"nothing answered for {self.paused_s:.1f}s"
        return f"the page's renderer went {self.starved_s:.1f}s without a CPU"


NO_STALL = Stall(0.0, 0.0, None)


@dataclass
class StallWatch:
    """The longest pause and the worst starvation seen while one action ran."""

    context: BrowserContext
    page: Page | None
    starvation: Starvation | None = None
    worst: float = 0.0
    pinging_since: float | None = None
    tasks: list[asyncio.Task[None]] = field(default_factory=list, repr=False)

    @classmethod
    def start(
        cls, context: BrowserContext, page: Page | None, pipeline: Callable[[], Pipeline] | None
    ) -> StallWatch:
        """Watch one action; ``pipeline`` finds its processes, once it outlasts the grace."""
        watch = cls(context, page)
        loop = asyncio.get_running_loop()
        watch.tasks = [loop.create_task(watch._watch())]
        if pipeline is not None:
            watch.tasks.append(loop.create_task(watch._sample(pipeline)))
        return watch

    async def stop(self) -> Stall:
        """End the watch; what it saw (a ping still in flight counts)."""
        loop = asyncio.get_running_loop()
        if self.pinging_since is not None:
            self._saw(loop.time() - self.pinging_since)
            self.pinging_since = None
        for task in self.tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.tasks = []
        starvation = self.starvation
        if starvation is None or starvation.last_at is None:
            return Stall(self.worst, 0.0, None)  # over before the grace: never sampled
        starvation.tick(loop.time())
        return Stall(self.worst, starvation.worst(), starvation.some_s)

    async def _sample(self, pipeline: Callable[[], Pipeline]) -> None:
        """Read the kernel's counters every ``PING_EVERY_S``, whatever the pings wait on."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(GRACE_S)
        starvation = self.starvation = Starvation(pipeline())
        while True:
            starvation.tick(loop.time())
            await asyncio.sleep(PING_EVERY_S)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        await self._sleep(loop, GRACE_S)
        while True:
            if not await self._ping(loop, self.context.cookies()):
                return  # a closed context: the action's own error says why
            page = self.page
            if page is not None and not await self._ping(loop, page.evaluate("0")):
                # closed by the action, the browser pings go on; or navigated, ping on
                self.page = None if page.is_closed() else page
            await self._sleep(loop, PING_EVERY_S)

    async def _ping(self, loop: asyncio.AbstractEventLoop, trip: Awaitable[object]) -> bool:
        """One round trip, its time seen as a pause; False when it failed.

        A trip fails when its target closed or, for the page, when a navigation
        replaced the document mid-trip: neither says the machine stalled.
        """
        self.pinging_since = loop.time()
        try:
            await trip
        except PlaywrightError:
            self.pinging_since = None
            return False
        self._saw(loop.time() - self.pinging_since)
        self.pinging_since = None
        return True

    async def _sleep(self, loop: asyncio.AbstractEventLoop, seconds: float) -> None:
        began = loop.time()
        await asyncio.sleep(seconds)
        self._saw(loop.time() - began - seconds)  # this process was not scheduled

    def _saw(self, pause: float) -> None:
        self.worst = max(self.worst, pause)
