"""The Anthropic wire: messages with tool use, through the ``anthropic`` SDK."""

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
    Usage,
    UserText,
    last_image_index,
)
from proctor.agents.llm._wire import (
    RECORDING_HEADER,
    CallFailed,
    Request,
    parsed,
    status_failure,
)


def _image(png: bytes) -> dict[str, Any]:
    data = base64.b64encode(png).decode("ascii")
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}


def _input(call: ToolCall) -> Any:
    try:
        value = json.loads(call.arguments or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def messages(
    conversation: list[Message] | tuple[Message, ...], *, native: bool = False
) -> list[dict[str, Any]]:
    """The messages for ``conversation``; only the newest screenshot is sent.

    With the native computer tool (``native``) a screenshot after tool calls goes
    inside the last tool result, as the computer tool's result; otherwise it follows
    the results.
    """
    newest = last_image_index(conversation)
    out: list[dict[str, Any]] = []
    for i, msg in enumerate(conversation):
        image = getattr(msg, "image", None) if i == newest else None
        if isinstance(msg, UserText):
            if image is None:
                out.append({"role": "user", "content": msg.text})
            else:
                out.append(
                    {"role": "user", "content": [{"type": "text", "text": msg.text}, _image(image)]}
                )
        elif isinstance(msg, AssistantTurn):
            blocks: list[dict[str, Any]] = []
            if msg.text:
                blocks.append({"type": "text", "text": msg.text})
            blocks.extend(
                {"type": "tool_use", "id": c.id, "name": c.name, "input": _input(c)}
                for c in msg.calls
            )
            out.append({"role": "assistant", "content": blocks})
        else:
            results: list[dict[str, Any]] = [
                {"type": "tool_result", "tool_use_id": call_id, "content": text}
                for call_id, text in msg.results
            ]
            if image is not None and native and results:
                last = results[-1]
                last["content"] = [{"type": "text", "text": last["content"]}, _image(image)]
            elif image is not None:
                results.append(_image(image))
            results.extend({"type": "text", "text": text} for text in msg.said)
            out.append({"role": "user", "content": results})
    return out


def body(config: ModelConfig, request: Request) -> dict[str, Any]:
    """The request body, as the SDK sends it."""
    params: dict[str, Any] = {
        "model": config.model,
        "system": request.system,
        "messages": messages(list(request.messages), native=request.native is not None),
        "max_tokens": config.max_tokens,
    }
    if config.temperature is not None:
        # The SDK no longer takes it as an argument; older models still accept it.
        params["extra_body"] = {"temperature": config.temperature}
    tools = [t.anthropic() for t in request.tools]
    if request.native is not None:
        tools.insert(0, request.native.anthropic())
        if request.native.beta:
            params["betas"] = [request.native.beta]
    if tools:
        params["tools"] = tools
        params["tool_choice"] = {
            "type": "any" if config.forced(request.force_tool) else "auto",
            "disable_parallel_tool_use": True,
        }
    return params


def usage_of(raw: Any) -> Usage | None:
    if raw is None:
        return None
    read = getattr(raw, "cache_read_input_tokens", None) or 0
    write = getattr(raw, "cache_creation_input_tokens", None) or 0
    details = getattr(raw, "output_tokens_details", None)
    thinking = (getattr(details, "thinking_tokens", None) or 0) if details else 0
    return Usage(
        input=(raw.input_tokens or 0) + read + write,
        output=raw.output_tokens or 0,
        cached=read,
        cache_write=write,
        reasoning=thinking,
    )


class AnthropicWire:
    """Messages through ``anthropic.AsyncAnthropic``, SDK retries off (ours count)."""

    def __init__(self, config: ModelConfig) -> None:
        import anthropic

        self.config = config
        self._anthropic = anthropic
        self._client = anthropic.AsyncAnthropic(
            api_key=config.key() or "unused",
            base_url=config.base_url,
            max_retries=0,
            timeout=config.timeout,
        )

    async def complete(self, request: Request) -> Reply:
        anthropic = self._anthropic
        try:
            params = body(self.config, request)
            if "betas" in params:  # the native computer tool is a beta: its own endpoint
                raw = await self._client.beta.messages.with_raw_response.create(**params)
            else:
                raw = await self._client.messages.with_raw_response.create(**params)
            message = await parsed(raw)
        except anthropic.APITimeoutError as exc:
            raise CallFailed(f"timed out after {self.config.timeout:g}s", retryable=True) from exc
        except anthropic.APIConnectionError as exc:
            raise CallFailed(f"connection failed: {exc.__cause__ or exc}", retryable=True) from exc
        except anthropic.APIStatusError as exc:
            raise status_failure(
                exc.status_code, exc.response.headers, _detail(exc.body), self.config.key_env
            ) from exc
        except anthropic.APIError as exc:
            raise CallFailed(f"unreadable reply: {exc}", retryable=False) from exc
        texts: list[str] = []
        calls: list[ToolCall] = []
        for block in message.content:
            if block.type == "text":
                texts.append(block.text)
            elif block.type == "tool_use":
                calls.append(ToolCall(block.id, block.name, json.dumps(block.input)))
        return Reply(
            text="\n".join(texts),
            calls=tuple(calls),
            usage=usage_of(message.usage),
            model=message.model,
            recording=raw.headers.get(RECORDING_HEADER),
        )

    async def spend(self) -> float | None:
        """Anthropic reports no spend to an API key."""
        return None

    async def close(self) -> None:
        await self._client.close()


def _detail(body: object) -> str:
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            return str(error.get("message") or error.get("type") or "")
        return str(error)
    return str(body or "")
