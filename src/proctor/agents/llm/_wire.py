"""What every wire adapter offers, and the failures it reports."""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from proctor.agents.llm._messages import Message, Reply
from proctor.agents.llm._native import NativeTool
from proctor.agents.llm._tools import ToolSpec

RECORDING_HEADER = "x-proctor-recording"
"""Set by the replay provider on every response: the reply is a recording, not a model's."""

RETRY_STATUSES = frozenset({408, 409, 429})


@dataclass(frozen=True)
class Request:
    """One model call: the system rules, the conversation and the tools.

    ``native`` is the provider's own computer tool (``+computer``), offered beside
    ``tools``; tool results then carry the screenshot inside them.
    """

    system: str
    messages: Sequence[Message]
    tools: Sequence[ToolSpec]
    force_tool: bool = True
    native: NativeTool | None = None


class CallFailed(Exception):
    """A call that returned no assistant message (internal to the adapters and the retry loop).

    Attributes:
        message: What failed, never holding the key.
        retryable: A 429, 5xx, timeout or dropped connection: worth another try.
        retry_after: Seconds the provider asked to wait, if it said.
    """

    def __init__(self, message: str, *, retryable: bool, retry_after: float | None = None):
        super().__init__(message)
        self.message = message
        self.retryable = retryable
        self.retry_after = retry_after


class Wire(Protocol):
    """An adapter for one wire format."""

    async def complete(self, request: Request) -> Reply:
        """One assistant message, or CallFailed."""
        ...

    async def spend(self) -> float | None:
        """The account's spend as the provider reports it; None when it reports none."""
        ...

    async def close(self) -> None: ...


async def parsed(raw: Any) -> Any:
    """The parsed body of an SDK raw response (``parse`` is a coroutine in some SDK versions)."""
    value = raw.parse()
    return await value if inspect.isawaitable(value) else value


def retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds from ``retry-after-ms`` or ``retry-after`` (seconds only), if given."""
    try:
        if "retry-after-ms" in headers:
            return float(headers["retry-after-ms"]) / 1000
        if "retry-after" in headers:
            return float(headers["retry-after"])
    except ValueError:
        return None
    return None


def status_failure(
    status: int, headers: Mapping[str, str], detail: str, key_env: str | None
) -> CallFailed:
    """The CallFailed for an HTTP error status; an auth failure never echoes the provider's text."""
    if status in (401, 403):
        where = f"check {key_env}" if key_env else "the server wants a key: give +key=ENV"
        return CallFailed(f"authentication failed (HTTP {status}): {where}", retryable=False)
    retryable = status in RETRY_STATUSES or status >= 500
    text = " ".join(detail.split())[:300]
    return CallFailed(
        f"HTTP {status}: {text}" if text else f"HTTP {status}",
        retryable=retryable,
        retry_after=retry_after(headers) if retryable else None,
    )
