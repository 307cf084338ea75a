"""The replay provider: a loopback server speaking both wire formats from a transcript.

It serves recorded responses in order (``match`` picks one whose text occurs
in the request), records every request it receives, and marks every response
with the ``x-proctor-recording`` header, so a reply it served is labelled a
recording and never reported as a model's result. Tests and ``proctor
calibrate`` use it to run the model tier with no network.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn
from pydantic import BaseModel, ConfigDict, Field
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor._serve import ServerThread, loopback_socket
from proctor.agents.llm._wire import RECORDING_HEADER
from proctor.errors import AgentError
from proctor.vocab import WireFormat

START_TIMEOUT = 10.0
DISCONNECT_POLL = 0.05
"""Seconds between checks, during a delayed response, that the client is still there."""
LOG_PATH = "/_replay/requests"
LOAD_PATH = "/_replay/transcript"


class Recorded(BaseModel):
    """One recorded response."""

    model_config = ConfigDict(extra="forbid")

    status: int = 200
    body: Any = Field(default=None, description="The JSON body; an error body by default.")
    headers: dict[str, str] = Field(default_factory=dict)
    delay: float = Field(default=0.0, ge=0, description="Seconds before answering.")
    wire: WireFormat | None = Field(default=None, description="Only for this wire format.")
    match: str | None = Field(default=None, description="Only for requests holding this text.")


class Transcript(BaseModel):
    """A recording: responses served in order, with a label that says what it is."""

    model_config = ConfigDict(extra="forbid")

    label: str = Field(min_length=1)
    responses: list[Recorded] = Field(default_factory=list)
    spend: float | None = Field(default=None, description="What GET /v1/key reports as usage.")

    @classmethod
    def load(cls, path: Path) -> Transcript:
        """Read a transcript file (JSON).

        Raises:
            AgentError: naming the file and the problem.
        """
        try:
            return cls.model_validate_json(path.read_bytes())
        except (OSError, ValueError) as exc:
            raise AgentError(f"transcript {path}: {exc}") from exc


@dataclass
class Received:
    """One request the replay provider received; the key itself is never kept."""

    wire: WireFormat
    path: str
    body: dict[str, Any]
    authorized: bool
    served: int | None
    """Index of the response served, None when none was left."""
    abandoned: bool = False
    """The client closed the connection before the (delayed) response was sent."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "wire": self.wire,
            "path": self.path,
            "body": self.body,
            "authorized": self.authorized,
            "served": self.served,
            "abandoned": self.abandoned,
        }


class ReplayProvider:
    """``async with ReplayProvider(transcript, key=...) as replay``: serves on 127.0.0.1."""

    def __init__(self, transcript: Transcript, *, key: str | None = None) -> None:
        self.transcript = transcript
        self.key = key
        self.requests: list[Received] = []
        self.port = 0
        self._used = [False] * len(transcript.responses)
        self._lock = threading.Lock()
        self._thread: ServerThread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing: asyncio.Event | None = None

    def base_url(self, wire: WireFormat) -> str:
        """What to give the SDK: OpenAI's ends in /v1, Anthropic's SDK adds /v1 itself."""
        root = f"http://127.0.0.1:{self.port}"
        return root if wire == "anthropic" else f"{root}/v1"

    @property
    def remaining(self) -> int:
        with self._lock:
            return self._used.count(False)

    def _take(self, wire: WireFormat, text: str) -> int | None:
        with self._lock:
            for i, rec in enumerate(self.transcript.responses):
                if self._used[i] or (rec.wire and rec.wire != wire):
                    continue
                if rec.match is not None and rec.match not in text:
                    continue
                self._used[i] = True
                return i
        return None

    async def _complete(self, request: Request, wire: WireFormat) -> Response:
        raw = await request.body()
        text = raw.decode("utf-8", "replace")
        try:
            body = json.loads(text)
        except json.JSONDecodeError:
            body = {"unparsed": text}
        # Anthropic's API takes x-api-key; its newer SDKs and OpenAI's send a bearer token.
        sent = request.headers.get("x-api-key") or request.headers.get(
            "authorization", ""
        ).removeprefix("Bearer ")
        authorized = self.key is None or sent == self.key
        index = self._take(wire, text) if authorized else None
        received = Received(wire, request.url.path, body, authorized, index)
        with self._lock:
            self.requests.append(received)
        headers = {RECORDING_HEADER: self.transcript.label}
        if not authorized:
            return JSONResponse(
                _error(wire, "invalid api key", "authentication_error"), 401, headers
            )
        if index is None:
            return JSONResponse(
                _error(wire, "the transcript has no response left for this request", "exhausted"),
                400,
                headers,
            )
        rec = self.transcript.responses[index]
        if rec.delay and self._closing is not None:
            received.abandoned = await self._wait(request, rec.delay)
        payload = rec.body if rec.body is not None else _error(wire, "recorded error", "api_error")
        return JSONResponse(payload, rec.status, {**headers, **rec.headers})

    async def _wait(self, request: Request, delay: float) -> bool:
        """Wait ``delay`` seconds, or less when the client hangs up or the server stops.

        Returns whether the client closed the connection first (a client that
        gave up on a timed-out request: the retry must not queue behind it).
        """
        assert self._closing is not None
        loop = asyncio.get_running_loop()
        end = loop.time() + delay
        while not self._closing.is_set():
            left = end - loop.time()
            if left <= 0:
                return False
            if await request.is_disconnected():
                return True
            with suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), min(left, DISCONNECT_POLL))
        return False

    async def _log(self, request: Request) -> Response:
        """Every request received so far, for a test driving a replay server in another process."""
        with self._lock:
            return JSONResponse({"requests": [r.as_dict() for r in self.requests],
                                 "remaining": self._used.count(False)})  # fmt: skip

    async def _load(self, request: Request) -> Response:
        """Serve another transcript from now on, with an empty request log (one server
        process, many tests)."""
        try:
            transcript = Transcript.model_validate_json(await request.body())
        except ValueError as exc:
            return JSONResponse({"error": {"message": f"bad transcript: {exc}"}}, 400)
        with self._lock:
            self.transcript = transcript
            self._used = [False] * len(transcript.responses)
            self.requests = []
        return JSONResponse({"loaded": len(transcript.responses)})

    async def _openai(self, request: Request) -> Response:
        return await self._complete(request, "openai")

    async def _anthropic(self, request: Request) -> Response:
        return await self._complete(request, "anthropic")

    async def _responses(self, request: Request) -> Response:
        return await self._complete(request, "responses")

    async def _key(self, request: Request) -> Response:
        headers = {RECORDING_HEADER: self.transcript.label}
        if self.transcript.spend is None:
            return JSONResponse(_error("openai", "no spend recorded", "not_found"), 404, headers)
        return JSONResponse({"data": {"usage": self.transcript.spend}}, 200, headers)

    def app(self) -> Starlette:
        @asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            self._loop = asyncio.get_running_loop()
            self._closing = asyncio.Event()
            yield

        return Starlette(
            routes=[
                Route("/v1/chat/completions", self._openai, methods=["POST"]),
                Route("/v1/messages", self._anthropic, methods=["POST"]),
                Route("/v1/responses", self._responses, methods=["POST"]),
                Route("/v1/key", self._key, methods=["GET"]),
                Route(LOG_PATH, self._log, methods=["GET"]),
                Route(LOAD_PATH, self._load, methods=["POST"]),
            ],
            lifespan=lifespan,
        )

    async def start(self) -> None:
        """Serve on an ephemeral loopback port; wait (bounded) until it accepts."""
        sock = loopback_socket()
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app(), log_level="error", access_log=False, timeout_graceful_shutdown=2
        )
        self._thread = ServerThread("proctor-replay", [(config, sock)])
        if not await self._thread.start(START_TIMEOUT):
            raise AgentError(f"the replay provider did not start on 127.0.0.1:{self.port}")

    async def stop(self) -> None:
        """Stop serving; join the thread (bounded)."""
        if self._loop is not None and self._closing is not None:
            self._loop.call_soon_threadsafe(self._closing.set)
        if self._thread is not None:
            await self._thread.stop(START_TIMEOUT)
        self._thread = None

    async def __aenter__(self) -> ReplayProvider:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


def _error(wire: WireFormat, message: str, kind: str) -> dict[str, Any]:
    if wire == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "code": None}}


def openai_reply(
    tool: str | None = None,
    args: dict[str, Any] | str | None = None,
    *,
    text: str = "",
    usage: tuple[int, int, int, int] = (100, 20, 0, 0),
    model: str = "gpt-4.1-mini-2025-04-14",
    call_id: str = "call_1",
) -> dict[str, Any]:
    """A chat completion body: one tool call (``args`` a str is sent as is), or text.

    ``usage`` is (prompt, completion, cached, reasoning) tokens.
    """
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if tool is not None:
        arguments = args if isinstance(args, str) else json.dumps(args or {})
        message["tool_calls"] = [
            {"id": call_id, "type": "function", "function": {"name": tool, "arguments": arguments}}
        ]
    prompt, completion, cached, reasoning = usage
    return {
        "id": f"chatcmpl-{call_id}",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if tool else "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": cached},
            "completion_tokens_details": {"reasoning_tokens": reasoning},
        },
    }


def anthropic_reply(
    tool: str | None = None,
    args: dict[str, Any] | None = None,
    *,
    text: str = "",
    usage: tuple[int, int, int, int] = (100, 20, 0, 0),
    model: str = "claude-sonnet-4-20250514",
    call_id: str = "toolu_1",
) -> dict[str, Any]:
    """A messages body: optional text, then one tool_use block.

    ``usage`` is (input, output, cache read, cache creation) tokens.
    """
    content: list[dict[str, Any]] = []
    if text:
        content.append({"type": "text", "text": text})
    if tool is not None:
        content.append({"type": "tool_use", "id": call_id, "name": tool, "input": args or {}})
    fresh, output, read, write = usage
    return {
        "id": f"msg_{call_id}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if tool else "end_turn",
        "stop_sequence": None,
        "usage": {
            "input_tokens": fresh,
            "output_tokens": output,
            "cache_read_input_tokens": read,
            "cache_creation_input_tokens": write,
        },
    }


def computer_call(
    action: dict[str, Any] | None = None,
    *,
    actions: list[dict[str, Any]] | None = None,
    call_id: str = "call_1",
    safety: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A Responses ``computer_call`` output item: one ``action``, or batched ``actions``."""
    item: dict[str, Any] = {
        "type": "computer_call",
        "id": f"cu_{call_id}",
        "call_id": call_id,
        "pending_safety_checks": safety or [],
        "status": "completed",
    }
    if action is not None:
        item["action"] = action
    if actions is not None:
        item["actions"] = actions
    return item


def function_call(name: str, args: dict[str, Any], *, call_id: str = "call_1") -> dict[str, Any]:
    """A Responses ``function_call`` output item."""
    return {
        "type": "function_call",
        "id": f"fc_{call_id}",
        "call_id": call_id,
        "name": name,
        "arguments": json.dumps(args),
        "status": "completed",
    }


def responses_reply(
    *items: dict[str, Any],
    text: str = "",
    usage: tuple[int, int, int, int] = (100, 20, 0, 0),
    model: str = "computer-use-preview-2025-03-11",
    response_id: str = "resp_1",
) -> dict[str, Any]:
    """A Responses API body: optional text, then the output ``items``.

    ``usage`` is (input, output, cached, reasoning) tokens.
    """
    output: list[dict[str, Any]] = []
    if text:
        output.append({
            "type": "message", "id": f"msg_{response_id}", "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        })  # fmt: skip
    output.extend(items)
    given, made, cached, reasoning = usage
    return {
        "id": response_id,
        "object": "response",
        "created_at": 1_700_000_000,
        "status": "completed",
        "model": model,
        "output": output,
        "parallel_tool_calls": False,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": given,
            "input_tokens_details": {"cached_tokens": cached},
            "output_tokens": made,
            "output_tokens_details": {"reasoning_tokens": reasoning},
            "total_tokens": given + made,
        },
    }
