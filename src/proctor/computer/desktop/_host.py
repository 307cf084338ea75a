"""The worker's desktop: one session, and the one thread every AT-SPI call runs on.

libatspi talks to the accessibility bus synchronously and binds to it once per
process, so every call that touches it (the session's start, launches, outlines,
verbs, screenshots) runs on one thread of this host, in order. The event loop
stays free meanwhile: the fixture server, the MCP lane and the wall limit keep
running while an app answers slowly.

libatspi cannot be pointed at a second bus in the same process, so the host is
shared by the process (``DesktopHost.acquire``): every worker, verify job or test
in it uses the one session, which stops when the last user releases it. A session
that died cannot be replaced in its process; its worker's later desktop tries
fault, and the driver retries them on another worker.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable
from typing import ClassVar, TypeVar

from proctor.computer.desktop._session import DesktopSession, StartTimings

T = TypeVar("T")


class DesktopHost:
    """A started ``DesktopSession`` and its AT-SPI thread; ``await start()``, ``await stop()``."""

    _shared: ClassVar[DesktopHost | None] = None
    _users: ClassVar[int] = 0
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        self.session = DesktopSession()
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self.timings: StartTimings | None = None

    @classmethod
    async def acquire(cls) -> DesktopHost:
        """This process's host, started on first use; pair each call with ``release``.

        Raises:
            DesktopUnavailable: the stack is not installed.
            SessionStartFailed: a step of the start failed.
        """
        with cls._lock:
            host = cls._shared
            if host is None:
                host = cls._shared = DesktopHost()
            cls._users += 1
        try:
            await host.start()
        except BaseException:
            await cls.release()
            raise
        return host

    @classmethod
    async def release(cls) -> None:
        """One user is done; the last one stops the session and reaps it."""
        with cls._lock:
            cls._users = max(0, cls._users - 1)
            host = cls._shared if cls._users == 0 else None
            if host is not None:
                cls._shared = None
        if host is not None:
            await host.stop()

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
