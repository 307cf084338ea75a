"""The loopback fixture server: Starlette on uvicorn, on its own thread.

One server runs per worker for the whole run. Sites are routed by the Host
header (``forms.proctor.test``); Chromium maps those names to this server with
``--host-resolver-rules``. Each attempt gets fresh site state through
``begin``; its requests are tagged by the ``x-proctor-attempt`` header that the
attempt's browser context sends, or by being the only attempt active.

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

import asyncio
import json
import secrets
import socket
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal
from urllib.parse import parse_qs

import uvicorn
from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from proctor.errors import WorldError
from proctor.vocab import Crossing, Refusal
from proctor.world._log import RequestLog
from proctor.world._protocol import BODY_TIMEOUT, TimedH11Protocol
from proctor.world._render import render
from proctor.world._site import DOMAIN, AttemptWorld, Site, Submission, world_of

ATTEMPT_HEADER = "x-proctor-attempt"
MAX_BODY = 8 * 1024 * 1024
START_TIMEOUT = 10.0
CONTROL_PREFIX = "/_proctor/"

Lane = Literal["open", "browser", "control"]
"""Which socket a request came in on (see the module docstring)."""


def _wants_json(request: Request) -> bool:
    ctype = request.headers.get("content-type", "")
    accept = request.headers.get("accept", "")
    return ctype.startswith("application/json") or (
        "application/json" in accept and "text/html" not in accept
    )


async def _posted(request: Request) -> tuple[dict[str, list[str]], dict[str, list[dict[str, Any]]]]:
    """Fields and uploaded-file facts of a form or JSON post."""
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = json.loads(await request.body() or b"null")
        except (ValueError, RecursionError):  # malformed, or nested past the parser's depth
            return {}, {}
        if not isinstance(body, dict):
            return {}, {}
        fields: dict[str, list[str]] = {}
        for key, value in body.items():
            values = value if isinstance(value, list) else [value]
            fields[str(key)] = [v if isinstance(v, str) else json.dumps(v) for v in values]
        return fields, {}
    form = await request.form()
    out: dict[str, list[str]] = {}
    files: dict[str, list[dict[str, Any]]] = {}
    for key, value in form.multi_items():
        if isinstance(value, UploadFile):
            data = await value.read()
            import hashlib

            files.setdefault(key, []).append(
                {
                    "filename": value.filename or "",
                    "size": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                }
            )
        else:
            out.setdefault(key, []).append(value)
    return out, files


async def submit(request: Request) -> Response:
    """POST /submit/<route>: validate, store, then 303 to the result page."""
    site: Site = request.scope["proctor.site"]
    route = request.path_params["route"]
    rule = site.forms.get(route)
    as_json = _wants_json(request)
    if rule is None:
        message = f"There is no form called {route!r} on this site."
        if as_json:
            return JSONResponse({"ok": False, "errors": [message]}, status_code=404)
        return render("_shared/error.html", 404, title="Not found", messages=[message], back="/")
    fields, files = await _posted(request)
    messages = rule(fields)
    if messages:
        if as_json:
            return JSONResponse({"ok": False, "errors": messages}, status_code=422)
        back = request.headers.get("referer", "/")
        return render(
            "_shared/error.html", 422, title="Please correct the form", messages=messages, back=back
        )
    world = world_of(request)
    sub = Submission(len(world.submissions) + 1, route, fields, files)
    world.submissions.append(sub)
    if as_json:
        return JSONResponse({"ok": True, "id": sub.id})
    return Response(status_code=303, headers={"location": f"/submitted/{route}/{sub.id}"})


async def submitted(request: Request) -> Response:
    """GET /submitted/<route>/<id>: the page shown after an accepted post."""
    world = world_of(request)
    route = request.path_params["route"]
    sub_id = request.path_params["id"]
    for sub in world.submissions:
        if sub.route == route and sub.id == sub_id:
            return render("_shared/submitted.html", sub=sub)
    return render(
        "_shared/error.html", 404, title="Not found", messages=["No such submission."], back="/"
    )


def _site_app(site: Site) -> Starlette:
    routes = [
        *site.routes,
        Route("/submit/{route:str}", submit, methods=["POST"]),
        Route("/submitted/{route:str}/{id:int}", submitted, methods=["GET"]),
    ]
    return Starlette(routes=routes)


async def _index(request: Request) -> Response:
    sites = request.scope["proctor.sites"]
    links = "".join(f'<li><a href="http://{s.host}/">{s.host}</a></li>' for s in sites)
    return HTMLResponse(f"<!doctype html><title>proctor fixtures</title><ul>{links}</ul>")


async def _revoke(request: Request) -> Response:
    """POST /_proctor/lease/revoke {attempt, token}: the owner takes control back."""
    server: FixtureServer = request.scope["proctor.server"]
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


class _Dispatcher:
    """ASGI app: logs every request, attaches the attempt, routes by Host."""

    def __init__(self, server: FixtureServer, lane: Lane) -> None:
        self.server = server
        self.lane = lane
        self.apps: dict[str, tuple[Site, ASGIApp]] = {}
        for site in server.sites.values():
            app = _site_app(site)
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
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").rsplit(":", 1)[0].lower()
        method = scope["method"]
        path = scope["path"]
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        world = self.server.attempt_for(headers.get(ATTEMPT_HEADER))
        cookies = [
            c.split("=", 1)[0].strip() for c in headers.get("cookie", "").split(";") if "=" in c
        ]
        status = 0
        fault: str | None = None
        crossing: Crossing | None = None
        refused: Refusal | None = None

        body, too_large, timed_out = await _read_body(receive, MAX_BODY)

        async def replay() -> Message:
            return {"type": "http.request", "body": body, "more_body": False}

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
            if target is not None:
                scope["proctor.site"] = target[0]
                if world is None and not path.startswith("/static/"):
                    answer = _plain("No attempt is active on this fixture server.", 503)
                    await answer(scope, replay, send_tracked)
                else:
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
            fields, files = await _posted(Request(scope, replay))
        except Exception:
            return {}, {}, None
        return fields, files, None
    return {}, {}, None


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
        self._servers: list[uvicorn.Server] = []
        self.sealed = False
        """Whether the world is served only inside the browser's sealed network."""
        self._thread: threading.Thread | None = None
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
        with self._lock:
            if attempt_id is not None:
                return self._worlds.get(attempt_id)
            if len(self._worlds) == 1:
                return next(iter(self._worlds.values()))
            return None

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
        """Detach an attempt: later requests tagged with it are answered 503."""
        with self._lock:
            self._worlds.pop(attempt_id, None)

    def revoke(self, attempt: str, *, by: str, reason: str) -> list[str]:
        """Revoke the lease of every active try of ``attempt`` (an id, or id#try)."""
        with self._lock:
            worlds = [
                w
                for tag, w in self._worlds.items()
                if tag == attempt or tag.startswith(attempt + "#")
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

    def world(self, attempt_id: str) -> AttemptWorld:
        with self._lock:
            try:
                return self._worlds[attempt_id]
            except KeyError:
                raise WorldError(f"attempt {attempt_id} is not active") from None

    async def start(self, browser_socket: Callable[[int], socket.socket] | None = None) -> None:
        """Start serving on an ephemeral loopback port; wait until it accepts.

        Args:
            browser_socket: Given, the world is served only on the socket it returns
                for the chosen port (inside the browser's sealed network), and this
                process's socket keeps the control endpoint only.
        """
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        lanes: list[tuple[Lane, socket.socket]] = [("open", sock)]
        if browser_socket is not None:
            lanes = [("control", sock), ("browser", browser_socket(self.port))]
        self.sealed = browser_socket is not None
        servers = [uvicorn.Server(self._config(lane)) for lane, _ in lanes]
        self._servers = servers

        async def serve_all() -> None:
            pairs = zip(servers, lanes, strict=True)
            await asyncio.gather(*(srv.serve(sockets=[s]) for srv, (_, s) in pairs))

        def serve() -> None:
            asyncio.run(serve_all())

        self._thread = threading.Thread(target=serve, name="proctor-fixtures", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not all(srv.started for srv in servers):
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise WorldError(
                    f"the fixture server did not start on 127.0.0.1:{self.port} "
                    f"within {START_TIMEOUT:.0f}s"
                )
            await asyncio.sleep(0.01)

    def _config(self, lane: Lane) -> uvicorn.Config:
        return uvicorn.Config(
            _Dispatcher(self, lane),
            http=TimedH11Protocol,
            ws="none",
            log_level="error",
            access_log=False,
            lifespan="off",
            timeout_keep_alive=30,
        )

    async def stop(self) -> None:
        """Stop serving and join the server thread (bounded)."""
        for srv in self._servers:
            srv.should_exit = True
        if self._thread is not None:
            deadline = time.monotonic() + START_TIMEOUT
            while self._thread.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
        self._servers = []
        self._thread = None

    async def __aenter__(self) -> FixtureServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


def sites_by_name(sites: Mapping[str, Site]) -> list[str]:
    return sorted(sites)
