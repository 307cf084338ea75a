"""The agent contract: what the runner asks of every agent, and what an agent may use.

An agent gets the brief and a ``Computer``; everything it may use of the attempt
is declared on that protocol (the toolset, the attempt's id and scratch folder,
whether a user is present, screenshots, the call counter and the trace). An
agent that spends money on a model also implements ``Accounting``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from proctor.computer.actions import Action
from proctor.computer.attempt import AttemptInfo, CallCounter
from proctor.computer.observation import Observation
from proctor.records import PlannerCall, Step
from proctor.vocab import RunStopReason, Surface


class Computer(Protocol):
    """The toolset an agent drives, and the attempt it drives it in.

    Every ``act`` and ``observe`` is counted and recorded; nothing else an agent
    does to the world is.
    """

    finished: bool

    @property
    def surface(self) -> Surface:
        """What the agent drives: ``browser``, or ``desktop`` (the tools offered follow it)."""
        ...

    @property
    def attempt(self) -> AttemptInfo:
        """The attempt: its id, its scratch folder and the folders no agent may read."""
        ...

    @property
    def has_user(self) -> bool:
        """Whether a user answers ask_user and request_approval in this attempt."""
        ...

    @property
    def has_timeline(self) -> bool:
        """Whether the scenario has a timeline: messages arrive while the agent works, done
        may be answered by a new message, and ``schedule`` is offered."""
        ...

    @property
    def calls(self) -> CallCounter:
        """The attempt's call counter: a call made outside ``act``/``observe`` counts here."""
        ...

    async def act(self, action: Action) -> Step:
        """Run one action; a failed action comes back as a Step with an error."""
        ...

    async def observe(self, *, auto: bool = False) -> Observation:
        """The observed page with refs, the tabs and the last error.

        ``auto``: the loop observes for the agent (counted as an observation, not
        a tool call); an agent's own request leaves it False.
        """
        ...

    def user_messages(self) -> list[str]:
        """The message channel: what the user said since the agent last heard (each message
        once, marked ``message from the user:``). ``observe`` puts them in its notes; an
        agent that does not observe reads them here."""
        ...

    async def marking(self, action: Action) -> str | None:
        """The site's sensitivity marking of the control an action targets, if any."""
        ...

    async def screenshot_bytes(self) -> bytes | None:
        """A PNG of the observed page (uncounted); None when it cannot be captured."""
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
        exit_code: A ``command:`` agent's exit code (negative: the signal that ended it).
        stderr_tail: The last ``STDERR_TAIL`` bytes of a ``command:`` agent's stderr.
    """

    stop_reason: RunStopReason
    answer: str | None = None
    detail: str | None = None
    needs_review: bool = False
    planner_calls: int = 0
    tokens: dict[str, int] = field(default_factory=dict)
    cost_usd: float | None = 0.0
    exit_code: int | None = None
    stderr_tail: str | None = None


class Agent(Protocol):
    """Anything that can try a task through the computer toolset."""

    @property
    def kind(self) -> str:
        """Short name recorded in attempt.json, e.g. scripted or decoy:wrong-topic."""
        ...

    async def run(self, brief: str, computer: Computer) -> Outcome:
        """Try the task; return how it ended. Limits surface as LimitReached."""
        ...


@runtime_checkable
class Restartable(Protocol):
    """An agent that says what replaces it when the timeline resets it (optional).

    A script has no memory to lose, so it carries on with its remaining steps;
    any other agent is made anew from its arm, and keeps only what a restarted
    assistant would: the persistent folder and, if the scenario says so, the
    conversation so far.
    """

    def restarted(self) -> Agent | None:
        """The agent that takes over; None to make a new one from the arm."""
        ...


def restarted(agent: object) -> Agent | None:
    """What replaces ``agent`` after a reset (``Restartable``); None: make a new one."""
    return agent.restarted() if isinstance(agent, Restartable) else None


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
        invalid_calls: Tool calls (or replies with none) that were no usable action,
            each answered with a repair turn.
        infra_seconds: Time lost to a failing provider: failed tries and backoff.
        provider_failing: A call is being retried right now (read when a wall limit
            ends the run: the limit then fell inside an infra wait).
    """

    planner_calls: int
    tokens: dict[str, int]
    cost_usd: float | None
    calls: list[PlannerCall]
    model: str
    mode: str | None
    plan: list[str] | None
    invalid_calls: int = 0
    infra_seconds: float = 0.0
    provider_failing: bool = False


@runtime_checkable
class Accounting(Protocol):
    """An agent that spends on a model (optional): the runner reads its account."""

    def account(self) -> Account:
        """What was spent so far; read even when a limit or a fault ended the run."""
        ...


def account_of(agent: object) -> Account | None:
    """The agent's spend when it keeps an account (``Accounting``), else None."""
    return agent.account() if isinstance(agent, Accounting) else None
