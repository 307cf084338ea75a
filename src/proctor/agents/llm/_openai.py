"""The OpenAI-compatible wire: chat completions with tool calling, through the ``openai`` SDK.

It covers OpenAI itself and any server speaking the same API (OpenRouter,
vLLM, Ollama, LM Studio, llama.cpp) through ``base_url``.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable
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
    url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return {"type": "image_url", "image_url": {"url": url}}


def messages(
    system: str, conversation: list[Message] | tuple[Message, ...]
) -> list[dict[str, Any]]:
    """The chat messages for ``conversation``; only the newest screenshot is sent."""
    newest = last_image_index(conversation)
    out: list[dict[str, Any]] = [{"role": "system", "content": system}]
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
            turn: dict[str, Any] = {"role": "assistant", "content": msg.text or None}
            if msg.calls:
                turn["tool_calls"] = [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": c.arguments},
                    }
                    for c in msg.calls
                ]
            out.append(turn)
        else:
            for call_id, text in msg.results:
                out.append({"role": "tool", "tool_call_id": call_id, "content": text})
            if image is not None:
                # Tool messages carry text only: the screenshot follows as a user message.
                out.append(
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "Screenshot of the page now:"},
                            _image(image),
                        ],
                    }
                )
            out.extend({"role": "user", "content": text} for text in msg.said)
    return out


def body(config: ModelConfig, request: Request) -> dict[str, Any]:
    """The request body, as the SDK sends it."""
    params: dict[str, Any] = {
        "model": config.model,
        "messages": messages(request.system, list(request.messages)),
    }
    if request.tools:
        params["tools"] = [t.openai() for t in request.tools]
        params["tool_choice"] = "required" if config.forced(request.force_tool) else "auto"
        if config.provider == "openai":
            # Not every compatible server knows parallel_tool_calls; the policy runs
            # parallel calls in order when a server sends them anyway.
            params["parallel_tool_calls"] = False
    if config.temperature is not None:
        params["temperature"] = config.temperature
    if config.provider == "openai":
        params["max_completion_tokens"] = config.max_tokens
    else:
        params["max_tokens"] = config.max_tokens
    return params


def usage_of(raw: Any) -> Usage | None:
    if raw is None:
        return None
    prompt = getattr(raw, "prompt_tokens_details", None)
    completion = getattr(raw, "completion_tokens_details", None)
    return Usage(
        input=raw.prompt_tokens or 0,
        output=raw.completion_tokens or 0,
        cached=(getattr(prompt, "cached_tokens", None) or 0) if prompt else 0,
        reasoning=(getattr(completion, "reasoning_tokens", None) or 0) if completion else 0,
    )


def sdk_client(config: ModelConfig) -> Any:
    """``openai.AsyncOpenAI`` for ``config``, SDK retries off (ours count); both OpenAI wires
    (chat completions, Responses) use it."""
    import openai

    return openai.AsyncOpenAI(
        api_key=config.key() or "unused",
        base_url=config.base_url,
        max_retries=0,
        timeout=config.timeout,
    )


async def sdk_call(config: ModelConfig, request: Awaitable[Any]) -> tuple[Any, Any]:
    """The raw response and its parsed body, the SDK's errors as ``CallFailed``."""
    import openai

    try:
        raw = await request
        return raw, await parsed(raw)
    except openai.APITimeoutError as exc:
        raise CallFailed(f"timed out after {config.timeout:g}s", retryable=True) from exc
    except openai.APIConnectionError as exc:
        raise CallFailed(f"connection failed: {exc.__cause__ or exc}", retryable=True) from exc
    except openai.APIStatusError as exc:
        raise status_failure(
            exc.status_code, exc.response.headers, error_detail(exc.body), config.key_env
        ) from exc
    except openai.APIError as exc:
        raise CallFailed(f"unreadable reply: {exc}", retryable=False) from exc


class OpenAIWire:
    """Chat completions through ``openai.AsyncOpenAI``, SDK retries off (ours count)."""

    def __init__(self, config: ModelConfig) -> None:
        import openai

        self.config = config
        self._openai = openai
        self._client = sdk_client(config)

    async def complete(self, request: Request) -> Reply:
        raw, completion = await sdk_call(
            self.config,
            self._client.chat.completions.with_raw_response.create(**body(self.config, request)),
        )
        if not completion.choices:
            raise CallFailed("the reply holds no choice", retryable=True)
        message = completion.choices[0].message
        calls = tuple(
            ToolCall(c.id, c.function.name, c.function.arguments or "")
            for c in (message.tool_calls or [])
            if getattr(c, "function", None) is not None
        )
        return Reply(
            text=message.content or "",
            calls=calls,
            usage=usage_of(completion.usage),
            model=completion.model,
            recording=raw.headers.get(RECORDING_HEADER),
        )

    async def spend(self) -> float | None:
        """The account's reported spend (OpenRouter's ``GET /key``), or None."""
        try:
            response = await self._client.get("/key", cast_to=object)
        except self._openai.APIError:
            return None
        return _usage_from(response)

    async def close(self) -> None:
        await self._client.close()


def _usage_from(response: Any) -> float | None:
    data = response.get("data") if isinstance(response, dict) else None
    value = data.get("usage") if isinstance(data, dict) else None
    return float(value) if isinstance(value, int | float) else None


def error_detail(body: object) -> str:
    """The message of an error body, as the OpenAI API and compatible servers shape it."""
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            return str(error.get("message") or error.get("code") or error.get("type") or "")
        return str(error)
    return str(body or "")
