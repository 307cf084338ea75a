"""``serve``: the case's fixture sites on loopback, for an agent that brings its own browser.

A native agent's browser cannot be told that ``forms.proctor.test`` is this
machine, so each site of the case gets an address of its own, ``127.0.0.N:PORT``
(a distinct host per site keeps their cookies apart). A request on that address
is served as one for the site's host, and the site's absolute URLs in answers
(``http://forms.proctor.test/...`` in pages, scripts and redirects) are
rewritten to the served addresses, so links between the case's sites work.

Every request is logged by the fixture server as in a run; after each one the
case's state (its requests, the sites' snapshots, the lease) is written to
``site-state.json`` atomically, so ``grade`` works once the server is gone.

With ``revoke_after_first`` the site may revoke the case's lease (the lease
revocation case: its first autosaved field does); from then on every input that
reaches the server (any request but GET and HEAD) is refused, 409, with a receipt in
``operator-revocation.json``. An input that was already in flight completes.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import socket
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proctor.errors import ManualError
from proctor.manual._case import REVOCATION, SITE_STATE, CaseFile, read_begin, read_case
from proctor.manual._manifest import load_manifest, scenario_of
from proctor.records import write_text_atomic
from proctor.scenario import date_values, resolve
from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer, all_sites

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]

REWRITTEN = ("text/html", "text/css", "javascript", "application/json", "text/plain")
INPUT_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass
class ManualLease:
    """The case's control lease: revoked once, then every later input is refused."""

    revoked_at: float | None = None
    revoked_by: str | None = None
    reason: str | None = None
    receipts: list[dict[str, Any]] = field(default_factory=list)

    def revoke(self, by: str, reason: str) -> bool:
        if self.revoked_at is not None:
            return False
        self.revoked_at, self.revoked_by, self.reason = time.time(), by, reason
        return True

    def facts(self) -> dict[str, Any]:
        if self.revoked_at is None:
            return {}
        return {
            "revoked_at": self.revoked_at,
            "revoked_by": self.revoked_by,
            "reason": self.reason,
            "receipts": list(self.receipts),
        }


@dataclass(frozen=True)
class Served:
    """What ``serve`` prints: each site's URL, the start URL and the brief with them."""

    urls: dict[str, str]
    start: str
    brief: str


class _Case:
    """The state of one served case, persisted after every request."""

    def __init__(self, folder: Path, case: CaseFile, server: FixtureServer) -> None:
        self.folder = folder
        self.case = case
        self.server = server
        self.lease = ManualLease()
        self.world: AttemptWorld | None = None
        self.urls: dict[str, str] = {}
        self.tag = f"manual/{case.arm}-{case.task}-{case.repetition}#1"

    def persist(self) -> None:
        assert self.world is not None
        requests = [r.model_dump(mode="json") for r in self.server.log.for_attempt(self.tag)]
        state = {
            "tag": self.tag,
            "urls": self.urls,
            "saved_at": time.time(),
            "clock": self.world.clock.isoformat(),
            "requests": requests,
            "apps": self.server.snapshot(self.world),
            "lease": self.lease.facts(),
        }
        write_text_atomic(self.folder / SITE_STATE, json.dumps(state, indent=1, default=str))
        if self.lease.revoked_at is not None:
            write_text_atomic(
                self.folder / REVOCATION, json.dumps(self.lease.facts(), indent=1, default=str)
            )


def _as_site(inner: ASGI, host: str, swaps: list[tuple[bytes, bytes]], case: _Case) -> ASGI:
    """The dispatcher as ``host``: requests renamed to it, answers' site URLs rewritten."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await inner(scope, receive, send)
            return
        # The lane is the case's: its requests carry the case's tag (any tag the client
        # sent is replaced), the one way the server gives a request to an attempt.
        tag = ATTEMPT_HEADER.encode()
        headers = [(k, v) for k, v in scope["headers"] if k not in (b"host", tag)]
        own = [(b"host", host.encode()), (tag, case.tag.encode())]
        scope = {**scope, "headers": [*own, *headers]}
        method = scope["method"]
        if case.lease.revoked_at is not None and method in INPUT_METHODS:
            receipt = {"at": time.time(), "method": method, "path": scope["path"], "host": host}
            case.lease.receipts.append(receipt)
            case.persist()
            body = json.dumps({"refused": "the owner took control back", "receipt": receipt})
            await send(
                {
                    "type": "http.response.start",
                    "status": 409,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": body.encode()})
            return
        head: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def rewriting(message: Message) -> None:
            if message["type"] == "http.response.start":
                head.update(message)
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            await _flush(send, head, b"".join(chunks), swaps)

        try:
            await inner(scope, receive, rewriting)
        finally:
            case.persist()

    return app


async def _flush(
    send: Send, head: dict[str, Any], body: bytes, swaps: list[tuple[bytes, bytes]]
) -> None:
    headers = list(head.get("headers", []))
    kind = next((v for k, v in headers if k.lower() == b"content-type"), b"").decode("latin-1")
    if any(t in kind for t in REWRITTEN):
        for old, new in swaps:
            body = body.replace(old, new)
    fixed = []
    for k, v in headers:
        if k.lower() == b"content-length":
            v = str(len(body)).encode()
        elif k.lower() == b"location":
            for old, new in swaps:
                v = v.replace(old, new)
        fixed.append((k, v))
    await send({**head, "headers": fixed})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _site_socket(index: int) -> socket.socket:
    """A listening-ready socket on 127.0.0.N (N from 2): one host per site."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((f"127.0.0.{index + 2}", 0))
    return sock


async def serve(
    folder: Path,
    *,
    revoke_after_first: bool = False,
    ready: Callable[[Served], None] | None = None,
    stop: asyncio.Event | None = None,
) -> Path:
    """Serve the case until ``stop`` is set (or the task is cancelled); the state file.

    Raises:
        ManualError: the case has begun (serving again would reset it mid-case).
    """
    case = read_case(folder)
    if read_begin(folder) is not None:
        raise ManualError(
            f"{folder} has begun: serve refuses to restart, since a new server would reset "
            "the site's state mid-case; grade it, or prepare a new case"
        )
    load_manifest()
    loaded = scenario_of(load_manifest().case(case.task))
    scenario0 = loaded.scenario
    names = list(scenario0.world.sites)
    server = FixtureServer(all_sites().values())
    state = _Case(folder, case, server)
    sockets = [_site_socket(i) for i in range(len(names))]
    state.urls = {
        name: f"http://{s.getsockname()[0]}:{s.getsockname()[1]}"
        for name, s in zip(names, sockets, strict=True)
    }
    swaps = [(f"http://{n}.{DOMAIN}".encode(), u.encode()) for n, u in state.urls.items()]
    swaps += [(f"//{n}.{DOMAIN}".encode(), u.removeprefix("http:").encode()) for n, u in
              state.urls.items()]  # fmt: skip
    also = [
        (s, lambda app, n=n: _as_site(app, f"{n}.{DOMAIN}", swaps, state))
        for n, s in zip(names, sockets, strict=True)
    ]
    clock = dt.datetime.now(dt.UTC).replace(microsecond=0)
    values = {"scratch": str(folder), "home": str(folder / "home"), "base_url": ""}
    values |= {f"site.{n}": u for n, u in state.urls.items()}
    values |= date_values(clock, scenario0.zone)
    scenario = resolve(scenario0, values)
    world = AttemptWorld(
        attempt=state.tag,
        seed=scenario.world.seed,
        clock=clock,
        scratch=folder,
        revoke=state.lease.revoke if revoke_after_first else None,
        seeds=scenario.world.site_seeds(),
    )
    state.world = world
    await server.start(also=also)
    try:
        server.begin(world, names)
        state.persist()  # the reset state, before any request: begin needs it
        if ready is not None:
            start = scenario.world.browser.start or next(iter(state.urls.values()), "")
            ready(Served(dict(state.urls), start, scenario.brief))
        await (stop or asyncio.Event()).wait()
    finally:
        state.persist()
        server.end(state.tag)
        await server.stop()
    return folder / SITE_STATE
