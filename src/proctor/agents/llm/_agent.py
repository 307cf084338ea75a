"""The model agent: the reference loop around the model policy, with its accounting."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proctor.agents._protocol import Computer, Outcome
from proctor.agents.llm._call import Ledger
from proctor.agents.llm._config import ModelConfig
from proctor.agents.llm._policy import LLMPolicy, PlannerError
from proctor.agents.llm._prices import PriceTable, load_prices
from proctor.agents.llm._render import Prompts
from proctor.agents.llm._wire import Wire
from proctor.agents.loop import ReferenceLoop
from proctor.computer.actions import Action
from proctor.computer.observation import Observation
from proctor.records import PlannerCall, Step

CLOSE_TIMEOUT = 5.0


def make_wire(config: ModelConfig) -> Wire:
    """The SDK adapter for the config's wire format (the SDK is imported here, not before)."""
    if config.wire == "anthropic":
        from proctor.agents.llm._anthropic import AnthropicWire

        return AnthropicWire(config)
    from proctor.agents.llm._openai import OpenAIWire

    return OpenAIWire(config)


@dataclass(frozen=True)
class Account:
    """What a model agent spent, for attempt.json.

    Attributes:
        planner_calls: Assistant messages received.
        tokens: Summed token counts by kind.
        cost_usd: Summed dollars; None when any call's price is unknown.
        calls: Every call's facts, decision latency included.
        model: The model id; ``recording:<id>`` when a replay provider answered.
        mode: planning, or None.
        plan: The plan, in planning mode.
    """

    planner_calls: int
    tokens: dict[str, int]
    cost_usd: float | None
    calls: list[PlannerCall]
    model: str
    mode: str | None
    plan: list[str] | None


@dataclass
class LLMAgent:
    """A model deciding every action through the reference loop (guards and boundaries on)."""

    config: ModelConfig
    prices: PriceTable
    prompts: Prompts = field(default_factory=Prompts)
    _ledger: Ledger | None = None
    _policy: LLMPolicy | None = None

    @property
    def kind(self) -> str:
        return f"llm:{self.config.provider}"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        watched = _Watched(computer)
        wire = make_wire(self.config)
        self._ledger = Ledger(self.config.model, self.prices)
        self._policy = policy = LLMPolicy(
            config=self.config,
            wire=wire,
            prompts=self.prompts,
            ledger=self._ledger,
            brief=brief,
            trace=computer.trace,
            screenshot=_screenshotter(computer) if self.config.vision else None,
            last_step=lambda: watched.last,
            offer_user=getattr(computer, "user", None) is not None,
        )
        computer.trace(
            "model",
            provider=self.config.provider,
            model=self.config.model,
            base_url=self.config.base_url,
            mode=self.config.mode,
            prompts=self.prompts.label,
            vision=self.config.vision,
        )
        loop = ReferenceLoop(policy, label=self.kind)
        try:
            outcome = await loop.run(brief, watched)
        except PlannerError as exc:
            computer.trace("stop", reason="planner_error", detail=str(exc), needs_review=False)
            outcome = Outcome(stop_reason="planner_error", detail=str(exc))
        finally:
            policy.closing.set()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(wire.close(), CLOSE_TIMEOUT)
        account = self.account()
        return dataclasses.replace(
            outcome,
            planner_calls=account.planner_calls,
            tokens=account.tokens,
            cost_usd=account.cost_usd,
        )

    def account(self) -> Account:
        """What was spent so far; the runner reads it even when a limit ended the run."""
        ledger = self._ledger or Ledger(self.config.model, self.prices)
        model = f"recording:{self.config.model}" if ledger.recording else self.config.model
        return Account(
            planner_calls=len(ledger.calls),
            tokens=ledger.tokens,
            cost_usd=ledger.cost_usd,
            calls=list(ledger.calls),
            model=model,
            mode=self.config.mode,
            plan=self._policy.plan if self._policy else None,
        )


class _Watched:
    """The computer, keeping the last Step so the model is told what its action did."""

    def __init__(self, inner: Computer) -> None:
        self.inner = inner
        self.last: Step | None = None

    @property
    def finished(self) -> bool:
        return self.inner.finished

    @finished.setter
    def finished(self, value: bool) -> None:
        self.inner.finished = value

    async def act(self, action: Action) -> Step:
        self.last = await self.inner.act(action)
        return self.last

    async def observe(self) -> Observation:
        return await self.inner.observe()

    async def marking(self, action: Action) -> str | None:
        return await self.inner.marking(action)

    def trace(self, kind: str, **data: Any) -> None:
        self.inner.trace(kind, **data)


def _screenshotter(computer: Any) -> Any:
    shoot = getattr(computer, "screenshot", None)
    if shoot is None:
        return None

    async def take() -> bytes | None:
        fd, name = tempfile.mkstemp(prefix="proctor-vision-", suffix=".png")
        os.close(fd)
        path = Path(name)
        try:
            return path.read_bytes() if await shoot(path) else None
        finally:
            path.unlink(missing_ok=True)

    return take


def agent_for(config: ModelConfig) -> LLMAgent:
    """A fresh agent for one attempt."""
    return LLMAgent(config, load_prices(config.prices), Prompts(config.prompts))
