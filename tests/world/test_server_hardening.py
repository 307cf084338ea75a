"""The fixture server can't be knocked over, and logs what would knock it over.

Each test drives a real uvicorn thread over loopback: bodies that fail to parse,
stalled heads and bodies, websocket upgrades, the memory of ended attempts, and
the lanes of a sealed server.
"""

from __future__ import annotations

import datetime as dt
import json
import socket
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

import proctor.world._dispatch as dispatch_module
import proctor.world._protocol as protocol
from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer, Site
from proctor.world._log import MAX_STORED_VALUE
from proctor.world._site import required

HOST = "lab.proctor.test"


async def _home(request: Request) -> Response:
    return HTMLResponse("<!doctype html><title>Lab</title>")


LAB = Site(name="lab", routes=[Route("/", _home)], forms={"note": required("text")})


@pytest.fixture
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([LAB]) as srv:
        yield srv


@pytest.fixture
def world(server: FixtureServer, tmp_path: Path) -> Iterator[AttemptWorld]:
    world = AttemptWorld("hard-1", 0, dt.datetime(2025, 1, 2, tzinfo=dt.UTC), tmp_path)
    server.begin(world, ["lab"])
    yield world
    server.end("hard-1")


def _headers(**extra: str) -> dict[str, str]:
    return {"host": HOST, ATTEMPT_HEADER: "hard-1", **extra}


async def test_deeply_nested_json_is_answered_and_logged(
    server: FixtureServer, world: AttemptWorld
) -> None:
    body = "[" * 100_000 + "]" * 100_000  # past json's recursion limit
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        answer = await client.post(
            "/submit/note",
            content=body,
            headers=_headers(**{"content-type": "application/json", "accept": "application/json"}),
        )
    assert answer.status_code == 422  # invalid input, not a fixture fault
    (entry,) = server.log.for_attempt("hard-1")
    assert (entry.method, entry.path, entry.status, entry.fault) == (
        "POST",
        "/submit/note",
        422,
        None,
    )
    assert entry.json_body == {"proctor_unparsed": f"{len(body)} bytes that are not valid JSON"}


async def test_stored_values_are_bounded(server: FixtureServer, world: AttemptWorld) -> None:
    big = "x" * (MAX_STORED_VALUE * 4)
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        await client.post("/submit/note", data={"text": big}, headers=_headers())
        await client.post(
            "/submit/note",
            content=json.dumps({"text": big}),
            headers=_headers(**{"content-type": "application/json"}),
        )
    form, js = server.log.for_attempt("hard-1")
    stored = form.form["text"][0]
    assert len(stored) < MAX_STORED_VALUE + 100
    assert stored.endswith(f"...[cut: {len(big)} characters]")
    assert js.json_body == {"proctor_cut": f"a JSON body of {len(big) + 12} characters"}


async def test_ended_and_untagged_requests_are_dropped_with_the_attempt(
    server: FixtureServer, tmp_path: Path
) -> None:
    first = AttemptWorld("drop-1", 0, dt.datetime(2025, 1, 2, tzinfo=dt.UTC), tmp_path)
    server.begin(first, ["lab"])
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        await client.get("/", headers={"host": HOST, ATTEMPT_HEADER: "drop-1"})
        server.end("drop-1")
        # tagged with the ended attempt, and tagged with nothing while none is active
        await client.get("/", headers={"host": HOST, ATTEMPT_HEADER: "drop-1"})
        await client.get("/", headers={"host": HOST})
    assert len(server.log) == 3
    assert [e.refused for e in server.log.unattributed()] == ["unattributed"] * 2
    assert [e.attempt for e in server.log.for_attempt("drop-1")] == ["drop-1"]
    server.log.drop_attempt("drop-1")
    assert len(server.log) == 0


def _raw(port: int, payload: bytes, wait: float) -> bytes:
    """Send ``payload``; read an answer head, or until the server closes or ``wait`` runs out."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(payload)
        chunks = []
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(4096)
            except TimeoutError:
                break
            if not chunk:
                return b"".join(chunks) + b"<closed>"
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks):  # a whole answer head: enough
                break
        return b"".join(chunks)


async def test_a_stalled_request_head_is_closed(
    server: FixtureServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(protocol, "HEAD_TIMEOUT", 0.5)
    started = time.monotonic()
    got = _raw(server.port, b"GET / HTTP/1.1\r\nHost: lab.proctor.test\r\nX-Slow: ", wait=8)
    assert got == b"<closed>"
    assert time.monotonic() - started < 5


async def test_a_stalled_body_is_answered_408_and_logged(
    server: FixtureServer, world: AttemptWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dispatch_module, "BODY_TIMEOUT", 0.5)
    head = (
        b"POST /submit/note HTTP/1.1\r\nHost: lab.proctor.test\r\n"
        b"X-Proctor-Attempt: hard-1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: 100\r\n\r\ntext=hal"
    )
    got = _raw(server.port, head, wait=8)
    assert got.startswith(b"HTTP/1.1 408 ")
    (entry,) = server.log.for_attempt("hard-1")
    assert (entry.status, entry.refused) == (408, "body")


async def test_websocket_upgrades_are_refused_and_logged(
    server: FixtureServer, world: AttemptWorld
) -> None:
    upgrade = (
        b"GET /chat HTTP/1.1\r\nHost: lab.proctor.test\r\nX-Proctor-Attempt: hard-1\r\n"
        b"Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    got = _raw(server.port, upgrade, wait=3)
    assert got.startswith(b"HTTP/1.1 403 ")
    (entry,) = server.log.for_attempt("hard-1")
    assert (entry.path, entry.refused) == ("/chat", "websocket")


async def test_a_sealed_server_serves_the_world_only_on_the_browser_lane(tmp_path: Path) -> None:
    inner = socket.socket()
    inner.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)

    def browser_socket(port: int) -> socket.socket:
        # Stands in for the socket made inside the browser's network namespace.
        inner.bind(("127.0.0.2", port))
        inner.listen(8)
        return inner

    srv = FixtureServer([LAB])
    await srv.start(browser_socket)
    try:
        world = AttemptWorld("lane-1", 0, dt.datetime(2025, 1, 2, tzinfo=dt.UTC), tmp_path)
        srv.begin(world, ["lab"])
        headers = {"host": HOST, ATTEMPT_HEADER: "lane-1"}
        async with httpx.AsyncClient(timeout=10) as client:
            outside = await client.post(
                f"http://127.0.0.1:{srv.port}/submit/note", data={"text": "x"}, headers=headers
            )
            control = await client.post(
                f"http://127.0.0.1:{srv.port}/_proctor/lease/revoke", json={"token": "nope"}
            )
            inside = await client.post(
                f"http://127.0.0.2:{srv.port}/submit/note", data={"text": "x"}, headers=headers
            )
            inside_control = await client.post(
                f"http://127.0.0.2:{srv.port}/_proctor/lease/revoke", json={"token": "nope"}
            )
        assert (outside.status_code, control.status_code) == (403, 403)
        assert (inside.status_code, inside_control.status_code) == (303, 404)
        entries = [(e.path, e.status, e.refused) for e in srv.log.for_attempt("lane-1")]
        assert entries == [("/submit/note", 403, "host_lane"), ("/submit/note", 303, None)]
        # the untagged control calls are of no attempt, not of the only active one
        assert [(e.path, e.status, e.refused) for e in srv.log.unattributed()] == [
            ("/_proctor/lease/revoke", 403, None),  # wrong token
            ("/_proctor/lease/revoke", 404, None),
        ]
        assert len(world.submissions) == 1  # only the browser lane's post
    finally:
        await srv.stop()
