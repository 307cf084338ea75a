"""The user channel: how a computer hands ``ask_user`` and ``request_approval`` to the user.

Plain data and a Protocol, no driver: ``proctor.world.SimulatedUser`` implements
it, and a computer that is given one delegates the user ops to it (their
steps are recorded with ``tool="user"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from proctor.computer.actions import AskUser, RequestApproval


@dataclass(frozen=True)
class UserReply:
    """What the user said: the step's output text, and its structured data."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


class UserChannel(Protocol):
    """The user an agent can ask and get approvals from during one attempt."""

    async def ask(self, action: AskUser, *, step: int) -> UserReply:
        """Answer a question asked at step ``step``."""
        ...

    async def request_approval(self, action: RequestApproval, *, step: int) -> UserReply:
        """Decide an approval request made at step ``step``."""
        ...

    def messages_due(self, actions_done: int) -> list[str]:
        """Steering messages due after ``actions_done`` actions and not yet shown (marks them shown)."""  # noqa: E501
        ...
