"""What passed between the agent and the simulated user: questions, approvals,
messages, replies, the timeline's events and the agent's wake-ups."""

from __future__ import annotations

from pydantic import Field

from proctor.records._record import Record
from proctor.vocab import (
    AnswerSource,
    PlayKind,
    TriggerKind,
)


class UserQuestion(Record):
    """One question the agent asked the simulated user, and the answer it got."""

    step: int = Field(description="Index of the ask_user step.")
    time: float = Field(description="Unix time of the answer.")
    question: str
    key: str | None = Field(default=None, description="The key the agent gave, if any.")
    matched: str | None = Field(
        default=None, description="The answer or vault key that answered it; None when none did."
    )
    source: AnswerSource = Field(
        description="answer or vault: scripted; persona: the persona model; unknown: "
        'the fixed "I don\'t know."'
    )
    answer: str


class UserApproval(Record):
    """One approval request and the user's decision."""

    step: int = Field(description="Index of the request_approval step.")
    time: float = Field(description="Unix time of the decision.")
    action: str
    amount: float | None = None
    currency: str | None = None
    details: str = ""
    rule: str | None = Field(default=None, description="The approval rule that matched, if any.")
    approved: bool
    reason: str = Field(description="Why, in the user's words.")


class UserMessage(Record):
    """One steering message and when it reached the agent."""

    at_step: int = Field(description="Due after this many actions.")
    text: str
    delivered_step: int | None = Field(
        default=None, description="Actions done when it was shown; None if it never was."
    )
    delivered_at: float | None = Field(default=None, description="Unix time it was shown.")


class AgentReply(Record):
    """What the agent told the user when it went idle (the answer given with ``done``)."""

    step: int = Field(description="Index of the done step.")
    time: float = Field(description="Unix time of the reply.")
    text: str


class PlayFired(Record):
    """One timeline event (``play:``) that fired, and where in the attempt."""

    name: str
    kind: PlayKind
    trigger: TriggerKind
    actions: int = Field(description="Actions the agent had taken when it fired.")
    time: float = Field(description="Unix time it fired.")
    clock: str = Field(description="The run clock then (ISO 8601, UTC).")
    text: str | None = Field(default=None, description="What the user said (say, stop).")
    detail: str = Field(default="", description="What it did, e.g. the id of a delivered mail.")


class Scheduled(Record):
    """A wake-up the agent scheduled (``schedule``), and when the run clock reached it."""

    step: int = Field(description="Index of the schedule step.")
    at: str = Field(description="When to wake (ISO 8601, UTC).")
    note: str
    woke: int | None = Field(
        default=None, description="Actions taken when it woke the agent; None if it never did."
    )
    idle: int | None = Field(
        default=None, description="Actions taken when the agent went idle after waking (the span)."
    )


class UserFacts(Record):
    """What passed between the agent and the simulated user."""

    asked: list[UserQuestion] = Field(default_factory=list)
    approvals: list[UserApproval] = Field(default_factory=list)
    messages: list[UserMessage] = Field(default_factory=list)
    secrets: list[str] = Field(
        default_factory=list, description="The vault's synthetic secrets, for no_secret checks."
    )
    replies: list[AgentReply] = Field(
        default_factory=list, description="The agent's answers with done, in order."
    )
    play: list[PlayFired] = Field(
        default_factory=list, description="The timeline events that fired, in order."
    )
    scheduled: list[Scheduled] = Field(default_factory=list)
    resets: list[int] = Field(
        default_factory=list, description="Actions taken when each agent reset happened."
    )
