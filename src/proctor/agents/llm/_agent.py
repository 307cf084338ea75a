"""The model agent: the reference loop around the model policy, with its accounting."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from proctor.agents._protocol import Account, Computer, Outcome
from proctor.agents.llm._admission import Admissions
from proctor.agents.llm._call import Ledger
from proctor.agents.llm._config import ModelConfig
from proctor.agents.llm._native import Screenshots
from proctor.agents.llm._policy import LLMPolicy
from proctor.agents.llm._prices import PriceTable, load_prices
from proctor.agents.llm._render import Prompts
from proctor.agents.llm._wire import Wire
from proctor.agents.loop import ReferenceLoop
from proctor.computer.actions import Action
from proctor.computer.attempt import AttemptInfo, CallCounter
from proctor.computer.observation import Observation
from proctor.errors import PlannerError
from proctor.records import Step
from proctor.vocab import Surface

CLOSE_TIMEOUT = 5.0


def make_wire(config: ModelConfig) -> Wire:
    """The SDK adapter for the config's wire format (the SDK is imported here, not before)."""
    if config.wire == "anthropic":
        from proctor.agents.llm._anthropic import AnthropicWire

        return AnthropicWire(config)
    if config.computer is not None:  # OpenAI's computer tool lives in the Responses API
        from proctor.agents.llm._responses import ResponsesWire

        return ResponsesWire(config)
    from proctor.agents.llm._openai import OpenAIWire

    return OpenAIWire(config)


@dataclass
class LLMAgent:
    """A model deciding every action through the reference loop (guards and boundaries on)."""

    config: ModelConfig
    prices: PriceTable
    prompts: Prompts = field(default_factory=Prompts)
    offered: frozenset[str] | None = None
    """The action tools the scenario's world needs (``offered_tools``); None offers every
    tool of the computer's surface."""
    _ledger: Ledger | None = None
    _policy: LLMPolicy | None = None

    @property
    def kind(self) -> str:
        return f"llm:{self.config.provider}"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        watched = _Watched(computer)
        wire = make_wire(self.config)
        self._ledger = Ledger(
            self.config.model, self.prices, admissions=Admissions.of(computer.attempt)
        )
        self._policy = policy = LLMPolicy(
            config=self.config,
            wire=wire,
            prompts=self.prompts,
            ledger=self._ledger,
            brief=brief,
            trace=computer.trace,
            screenshot=computer.screenshot_bytes if self.config.vision else None,
            last_step=lambda: watched.last,
            offer_user=computer.has_user,
            offer_timeline=computer.has_timeline,
            surface=computer.surface,
            screen=computer if isinstance(computer, Screenshots) else None,
            offered=self.offered,
        )
        computer.trace(
            "model",
            provider=self.config.provider,
            model=self.config.model,
            base_url=self.config.base_url,
            mode=self.config.mode,
            prompts=self.prompts.label,
            vision=self.config.vision,
            computer=self.config.computer,
            tools=[t.name for t in policy.tools],
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
            invalid_calls=ledger.invalid_calls,
            infra_seconds=round(ledger.waits.infra_ms / 1000, 4),
            provider_failing=ledger.waits.failing,
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

    @property
    def surface(self) -> Surface:
        return self.inner.surface

    @property
    def attempt(self) -> AttemptInfo:
        return self.inner.attempt

    @property
    def has_user(self) -> bool:
        return self.inner.has_user

    @property
    def has_timeline(self) -> bool:
        return self.inner.has_timeline

    @property
    def calls(self) -> CallCounter:
        return self.inner.calls

    async def screenshot_bytes(self) -> bytes | None:
        return await self.inner.screenshot_bytes()

    def user_messages(self) -> list[str]:
        return self.inner.user_messages()

    async def act(self, action: Action) -> Step:
        self.last = await self.inner.act(action)
        return self.last

    async def observe(self, *, auto: bool = False) -> Observation:
        return await self.inner.observe(auto=auto)

    async def marking(self, action: Action) -> str | None:
        return await self.inner.marking(action)

    def trace(self, kind: str, **data: Any) -> None:
        self.inner.trace(kind, **data)


def agent_for(config: ModelConfig, offered: frozenset[str] | None = None) -> LLMAgent:
    """A fresh agent for one attempt, offered the tools ``offered`` names (all when None)."""
    return LLMAgent(config, load_prices(config.prices), Prompts(config.prompts), offered)
