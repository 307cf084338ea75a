"""The worker's desktop: one session, and the one thread every AT-SPI call runs on.

libatspi talks to the accessibility bus synchronously and binds to it once per
process, so every call that touches it (the session's start, launches, outlines,
verbs, screenshots) runs on one thread of this host, in order. The event loop
stays free meanwhile: the fixture server, the MCP lane and the wall limit keep
running while an app answers slowly.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import TypeVar

from proctor.computer.desktop._session import DesktopSession, StartTimings

T = TypeVar("T")


class DesktopHost:
    """A started ``DesktopSession`` and its AT-SPI thread; ``await start()``, ``await stop()``."""

    def __init__(self) -> None:
        self.session = DesktopSession()
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self.timings: StartTimings | None = None

    @property
    def running(self) -> bool:
        return self._pool is not None and self.session.running

    async def start(self) -> StartTimings:
        """Start the session on the AT-SPI thread (idempotent).

        Raises:
            DesktopUnavailable: the stack is not installed.
            SessionStartFailed: a step of the start failed.
        """
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="atspi")
        self.timings = await self.call(self.session.start)
        return self.timings

    async def call(self, fn: Callable[..., T], *args: object) -> T:
        """Run ``fn(*args)`` on the AT-SPI thread and wait for it."""
        if self._pool is None:
            raise RuntimeError("the desktop host is not started")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, fn, *args)

    async def stop(self) -> None:
        """Stop the session (reaping every process of it) and the thread (idempotent)."""
        pool, self._pool = self._pool, None
        if pool is None:
            self.session.stop()
            return
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(pool, self.session.stop)
        finally:
            pool.shutdown(wait=True)
