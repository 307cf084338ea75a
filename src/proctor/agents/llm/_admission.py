"""A model call's spend, admitted in the run's spend ledger before the call is sent.

The runner names the ledger in ``AttemptInfo.spend``; a model agent then writes,
for every call, an admission (``estimate``: what the call may cost) before the
request leaves, and a settlement (the priced reply) after it. A kill -9 between
the two leaves the admission on disk, and the budget of the resumed run counts
it (``runner/_budget.py``). The estimate is generous on purpose, since it stands
for a call whose reply nobody saw: the request's characters over
``CHARS_PER_TOKEN``, ``IMAGE_TOKENS`` for the screenshot it carries, and the
whole ``max_tokens`` of output, at the model's prices (0 for a model the price
table does not list, whose spend is unknown anyway).
"""

from __future__ import annotations

import asyncio
import json
import math
import uuid
from dataclasses import dataclass
from pathlib import Path

from proctor.agents.llm._config import ModelConfig
from proctor.agents.llm._messages import AssistantTurn, ToolResults, Usage, UserText
from proctor.agents.llm._prices import PriceTable
from proctor.agents.llm._wire import Request
from proctor.computer.attempt import AttemptInfo
from proctor.records import SpendLine, append_spend

CHARS_PER_TOKEN = 3
"""Fewer characters a token than English prose has (about 4): JSON schemas and page
outlines tokenize densely, and an estimate that stands for a lost call should not be low."""
IMAGE_TOKENS = 1600
"""A screenshot as input tokens: 1280x800 is about 1,370 at Anthropic's rule (pixels / 750)
and 1,105 at OpenAI's high detail; only the newest one is sent."""


def request_tokens(request: Request) -> int:
    """The input tokens ``request`` is estimated to take."""
    chars = len(request.system)
    for tool in request.tools:
        chars += len(tool.name) + len(tool.description) + len(json.dumps(tool.parameters))
    image = request.native is not None
    for message in request.messages:
        if isinstance(message, UserText):
            chars += len(message.text)
            image = image or message.image is not None
        elif isinstance(message, AssistantTurn):
            chars += len(message.text) + sum(len(c.name) + len(c.arguments) for c in message.calls)
        elif isinstance(message, ToolResults):
            chars += sum(len(i) + len(text) for i, text in message.results)
            chars += sum(len(s) for s in message.said)
            image = image or message.image is not None
    return math.ceil(chars / CHARS_PER_TOKEN) + (IMAGE_TOKENS if image else 0)


def estimate(request: Request, config: ModelConfig, prices: PriceTable) -> float:
    """Dollars ``request`` may cost: its estimated input and ``max_tokens`` of output."""
    usage = Usage(input=request_tokens(request), output=config.max_tokens)
    return prices.cost(config.model, usage) or 0.0


@dataclass(frozen=True)
class Admissions:
    """One try's writer of the spend ledger.

    Attributes:
        ledger: The run's spend.jsonl.
        tag: The try's tag (``<scenario>/<arm>-<n>#<try>``), on every line.
    """

    ledger: Path
    tag: str

    @classmethod
    def of(cls, info: AttemptInfo) -> Admissions | None:
        """The try's admissions, or None outside a run (no ledger named)."""
        return cls(info.spend, info.attempt) if info.spend is not None else None

    async def admit(self, usd: float) -> str:
        """Write a call's estimate, fsynced; returns the call's id for ``settle``.

        Raises:
            StorageError: the ledger cannot be written: the call is not made.
        """
        call = uuid.uuid4().hex
        await self._append(SpendLine(kind="admit", attempt=self.tag, call=call, usd=usd))
        return call

    async def settle(self, call: str, usd: float) -> None:
        """Write what the call ``call`` cost."""
        await self._append(SpendLine(kind="settle", attempt=self.tag, call=call, usd=usd))

    async def _append(self, line: SpendLine) -> None:
        # Off the event loop (an fsync); a cancelled agent's line is still written whole.
        await asyncio.to_thread(append_spend, self.ledger, line)
