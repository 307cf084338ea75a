"""The Agent protocol: what the runner asks of every agent kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from proctor.computer.actions import Action
from proctor.computer.observation import Observation
from proctor.records import Step
from proctor.vocab import RunStopReason


class Computer(Protocol):
    """The toolset an agent drives; every call is counted and recorded."""

    finished: bool

    async def act(self, action: Action) -> Step:
        """Run one action; a failed action comes back as a Step with an error."""
        ...

    async def observe(self) -> Observation:
        """The observed page with refs, the tabs and the last error."""
        ...

    async def marking(self, action: Action) -> str | None:
        """The site's sensitivity marking of the control an action targets, if any."""
        ...

    def trace(self, kind: str, **data: Any) -> None:
        """Add a raw event to the attempt's trace (events.jsonl)."""
        ...


@dataclass(frozen=True)
class Outcome:
    """How an agent's run ended.

    Attributes:
        stop_reason: How it ended: a word of ``proctor.vocab.RunStopReason``.
        answer: The final answer, when the task asks for one.
        planner_calls: Model calls made (0 for scripted agents).
        tokens: Token counts by kind (input, output, cached, reasoning).
        cost_usd: Dollars spent, None when unknown.
        detail: Why the run stopped, in a sentence.
        needs_review: The run stopped at a boundary for a person to decide.
    """

    stop_reason: RunStopReason
    answer: str | None = None
    detail: str | None = None
    needs_review: bool = False
    planner_calls: int = 0
    tokens: dict[str, int] = field(default_factory=dict)
    cost_usd: float | None = 0.0


class Agent(Protocol):
    """Anything that can try a task through the computer toolset."""

    @property
    def kind(self) -> str:
        """Short name recorded in attempt.json, e.g. scripted or decoy:wrong-topic."""
        ...

    async def run(self, brief: str, computer: Computer) -> Outcome:
        """Try the task; return how it ended. Limits surface as LimitReached."""
        ...
