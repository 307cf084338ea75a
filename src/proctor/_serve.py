"""uvicorn on a thread of its own: the one set-up the fixture server and the replay provider share.

The harness's event loop runs the agent and the browser; a loopback server they
talk to runs its own loop on a daemon thread, so a slow handler never stalls the
attempt. Start and stop both have deadlines, and a server that dies or never
starts is reported, not waited on.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

import uvicorn

STEP = 0.01
"""Seconds between checks while waiting for the thread (start and stop)."""
CALL_TIMEOUT = 10.0
"""Seconds ``ServerThread.call`` waits for the servers' thread to run a function."""

T = TypeVar("T")


def loopback_socket(port: int = 0) -> socket.socket:
    """A TCP socket bound to 127.0.0.1 (an ephemeral port by default), not yet listening."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    return sock


class ServerThread:
    """One or more uvicorn servers, each on its socket, in one loop on one thread."""

    def __init__(self, name: str, servers: Sequence[tuple[uvicorn.Config, socket.socket]]) -> None:
        self.name = name
        self._pairs = [(uvicorn.Server(config), sock) for config, sock in servers]
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def call(self, fn: Callable[[], T], timeout: float = CALL_TIMEOUT) -> T:
        """Run ``fn`` on the servers' thread, between requests, and return its result.

        State the handlers own is changed there, never from another thread. Runs
        ``fn`` here when the thread is not serving.

        Raises:
            TimeoutError: the thread did not run it within ``timeout`` seconds.
        """
        loop, thread = self._loop, self._thread
        if loop is None or thread is None or not thread.is_alive() or loop.is_closed():
            return fn()

        async def run() -> T:
            return fn()

        future = asyncio.run_coroutine_threadsafe(run(), loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"{self.name} did not run a call within {timeout:g}s") from None

    async def start(self, timeout: float) -> bool:
        """Serve; True once every server accepts, False if the thread died or time ran out."""

        async def serve_all() -> None:
            self._loop = asyncio.get_running_loop()
            await asyncio.gather(*(srv.serve(sockets=[sock]) for srv, sock in self._pairs))

        self._thread = threading.Thread(
            target=lambda: asyncio.run(serve_all()), name=self.name, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not all(srv.started for srv, _ in self._pairs):
            if not self._thread.is_alive() or time.monotonic() > deadline:
                return False
            await asyncio.sleep(STEP)
        return True

    async def stop(self, timeout: float) -> None:
        """Ask every server to exit and wait (bounded) for the thread to end."""
        for srv, _ in self._pairs:
            srv.should_exit = True
        thread, self._thread = self._thread, None
        if thread is None:
            return
        deadline = time.monotonic() + timeout
        while thread.is_alive() and time.monotonic() < deadline:
            await asyncio.sleep(STEP)
