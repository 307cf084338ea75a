"""The conversation in a provider-neutral form; each wire adapter translates it.

A conversation is a list of messages: the user's text (with an optional
screenshot), the assistant's reply (text and tool calls), and the results of
those tool calls (with an optional screenshot of the page after them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolCall:
    """One tool call of an assistant message; ``arguments`` is the raw JSON text."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class UserText:
    """A user turn: text, and a PNG screenshot for vision models."""

    text: str
    image: bytes | None = None


@dataclass(frozen=True)
class AssistantTurn:
    """What the model said: text and tool calls, replayed verbatim in later requests."""

    text: str
    calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True)
class ToolResults:
    """The answers to every tool call of the previous assistant turn, by call id.

    ``image`` is a screenshot of the page after them (vision only). ``said`` is what
    the user said meanwhile: each wire sends it as the user's own turn after the
    results, never inside a tool's output.
    """

    results: tuple[tuple[str, str], ...]
    image: bytes | None = None
    said: tuple[str, ...] = ()


Message = UserText | AssistantTurn | ToolResults


@dataclass(frozen=True)
class Usage:
    """Token counts of one reply, normalised across providers.

    ``input`` counts every prompt token, cached or not; ``cached`` and
    ``cache_write`` are the parts read from or written to the prompt cache;
    ``reasoning`` is the part of ``output`` spent thinking.
    """

    input: int = 0
    output: int = 0
    cached: int = 0
    reasoning: int = 0
    cache_write: int = 0

    def as_dict(self) -> dict[str, int]:
        """The record's form: ``total`` keeps the report from adding the subsets twice."""
        tokens = {
            "input": self.input,
            "output": self.output,
            "cached": self.cached,
            "reasoning": self.reasoning,
            "total": self.input + self.output,
        }
        if self.cache_write:
            tokens["cache_write"] = self.cache_write
        return tokens


@dataclass(frozen=True)
class Reply:
    """One assistant message as the provider returned it."""

    text: str
    calls: tuple[ToolCall, ...]
    usage: Usage | None
    """None when the provider reported no usage: tokens and $ are then unknown, never 0."""
    model: str | None = None
    recording: str | None = None
    """The replay provider's label when the reply is a recording, not a model's."""
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    def turn(self) -> AssistantTurn:
        return AssistantTurn(self.text, self.calls)


def last_image_index(messages: list[Message] | tuple[Message, ...]) -> int | None:
    """Index of the newest message that carries a screenshot: older ones are not resent."""
    for i in range(len(messages) - 1, -1, -1):
        msg = messages[i]
        if isinstance(msg, UserText | ToolResults) and msg.image is not None:
            return i
    return None
