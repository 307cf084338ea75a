"""OpenAI's Responses API, for its native computer tool (``openai:MODEL+computer``).

OpenAI offers its computer tool only through the Responses API. A reply's output
items are read as the chat wire's are: ``message`` text, ``function_call`` (proctor's
function tools: navigate, back, done, the user's), and ``computer_call``, whose
action, or each of its batched ``actions`` in order, becomes one ``computer`` tool
call (ids after the first are ``CALL_ID#k``).

Turns are chained as OpenAI's own computer-use loop chains them: each request
after the first sends only what is new since the last reply, with
``previous_response_id`` (the server keeps the conversation, its reasoning items
and its screenshots; this needs the provider's default ``store``). A request that
does not continue the last reply (the first, or a planning conversation) sends
the whole conversation. Every ``computer_call_output`` is a screenshot, as the API
requires; what proctor has to say about the calls (an action's result, an error)
follows them as a user message. Pending safety checks are acknowledged (proctor's
own guards and boundaries decide what stops) and come back in ``Reply.raw``.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from proctor.agents.llm._config import ModelConfig
from proctor.agents.llm._messages import (
    AssistantTurn,
    Message,
    Reply,
    ToolCall,
    ToolResults,
    Usage,
    UserText,
)
from proctor.agents.llm._native import COMPUTER
from proctor.agents.llm._openai import error_detail, sdk_call, sdk_client
from proctor.agents.llm._wire import (
    RECORDING_HEADER,
    CallFailed,
    Request,
)


def _data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def base_id(call_id: str) -> str:
    """The ``computer_call`` a split batched action belongs to."""
    return call_id.split("#", 1)[0]


class Items:
    """Renders the neutral conversation as Responses input items; remembers output items."""

    def __init__(self) -> None:
        self.raw: dict[str, dict[str, Any]] = {}
        """The output item of each call id, re-sent verbatim when a conversation is sent whole."""
        self.safety: dict[str, list[dict[str, Any]]] = {}

    def keep(self, item: dict[str, Any]) -> None:
        call_id = item.get("call_id")
        if isinstance(call_id, str):
            self.raw[call_id] = item
            checks = item.get("pending_safety_checks") or []
            if checks:
                self.safety[call_id] = [dict(c) for c in checks]

    def user(self, msg: UserText) -> list[dict[str, Any]]:
        content: list[dict[str, Any]] = [{"type": "input_text", "text": msg.text}]
        if msg.image is not None:
            content.append({"type": "input_image", "image_url": _data_url(msg.image)})
        return [{"role": "user", "content": content}]

    def assistant(self, msg: AssistantTurn) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if msg.text:
            out.append({"role": "assistant", "content": msg.text})
        sent: set[str] = set()
        for call in msg.calls:
            key = base_id(call.id)
            if key in sent:
                continue
            sent.add(key)
            if key in self.raw:
                out.append(self.raw[key])
            elif call.name == COMPUTER:
                out.append({"type": "computer_call", "id": f"cu_{key}", "call_id": key,
                            "action": json.loads(call.arguments or "{}"),
                            "pending_safety_checks": [], "status": "completed"})  # fmt: skip
            else:
                out.append({"type": "function_call", "call_id": call.id, "name": call.name,
                            "arguments": call.arguments})  # fmt: skip
        return out

    def results(self, msg: ToolResults, calls: dict[str, ToolCall]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        notes: list[str] = []
        done: set[str] = set()
        for call_id, text in msg.results:
            call = calls.get(call_id)
            if call is not None and call.name == COMPUTER:
                key = base_id(call_id)
                notes.append(f"{call_id}: {text}")
                if key in done:
                    continue
                done.add(key)
                item: dict[str, Any] = {"type": "computer_call_output", "call_id": key}
                if msg.image is not None:
                    shot = _data_url(msg.image)
                    item["output"] = {"type": "computer_screenshot", "image_url": shot}
                if key in self.safety:
                    item["acknowledged_safety_checks"] = self.safety[key]
                out.append(item)
            else:
                out.append({"type": "function_call_output", "call_id": call_id, "output": text})
        if notes:
            out.append(
                {"role": "user", "content": [{"type": "input_text", "text": "\n".join(notes)}]}
            )
        elif msg.image is not None:
            out.append(
                {
                    "role": "user",
                    "content": [
                        {"type": "input_text", "text": "Screenshot of the page now:"},
                        {"type": "input_image", "image_url": _data_url(msg.image)},
                    ],
                }
            )
        out.extend(
            {"role": "user", "content": [{"type": "input_text", "text": text}]} for text in msg.said
        )
        return out

    def render(self, conversation: list[Message]) -> list[dict[str, Any]]:
        calls: dict[str, ToolCall] = {}
        out: list[dict[str, Any]] = []
        for msg in conversation:
            if isinstance(msg, UserText):
                out += self.user(msg)
            elif isinstance(msg, AssistantTurn):
                calls.update({c.id: c for c in msg.calls})
                out += self.assistant(msg)
            else:
                out += self.results(msg, calls)
        return out


def body(
    config: ModelConfig,
    request: Request,
    items: list[dict[str, Any]],
    previous: str | None,
) -> dict[str, Any]:
    """The request body, as the SDK sends it."""
    tools: list[dict[str, Any]] = [
        {"type": "function", "name": t.name, "description": t.description,
         "parameters": t.parameters}
        for t in request.tools
    ]  # fmt: skip
    if request.native is not None:
        tools.insert(0, request.native.openai())
    params: dict[str, Any] = {
        "model": config.model,
        "instructions": request.system,
        "input": items,
        "truncation": "auto",
        "max_output_tokens": config.max_tokens,
    }
    if previous is not None:
        params["previous_response_id"] = previous
    if tools:
        params["tools"] = tools
        params["tool_choice"] = "required" if config.forced(request.force_tool) else "auto"
        if config.provider == "openai":
            params["parallel_tool_calls"] = False
    if config.temperature is not None:
        params["temperature"] = config.temperature
    return params


def usage_of(raw: Any) -> Usage | None:
    if raw is None:
        return None
    given = getattr(raw, "input_tokens_details", None)
    made = getattr(raw, "output_tokens_details", None)
    return Usage(
        input=getattr(raw, "input_tokens", 0) or 0,
        output=getattr(raw, "output_tokens", 0) or 0,
        cached=(getattr(given, "cached_tokens", None) or 0) if given else 0,
        reasoning=(getattr(made, "reasoning_tokens", None) or 0) if made else 0,
    )


def _dump(item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        return item
    dumped: dict[str, Any] = item.model_dump(exclude_none=True)
    return dumped


def read_output(output: list[Any], items: Items) -> tuple[str, tuple[ToolCall, ...], list[Any]]:
    """The text, the calls and the pending safety checks of a response's output items."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    checks: list[Any] = []
    for entry in output:
        item = _dump(entry)
        kind = item.get("type")
        if kind == "message":
            for part in item.get("content") or []:
                if part.get("type") == "output_text" and part.get("text"):
                    texts.append(part["text"])
        elif kind == "function_call":
            items.keep(item)
            calls.append(ToolCall(item["call_id"], item["name"], item.get("arguments") or ""))
        elif kind == "computer_call":
            items.keep(item)
            checks += item.get("pending_safety_checks") or []
            actions = item.get("actions") or ([item["action"]] if item.get("action") else [])
            if not actions:
                actions = [{}]  # no action: the policy answers it with an error
            for k, action in enumerate(actions):
                call_id = item["call_id"] if k == 0 else f"{item['call_id']}#{k}"
                calls.append(ToolCall(call_id, COMPUTER, json.dumps(action)))
    return "\n".join(texts), tuple(calls), checks


class ResponsesWire:
    """The Responses API through ``openai.AsyncOpenAI``, SDK retries off (ours count)."""

    def __init__(self, config: ModelConfig) -> None:
        self.config = config
        self._client = sdk_client(config)
        self._items = Items()
        self._last: tuple[str, tuple[Message, ...], AssistantTurn] | None = None
        """The last reply: its response id, the conversation it answered, its turn."""

    def _input(self, request: Request) -> tuple[list[dict[str, Any]], str | None]:
        conversation = list(request.messages)
        if self._last is not None:
            response_id, answered, turn = self._last
            n = len(answered)
            if tuple(conversation[:n]) == answered:
                rest = conversation[n:]
                if rest and rest[0] == turn:
                    rest = rest[1:]
                calls = {c.id: c for c in turn.calls}
                out: list[dict[str, Any]] = []
                for msg in rest:
                    if isinstance(msg, ToolResults):
                        out += self._items.results(msg, calls)
                    elif isinstance(msg, UserText):
                        out += self._items.user(msg)
                    else:
                        break  # an assistant turn the server never saw: send it all
                else:
                    return out, response_id
        return self._items.render(conversation), None

    async def complete(self, request: Request) -> Reply:
        items, previous = self._input(request)
        raw, response = await sdk_call(
            self.config,
            self._client.responses.with_raw_response.create(
                **body(self.config, request, items, previous)
            ),
        )
        error = getattr(response, "error", None)
        if error:
            raise CallFailed(f"the response failed: {error_detail(_dump(error))}", retryable=True)
        text, calls, checks = read_output(list(response.output or []), self._items)
        turn = AssistantTurn(text, calls)
        self._last = (response.id, tuple(request.messages), turn)
        return Reply(
            text=text,
            calls=calls,
            usage=usage_of(response.usage),
            model=response.model,
            recording=raw.headers.get(RECORDING_HEADER),
            raw={"safety_checks": [_dump(c) for c in checks]} if checks else {},
        )

    async def spend(self) -> float | None:
        """OpenAI reports no spend to an API key."""
        return None

    async def close(self) -> None:
        await self._client.close()
