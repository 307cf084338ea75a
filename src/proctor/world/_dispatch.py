"""The fixture server's ASGI dispatcher: logs every request, attaches its attempt, routes by Host.

It is where the server's hardening lives (see ``_server``): the lanes, the body
limits and timeouts, websocket refusal, and a log entry for every request
whatever happens to it.
"""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import Mapping
from typing import Any, Protocol
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from proctor._inject import due as inject_due
from proctor._inject import injections
from proctor.vocab import Crossing, Refusal, RequestLane
from proctor.world._forms import posted_fields, site_app
from proctor.world._log import RequestLog
from proctor.world._protocol import BODY_TIMEOUT
from proctor.world._site import DOMAIN, AttemptWorld, Site

ATTEMPT_HEADER = "x-proctor-attempt"
MAX_BODY = 8 * 1024 * 1024
CONTROL_PREFIX = "/_proctor/"

UNATTRIBUTED = (
    f"This request carries no tag of an active attempt ({ATTEMPT_HEADER}): the world "
    "answers only an attempt's own browser."
)


class Served(Protocol):
    """What the dispatcher needs of the server it answers for (``FixtureServer``)."""

    @property
    def sites(self) -> Mapping[str, Site]: ...

    @property
    def log(self) -> RequestLog: ...

    @property
    def control_token(self) -> str: ...

    def attempt_for(self, attempt_id: str | None) -> AttemptWorld | None: ...

    def revoke(self, attempt: str, *, by: str, reason: str) -> list[str]: ...


async def _index(request: Request) -> Response:
    sites = request.scope["proctor.sites"]
    links = "".join(f'<li><a href="http://{s.host}/">{s.host}</a></li>' for s in sites)
    return HTMLResponse(f"<!doctype html><title>proctor fixtures</title><ul>{links}</ul>")


async def _revoke(request: Request) -> Response:
    """POST /_proctor/lease/revoke {attempt, token}: the owner takes control back."""
    server: Served = request.scope["proctor.server"]
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        return JSONResponse({"ok": False, "error": "the body must be JSON"}, status_code=400)
    if not isinstance(body, dict) or body.get("token") != server.control_token:
        return JSONResponse({"ok": False, "error": "wrong or missing control token"}, 403)
    attempt = str(body.get("attempt", ""))
    revoked = server.revoke(attempt, by="http", reason=str(body.get("reason") or "owner request"))
    if not revoked:
        return JSONResponse({"ok": False, "error": f"no active attempt {attempt!r}"}, 404)
    return JSONResponse({"ok": True, "revoked": revoked})


class Dispatcher:
    """ASGI app: logs every request, attaches the attempt, routes by Host."""

    def __init__(self, server: Served, lane: RequestLane) -> None:
        self.server = server
        self.lane = lane
        self.apps: dict[str, tuple[Site, ASGIApp]] = {}
        for site in server.sites.values():
            app = site_app(site)
            for label in (site.name, *site.hosts):
                self.apps[f"{label}.{DOMAIN}"] = (site, app)
        self.index = Starlette(
            routes=[
                Route("/", _index),
                Route("/_proctor/lease/revoke", _revoke, methods=["POST"]),
            ]
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":  # only with a websocket library installed
            await self._refuse_websocket(scope, send)
            return
        if scope["type"] != "http":
            return
        scope, tag = _take_tag(scope)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").rsplit(":", 1)[0].lower()
        method = scope["method"]
        path = scope["path"]
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        world = self.server.attempt_for(tag)
        cookies = [
            c.split("=", 1)[0].strip() for c in headers.get("cookie", "").split(";") if "=" in c
        ]
        status = 0
        fault: str | None = None
        crossing: Crossing | None = None
        refused: Refusal | None = None

        body, too_large, timed_out = await _read_body(receive, MAX_BODY)

        replayed = False

        async def replay() -> Message:
            """The body, read once already, as one message; after it, the real channel.

            An app that listens for the client's disconnect while it answers (Starlette's
            FileResponse, StreamingResponse) calls receive again: it must get what the
            client does (``http.disconnect`` when it goes), never the body a second time,
            which it would read as a new message and spin on."""
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        # The answer's head and last body message wait until the request is
        # logged: a client that has its whole answer (an empty 303 is complete
        # with its head) can then rely on the log holding it.
        held: list[Message] = []

        async def send_logged(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                held.append(message)
                return
            if message["type"] == "http.response.body" and not message.get("more_body"):
                held.append(message)
                return
            for early in held:  # a streamed answer: its head goes out with the first chunk
                await send(early)
            held.clear()
            await send(message)

        control = path.startswith(CONTROL_PREFIX)
        try:
            if timed_out:
                refused = "body"
                answer = _plain(f"The request body did not arrive within {BODY_TIMEOUT:g}s.", 408)
                await answer(scope, replay, send_logged)
            elif too_large:
                await _plain(f"Request body over {MAX_BODY} bytes.", 413)(
                    scope, replay, send_logged
                )
            elif headers.get("upgrade", "").lower() == "websocket":
                refused = "websocket"
                await _plain("The fixture world has no websockets.", 403)(
                    scope, replay, send_logged
                )
            elif self.lane == "control" and not control:
                refused = "host_lane"
                answer = _plain("The world answers only the attempt's browser.", 403)
                await answer(scope, replay, send_logged)
            elif self.lane == "browser" and control:
                await _plain("Not found.", 404)(scope, replay, send_logged)
            elif world is None and host in self.apps:
                refused = "unattributed"
                answer = _plain(UNATTRIBUTED, 403)
                await answer(scope, replay, send_logged)
            else:
                crossing = self._crossing(host, method, path)
                fault = await self._serve(scope, host, path, world, replay, send_logged)
        finally:
            # Logged whatever happened above: an unparseable body, a fixture bug or a
            # refusal is exactly what request-log grading must be able to see.
            form, files, json_body = await _parse_body(scope, body) if body else ({}, {}, None)
            self.server.log.append(
                attempt=world.attempt if world else None,
                method=method,
                host=host,
                path=path,
                query=query,
                form=form,
                files=files,
                json_body=json_body,
                cookies=cookies,
                status=status,
                fault=fault,
                crossing=crossing,
                refused=refused,
            )
            for message in held:
                await send(message)

    def _crossing(self, host: str, method: str, path: str) -> Crossing | None:
        target = self.apps.get(host)
        if target is None or method == "GET":
            return None
        return target[0].crossings.get(path)

    async def _serve(
        self,
        scope: Scope,
        host: str,
        path: str,
        world: AttemptWorld | None,
        replay: Receive,
        send: Send,
    ) -> str | None:
        """Route one request to its site (or the index); the fault, when a fixture raised."""
        scope = dict(scope)
        scope["proctor.world"] = world
        scope["proctor.sites"] = list(self.server.sites.values())
        scope["proctor.server"] = self.server
        target = self.apps.get(host)
        started = False

        async def send_tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            if world is not None and injections():
                nth = len(self.server.log.for_attempt(world.attempt)) + 1
                if inject_due("fixture", nth, world.attempt):
                    raise RuntimeError(f"injected fixture fault at request {nth} (PROCTOR_INJECT)")
            if target is not None:
                scope["proctor.site"] = target[0]
                await target[1](scope, replay, send_tracked)
            elif host in ("127.0.0.1", "localhost"):
                await self.index(scope, replay, send_tracked)
            else:
                answer = _plain(f"No fixture site is served at host {host!r}.", 404)
                await answer(scope, replay, send_tracked)
        except Exception as exc:  # a fixture bug: an infra fault, never the agent's
            if not started:
                await _plain("Fixture error.", 500)(scope, replay, send_tracked)
            return f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
        return None

    async def _refuse_websocket(self, scope: Scope, send: Send) -> None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        world = self.server.attempt_for(headers.get(ATTEMPT_HEADER))
        await send({"type": "websocket.close", "code": 1008})
        self.server.log.append(
            attempt=world.attempt if world else None,
            method="GET",
            host=headers.get("host", "").rsplit(":", 1)[0].lower(),
            path=scope.get("path", "/"),
            status=403,
            refused="websocket",
        )


def _take_tag(scope: Scope) -> tuple[Scope, str | None]:
    """The request's attempt tag, and its scope without the tag's cookie.

    The tag is the ``x-proctor-attempt`` header an attempt's browser context sends with
    every request its pages make; a request the browser makes itself (a download) has
    only the context's cookies, among them an httpOnly cookie of the same name, read
    when the header is missing. That cookie is the harness's, not the world's: it is
    taken out of the request, so no site and no log entry ever sees it.
    """
    tag: str | None = None
    cookie_tag: str | None = None
    kept: list[tuple[bytes, bytes]] = []
    prefix = ATTEMPT_HEADER + "="
    for name, value in scope["headers"]:
        if name == _HEADER_BYTES:
            tag = tag or value.decode("latin-1")
        elif name == b"cookie":
            parts = [p.strip() for p in value.decode("latin-1").split(";")]
            ours = [p for p in parts if p.startswith(prefix)]
            if ours:
                cookie_tag = cookie_tag or ours[0][len(prefix) :]
                rest = "; ".join(p for p in parts if p and not p.startswith(prefix))
                if rest:
                    kept.append((name, rest.encode("latin-1")))
                continue
        kept.append((name, value))
    if cookie_tag is None:
        return scope, tag
    return {**scope, "headers": kept}, tag or cookie_tag


_HEADER_BYTES = ATTEMPT_HEADER.encode("latin-1")


def _plain(text: str, status: int) -> Response:
    return PlainTextResponse(text, status_code=status)


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool, bool]:
    """(body, over the limit, a chunk did not arrive within BODY_TIMEOUT)."""
    chunks: list[bytes] = []
    size = 0
    too_large = False
    while True:
        try:
            message = await asyncio.wait_for(receive(), BODY_TIMEOUT)
        except TimeoutError:
            return b"".join(chunks), too_large, True
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            too_large = True
        elif chunk:
            chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks), too_large, False


async def _parse_body(
    scope: Scope, body: bytes
) -> tuple[dict[str, list[str]], dict[str, list[dict[str, Any]]], Any]:
    """Form fields, file facts and JSON of a body, for the log; never raises."""
    headers = dict(scope["headers"])
    ctype = headers.get(b"content-type", b"").decode("latin-1")
    if ctype.startswith("application/json"):
        try:
            return {}, {}, json.loads(body)
        except (ValueError, RecursionError):
            return {}, {}, {"proctor_unparsed": f"{len(body)} bytes that are not valid JSON"}
    if ctype.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):

        async def replay() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

        try:
            fields, files = await posted_fields(Request(scope, replay))
        except Exception:
            return {}, {}, None
        return fields, files, None
    return {}, {}, None
