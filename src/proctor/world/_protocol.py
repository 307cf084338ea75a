"""uvicorn's h11 protocol with a deadline on every request head.

uvicorn times out only idle keep-alive connections, and a byte of data cancels
that timer, so a client that opens a connection and trickles (or never sends) a
request head holds it forever. Here each connection must deliver a complete
head within ``HEAD_TIMEOUT`` of opening, or of the previous answer; the body is
bounded by ``BODY_TIMEOUT`` per chunk in the server's dispatcher.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_TIMEOUT = 10.0
BODY_TIMEOUT = 15.0


class TimedH11Protocol(H11Protocol):
    """H11Protocol that closes a connection whose request head is late."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._waiting_cycle: object | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._waiting_cycle = self.cycle
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _late(self) -> None:
        """No new request head since the timer was armed: close the connection."""
        self._head_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if self.cycle is self._waiting_cycle and waiting and not self.transport.is_closing():
            self.transport.close()
