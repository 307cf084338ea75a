"""The loopback fixture server: Starlette on uvicorn, on its own thread.

One server runs per worker for the whole run. Sites are routed by the Host
header (``forms.proctor.test``); Chromium maps those names to this server with
``--host-resolver-rules``. Each attempt gets fresh site state through
``begin``; its requests are tagged by the ``x-proctor-attempt`` header that the
attempt's browser context sends. A request of the world without the tag of an active
attempt is refused (403) and logged of no attempt (``unattributed``).

Lanes. Started plainly, the server has one socket in this process's network
(lane ``open``: the world and the control endpoint; the tests use it). Started
with ``browser_socket`` (the worker's sealed network, see
``computer/_netns.py``), it serves the world only on a socket inside the
browser's private network (lane ``browser``), and the socket in this process's
network keeps only the control endpoint (lane ``control``): a process outside
the browser, such as an external agent, cannot act on the world except through
the recorded toolset, and every such try is logged as refused (``host_lane``).

Hardening: every request is logged, whatever its body; a request head must
arrive within ``HEAD_TIMEOUT`` and each body chunk within ``BODY_TIMEOUT``;
bodies over ``MAX_BODY`` are refused and the log keeps bounded values only.
"""

from __future__ import annotations

import secrets
import socket
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import uvicorn

from proctor._serve import ServerThread, loopback_socket
from proctor.errors import WorldError
from proctor.records import TryId
from proctor.vocab import RequestLane
from proctor.world._dispatch import ATTEMPT_HEADER, MAX_BODY, Dispatcher
from proctor.world._log import RequestLog
from proctor.world._protocol import TimedH11Protocol
from proctor.world._site import DOMAIN, AttemptWorld, Site

START_TIMEOUT = 10.0

__all__ = ["ATTEMPT_HEADER", "MAX_BODY", "FixtureServer", "sites_by_name"]

T = TypeVar("T")


class FixtureServer:
    """The fixture world's HTTP server, shared by the attempts of one worker.

    Use as ``async with FixtureServer(sites) as server:``; then
    ``server.begin(...)`` before each attempt and ``server.end(...)`` after.
    """

    def __init__(self, sites: Iterable[Site]) -> None:
        self.sites: dict[str, Site] = {s.name: s for s in sites}
        self.log = RequestLog()
        self._worlds: dict[str, AttemptWorld] = {}
        self._lock = threading.Lock()
        self.sealed = False
        """Whether the world is served only inside the browser's sealed network."""
        self._thread: ServerThread | None = None
        self.port = 0
        self.control_token = secrets.token_urlsafe(24)
        """Secret for the loopback control endpoint; never sent to a browser."""

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def hosts(self) -> list[str]:
        """Every host name the server answers for."""
        return [f"{label}.{DOMAIN}" for s in self.sites.values() for label in (s.name, *s.hosts)]

    def attempt_for(self, attempt_id: str | None) -> AttemptWorld | None:
        """The active attempt a request's tag names; None for no tag or an unknown one.

        A request is never given to an attempt it does not name, not even to the only
        one active: another process's request would land in that attempt's log, where
        a request-log check counts it. The dispatcher refuses such a request of the world
        (403) and logs it of no attempt, ``refused: unattributed``.
        """
        if attempt_id is None:
            return None
        with self._lock:
            return self._worlds.get(attempt_id)

    def begin(self, world: AttemptWorld, sites: Iterable[str]) -> None:
        """Give an attempt fresh state on the named sites (all sites answer, only these seed)."""
        for name in sites:
            if name not in self.sites:
                raise WorldError(f"attempt {world.attempt}: unknown site {name!r}")
        for name, site in self.sites.items():
            world.sites[name] = site.new_state(world)
        with self._lock:
            if world.attempt in self._worlds:
                raise WorldError(f"attempt {world.attempt} is already active")
            self._worlds[world.attempt] = world

    def end(self, attempt_id: str) -> None:
        """Detach an attempt: later requests tagged with it are refused (``unattributed``)."""
        with self._lock:
            self._worlds.pop(attempt_id, None)

    def revoke(self, attempt: str, *, by: str, reason: str) -> list[str]:
        """Revoke the lease of every active try of ``attempt`` (an id, or id#try)."""
        with self._lock:
            worlds = [
                w
                for tag, w in self._worlds.items()
                if tag == attempt or TryId.attempt_of(tag) == attempt
            ]
        return [w.attempt for w in worlds if w.revoke_lease(by, reason)]

    def snapshot(self, world: AttemptWorld) -> dict[str, Any]:
        """Every site's end-state snapshot for one attempt (sites that define one, not None)."""
        out: dict[str, Any] = {}
        for name, site in self.sites.items():
            if site.snapshot is None:
                continue
            try:
                value = site.snapshot(world)
            except Exception as exc:  # a fixture bug: an infra fault, never the agent's
                raise WorldError(
                    f"attempt {world.attempt}: site {name} snapshot failed: {exc}"
                ) from exc
            if value is not None:
                out[name] = value
        return out

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the server's thread (where the sites' handlers change state).

        Raises:
            WorldError: the server's thread did not run it in time.
        """
        thread = self._thread
        if thread is None:
            return fn()
        try:
            return thread.call(fn)
        except TimeoutError as exc:
            raise WorldError(f"the fixture server did not answer: {exc}") from exc

    def world(self, attempt_id: str) -> AttemptWorld:
        with self._lock:
            try:
                return self._worlds[attempt_id]
            except KeyError:
                raise WorldError(f"attempt {attempt_id} is not active") from None

    async def start(
        self,
        browser_socket: Callable[[int], socket.socket] | None = None,
        *,
        also: Sequence[tuple[socket.socket, Callable[[Any], Any]]] = (),
    ) -> None:
        """Start serving on an ephemeral loopback port; wait until it accepts.

        Args:
            browser_socket: Given, the world is served only on the socket it returns
                for the chosen port (inside the browser's sealed network), and this
                process's socket keeps the control endpoint only.
            also: More sockets of the open lane, each serving the world through its
                wrapper of the dispatcher (the manual protocol: one address per site).
        """
        sock = loopback_socket()
        self.port = sock.getsockname()[1]
        lanes: list[tuple[RequestLane, socket.socket]] = [("open", sock)]
        if browser_socket is not None:
            lanes = [("control", sock), ("browser", browser_socket(self.port))]
        self.sealed = browser_socket is not None
        configs = [(self._config(lane), s) for lane, s in lanes]
        configs += [(self._config("open", wrap), s) for s, wrap in also]
        self._thread = ServerThread("proctor-fixtures", configs)
        if not await self._thread.start(START_TIMEOUT):
            raise WorldError(
                f"the fixture server did not start on 127.0.0.1:{self.port} "
                f"within {START_TIMEOUT:.0f}s"
            )

    def _config(
        self, lane: RequestLane, wrap: Callable[[Any], Any] | None = None
    ) -> uvicorn.Config:
        app: Any = Dispatcher(self, lane)
        return uvicorn.Config(
            wrap(app) if wrap is not None else app,
            http=TimedH11Protocol,
            ws="none",
            log_level="error",
            access_log=False,
            lifespan="off",
            timeout_keep_alive=30,
        )

    async def stop(self) -> None:
        """Stop serving and join the server thread (bounded)."""
        if self._thread is not None:
            await self._thread.stop(START_TIMEOUT)
        self._thread = None

    async def __aenter__(self) -> FixtureServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


def sites_by_name(sites: Mapping[str, Site]) -> list[str]:
    return sorted(sites)
