"""The user channel: how a computer hands the user's ops and the timeline to the user.

Plain data and a Protocol, no driver: ``proctor.world.SimulatedUser`` implements
it, and a computer that is given one delegates the user ops to it (their steps
are recorded with ``tool="user"``) and tells it of every step, so the scenario's
timeline (``play:``) can fire: after each step (``after_step``) and when the
agent goes idle with ``done`` (``idle``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from proctor.computer.actions import AskUser, RequestApproval, Schedule
from proctor.records import Step


@dataclass(frozen=True)
class UserReply:
    """What the user said: the step's output text, and its structured data."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


class AgentReset(Exception):
    """The timeline ends the agent: the runner starts a new one in its place.

    Raised by a computer's ``act`` once the step that set it off is recorded.

    Attributes:
        event: The timeline event's name.
        keep_conversation: The new agent's brief carries the conversation so far.
    """

    def __init__(self, event: str, *, keep_conversation: bool) -> None:
        super().__init__(f"the timeline event {event!r} resets the agent")
        self.event = event
        self.keep_conversation = keep_conversation


class UserChannel(Protocol):
    """The user an agent can ask and get approvals from during one attempt."""

    @property
    def has_timeline(self) -> bool:
        """Whether the scenario has a timeline (then ``schedule`` is offered)."""
        ...

    async def ask(self, action: AskUser, *, step: int) -> UserReply:
        """Answer a question asked at step ``step``."""
        ...

    async def request_approval(self, action: RequestApproval, *, step: int) -> UserReply:
        """Decide an approval request made at step ``step``."""
        ...

    def schedule(self, action: Schedule, *, step: int) -> UserReply:
        """Keep a wake-up: the agent is woken with the note when the run clock passes it."""
        ...

    def messages_due(self, actions_done: int) -> list[str]:
        """Messages for the agent due after ``actions_done`` actions and not yet shown (marks
        them shown): steering messages and the timeline's."""
        ...

    def after_step(self, step: Step) -> None:
        """A step was recorded: fire the timeline events now due.

        Raises:
            AgentReset: an event resets the agent.
        """
        ...

    def idle(self, step: Step) -> bool:
        """The agent went idle (its ``done`` step): fire what waits for that; True when
        something woke it (a message, a wake-up), False when the attempt is over.

        Raises:
            AgentReset: an event resets the agent.
        """
        ...
