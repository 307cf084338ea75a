"""Telling a stalled machine from an agent's timeout.

An action waits a bounded time for its target (``ACTION_TIMEOUT_MS``). On a loaded
machine the wait can run out while the browser, its driver or this process is not
being scheduled at all: the element was there, nothing answered. Such a timeout is
the machine's, and counting it against the agent would score the infrastructure.

While an action runs longer than ``GRACE_S``, a watch makes cheap round trips
every ``PING_EVERY_S``: to the browser process (``context.cookies()``, through the
driver) and to the page's renderer (evaluating ``0`` in the action's page), and it
measures how late its own timer fires. A stalled renderer looks, from Playwright's
call log, exactly like a missing element ("waiting for locator(...)"), and the
browser process answers all the while; hence the second ping. Fixture pages run no
long scripts, so a renderer that cannot evaluate ``0`` for ``STALL_S`` is not being
scheduled, or a navigation is pending (DevTools holds commands to a renderer until
it commits): for a fixture site that is a server that did not answer, not the
agent's failure either. Ops that wait on a load themselves (``_act.NAVIGATING``)
are not watched on the page, so a slow page they open stays the agent's timeout.
The worst pause is the action's stall; a timeout with a stall of ``STALL_S`` or more
is an infra fault (``_act._dispatch``), retried and recorded, never scored.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from dataclasses import dataclass, field

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

GRACE_S = 0.5
"""An action that ends sooner is never pinged (nearly all of them)."""
PING_EVERY_S = 0.25
STALL_S = 1.5
"""A pause this long in a round trip that takes milliseconds is a stalled machine."""


@dataclass
class StallWatch:
    """The longest pause seen while one action ran."""

    context: BrowserContext
    page: Page | None
    worst: float = 0.0
    pinging_since: float | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @classmethod
    def start(cls, context: BrowserContext, page: Page | None) -> StallWatch:
        watch = cls(context, page)
        watch.task = asyncio.get_running_loop().create_task(watch._watch())
        return watch

    async def stop(self) -> float:
        """End the watch; the worst pause in seconds (one still in flight counts)."""
        loop = asyncio.get_running_loop()
        if self.pinging_since is not None:
            self._saw(loop.time() - self.pinging_since)
            self.pinging_since = None
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        return self.worst

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
