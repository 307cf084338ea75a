"""The MCP tool lane: one attempt's computer toolset, served to an external agent.

``McpLane`` serves the toolset over MCP streamable HTTP on 127.0.0.1 (an
ephemeral port and a secret path) INSIDE the harness's event loop, because the
computer's Playwright objects belong to that loop. ``python -m
proctor.computer.mcp_stdio URL`` bridges it to stdio for agents that only speak
stdio.

The tools are exactly the computer toolset, generated from the action models:
one tool per op, ``observe``, ``screenshot`` and ``batch`` (see ``_mcp_tools``).
Counting, as attempt.json records it:

- ``tool_calls``: every ``tools/call`` counts once, valid or not, except
  ``batch``, which counts once per member it runs. Listing tools and the
  handshake do not count. Calls after the attempt ended are refused, uncounted.
- ``inputs``: every action run whose op sends input (``INPUT_OPS``).

``screenshot`` is an observation the agent asked for, counted as ``observe`` is:
one tool call, against the tool-call limit only (no Step, not an action, not an
input). The computer takes it (``look``): a PNG as MCP image content, and a text
giving the size of the space click, hover, drag and scroll coordinates are in
(the viewport in CSS pixels); the trace gets a ``screenshot`` event with the
sizes and the PNG's SHA-256. A computer without ``look`` is served no screenshot.

Calls run one at a time, in arrival order. The computer enforces the limits and
the control lease; when a limit is reached the call gets an error result naming
it and the lane ends (``end`` names the stop reason), as it does after ``done``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import secrets
import socket
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import mcp_types as types
import uvicorn
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from proctor import __version__
from proctor._serve import loopback_socket
from proctor.computer._mcp_tools import (
    TOOL_MODELS,
    BadCall,
    Batch,
    Observe,
    Screenshot,
    UserMessages,
    description,
    input_schema,
    parse,
    step_result,
    tool_models,
)
from proctor.computer.actions import Action, Done
from proctor.computer.attempt import CallCounter
from proctor.computer.observation import USER_NOTE, Capture, Observation
from proctor.computer.user import AgentReset
from proctor.errors import ComputerError, LimitReached
from proctor.records import Step
from proctor.vocab import Surface

STOP_TIMEOUT = 5.0
"""Seconds ``stop`` waits for the server to shut down before cancelling it."""

INSTRUCTIONS = (
    "These tools drive one browser for one task; they are the only way to act. "
    "Call observe to see the page (an aria snapshot whose [ref=eN] refs the other tools "
    "accept), or screenshot to see it as a PNG of the viewport (click, hover, drag and "
    "scroll also take x,y in CSS pixels of that viewport, from its top-left corner). Act "
    "with one tool per action or several at once with batch, and call done (with the "
    "answer, if the task asks for one) when finished. Every tool call counts against the "
    "task's tool-call limit; a batch counts once per action it runs."
)
DESKTOP_INSTRUCTIONS = (
    "These tools drive the apps of one desktop for one task; they are the only way to act. "
    "Call observe to see the app's window (an accessibility outline whose [ref=dN] refs the "
    "other tools accept), or screenshot to see the whole screen as a PNG. Act with one tool "
    "per action or several at once with batch, and call done (with the answer, if the task "
    "asks for one) when finished. Every tool call counts against the task's tool-call "
    "limit; a batch counts once per action it runs."
)


class LaneComputer(Protocol):
    """What the lane needs of a computer: the toolset and its call counter."""

    @property
    def calls(self) -> CallCounter: ...

    @property
    def surface(self) -> Surface: ...

    @property
    def finished(self) -> bool: ...

    @property
    def has_timeline(self) -> bool: ...

    async def act(self, action: Action) -> Step: ...

    async def observe(self) -> Observation: ...

    def user_messages(self) -> list[str]: ...

    def trace(self, kind: str, **data: Any) -> None: ...


@runtime_checkable
class Looking(Protocol):
    """A computer that takes the agent's screenshots (both of proctor's computers do).

    Optional, as ``Accounting`` is for agents: the agents' ``Computer`` contract does
    not carry it, so the lane asks for it and serves ``screenshot`` only when it is there.
    """

    async def look(self) -> Capture | None:
        """A counted, traced screenshot; None when the screen cannot be captured."""
        ...


@dataclass(frozen=True)
class LaneEnd:
    """Why the lane stopped taking calls.

    Attributes:
        reason: ``done``, a limit's stop reason (``tool_limit``, ``step_limit``),
            or ``fault`` when the computer or the server failed.
        answer: The answer given with ``done``.
        error: The exception that ended it (a limit or a fault).
    """

    reason: str
    answer: str | None = None
    error: BaseException | None = None


def tools(
    surface: Surface = "browser", *, screenshot: bool = True, timeline: bool = False
) -> list[types.Tool]:
    """The lane's tools on ``surface``, in the toolset's order (``screenshot``: with it;
    ``timeline``: with schedule and user_messages)."""
    return [
        types.Tool(
            name=name,
            description=description(name, surface),
            input_schema=input_schema(name, surface),
        )
        for name in tool_models(surface, screenshot=screenshot, timeline=timeline)
    ]


def capture_text(shot: Capture) -> str:
    """What a screenshot's text says: the size of the space coordinates are in."""
    if shot.surface == "desktop":
        return (
            f"screenshot: the screen, {shot.width} x {shot.height} pixels. The desktop tools "
            "act on controls by ref (from observe), not at coordinates."
        )
    return (
        f"screenshot: the viewport, {shot.width} x {shot.height} CSS pixels (width x height); "
        f"the PNG is {shot.png_width} x {shot.png_height} pixels, {shot.scale:g} PNG pixel(s) "
        "per CSS pixel. The x,y of click, hover, drag and scroll are CSS pixels of this "
        "viewport, from its top-left corner (0,0): a PNG pixel (px, py) is x = px / "
        f"{shot.scale:g}, y = py / {shot.scale:g}."
    )


def _capture_result(shot: Capture) -> types.CallToolResult:
    size = {"width": shot.width, "height": shot.height}
    image = {"width": shot.png_width, "height": shot.png_height}
    key = "screen" if shot.surface == "desktop" else "viewport"
    return types.CallToolResult(
        content=[
            types.ImageContent(
                data=base64.b64encode(shot.png).decode("ascii"), mime_type="image/png"
            ),
            types.TextContent(text=capture_text(shot)),
        ],
        structured_content={key: size, "image": image},
        is_error=False,
    )


def _result(
    text: str, structured: dict[str, Any] | None = None, *, error: bool = False
) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=text)], structured_content=structured, is_error=error
    )


class _Uvicorn(uvicorn.Server):
    """A uvicorn server that leaves the harness's signal handlers alone."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class McpLane:
    """The toolset of one computer, served over MCP; ``async with McpLane(c) as lane``."""

    def __init__(self, computer: LaneComputer) -> None:
        self.computer = computer
        self.end: LaneEnd | None = None
        self.ended = asyncio.Event()
        """Set once the lane stops taking calls (done, a limit, a fault)."""
        self._lock = asyncio.Lock()
        self._path = f"/{secrets.token_urlsafe(16)}/mcp"
        self.surface: Surface = computer.surface
        self._looking = computer if isinstance(computer, Looking) else None
        self._schemas = {name: input_schema(name, self.surface) for name in TOOL_MODELS}
        self._timeline = computer.has_timeline
        self._tools = tools(
            self.surface, screenshot=self._looking is not None, timeline=self._timeline
        )
        self._socket: socket.socket | None = None
        self._server: _Uvicorn | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    @property
    def url(self) -> str:
        """The streamable HTTP endpoint (valid after ``start``)."""
        if self._socket is None:
            raise ComputerError("the MCP lane is not started; call start() first")
        port = self._socket.getsockname()[1]
        return f"http://127.0.0.1:{port}{self._path}"

    async def start(self) -> str:
        """Listen on an ephemeral loopback port and serve; return the endpoint URL."""
        mcp = Server(
            "proctor",
            version=__version__,
            instructions=DESKTOP_INSTRUCTIONS if self.surface == "desktop" else INSTRUCTIONS,
            get_tool_input_schema=self._schemas.get,
            on_list_tools=self._on_list_tools,
            on_call_tool=self._on_call_tool,
        )
        app = mcp.streamable_http_app(streamable_http_path=self._path)
        sock = loopback_socket()
        # Listening before uvicorn starts: an agent that connects early waits in the backlog.
        sock.listen(64)
        self._socket = sock
        config = uvicorn.Config(
            app,
            log_config=None,
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=1,
        )
        self._server = _Uvicorn(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]), name="proctor-mcp")
        self._task.add_done_callback(self._served)
        self.computer.trace("mcp_lane", url=self.url)
        return self.url

    def _served(self, task: asyncio.Task[None]) -> None:
        error = None if task.cancelled() else task.exception()
        if not self._stopping:
            why = f": {type(error).__name__}: {error}" if error else ""
            self._finish(LaneEnd("fault", error=ComputerError(f"the MCP endpoint stopped{why}")))

    async def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """Stop serving (in-flight calls are cancelled after a short grace)."""
        self._stopping = True
        task, server = self._task, self._server
        try:
            if task is not None and server is not None and not task.done():
                server.should_exit = True
                try:
                    await asyncio.wait_for(asyncio.shield(task), timeout)
                except TimeoutError:
                    server.force_exit = True
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                        await asyncio.wait_for(asyncio.shield(task), timeout)
        finally:
            if self._socket is not None:
                self._socket.close()

    async def __aenter__(self) -> McpLane:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def _finish(self, end: LaneEnd) -> None:
        if self.end is None:
            self.end = end
            self.computer.trace(
                "mcp_end", reason=end.reason, error=str(end.error) if end.error else None
            )
        self.ended.set()

    # ----- MCP handlers -------------------------------------------------------

    async def _on_list_tools(
        self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._tools)

    async def _on_call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        result = await self.call(params.name, params.arguments)
        said = result.meta.get(USER_META) if result.meta else None
        if said:
            # Best effort: a client that does not take log notifications (since MCP 2026-07-28
            # a client opts in per request, with the log-level key in _meta) still has them
            # in the result.
            with contextlib.suppress(Exception), warnings.catch_warnings():
                warnings.simplefilter("ignore")  # MCP's deprecation of logging: still the spec's
                for text in said:
                    await ctx.session.send_log_message(
                        "info", {"from": "user", "text": text.removeprefix(USER_NOTE)},
                        logger="proctor.user",
                        related_request_id=ctx.request_id,
                    )  # fmt: skip
        return result

    # ----- one call -------------------------------------------------------------

    async def call(self, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        """Run one tool call through the computer, counted and recorded."""
        async with self._lock:
            if self.end is not None:
                self.computer.trace("mcp_refused", tool=name, reason=self.end.reason)
                return _result(
                    f"refused: the attempt has ended ({self.end.reason}); stop calling tools",
                    error=True,
                )
            try:
                result = await self._run(name, arguments)
            except LimitReached as exc:
                self._finish(LaneEnd(exc.reason, error=exc))
                result = _result(
                    f"{exc.reason}: {exc}. The attempt has ended; stop calling tools.", error=True
                )
            except AgentReset as exc:
                self._finish(LaneEnd("reset", error=exc))
                result = _result("this agent is being replaced; stop calling tools", error=True)
            except Exception as exc:  # a computer fault ends the attempt; the agent re-raises it
                self._finish(LaneEnd("fault", error=exc))
                result = _result(f"the computer failed: {exc}", error=True)
            if self.end is None:
                result = _with_messages(result, self.computer.user_messages())
            self.computer.trace("mcp_call", tool=name, error=result.is_error)
            return result

    async def _run(self, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        try:
            call = parse(
                name,
                arguments,
                self.surface,
                screenshot=self._looking is not None,
                timeline=self._timeline,
            )
        except BadCall as exc:
            self.computer.calls.count_call()  # the agent spent a call on it
            return _result(str(exc), error=True)
        if isinstance(call, UserMessages):
            self.computer.calls.count_call()
            said = self.computer.user_messages()
            return _result("no new messages" if not said else "\n".join(said))
        if isinstance(call, Observe):
            observation = await self.computer.observe()
            return _result(observation.render())
        if isinstance(call, Screenshot):
            return await self._screenshot()
        if isinstance(call, Batch):
            return await self._batch(call)
        step = await self.computer.act(call)
        self._after(call)
        text, structured = step_result(step)
        return _result(text, structured, error=step.status != "ok")

    async def _screenshot(self) -> types.CallToolResult:
        if self._looking is None:  # parse offers no screenshot then; never reached
            raise ComputerError("this computer takes no screenshots; the lane offers none")
        shot = await self._looking.look()  # counted, and traced, by the computer
        if shot is None:
            return _result(
                "screenshot: the screen could not be captured; observe, or try again",
                error=True,
            )
        return _capture_result(shot)

    async def _batch(self, batch: Batch) -> types.CallToolResult:
        steps: list[dict[str, Any]] = []
        texts: list[str] = []
        said: list[str] = []
        failed = False
        for i, action in enumerate(batch.actions):
            try:
                step = await self.computer.act(action)
            except LimitReached as exc:
                raise LimitReached(
                    exc.reason, f"{exc} (batch: {i} of {len(batch.actions)} actions ran)"
                ) from exc
            self._after(action)
            text, structured = step_result(step)
            steps.append(structured)
            texts.append(f"[{i}] {action.op}: {text}")
            if step.status != "ok":
                failed = True
                break
            if isinstance(action, Done) or self.end is not None:
                break
            said = self.computer.user_messages()
            if said:  # the user spoke: the rest of the batch was planned without hearing it
                break
        ran = len(steps)
        if ran < len(batch.actions):
            why = " (a message from the user arrived)" if said else ""
            texts.append(f"stopped: {ran} of {len(batch.actions)} actions ran{why}")
        result = _result("\n".join(texts), {"steps": steps, "ran": ran}, error=failed)
        return _with_messages(result, said)

    def _after(self, action: Action) -> None:
        # A done the timeline answers (a message, a wake-up) leaves the attempt open.
        if isinstance(action, Done) and self.computer.finished:
            self._finish(LaneEnd("done", answer=action.answer))


USER_META = "proctor/user_messages"
"""The result's ``_meta`` key listing what the user said (the lane's notification reads it)."""


def _with_messages(result: types.CallToolResult, said: list[str]) -> types.CallToolResult:
    """The result with the user's new messages after its content (and in its ``_meta``)."""
    if not said:
        return result
    content = [*result.content, types.TextContent(text="\n".join(said))]
    meta = {**(result.meta or {}), USER_META: list(said)}
    return result.model_copy(update={"content": content, "meta": meta})
