"""What both computers tell the user channel: each recorded step, idleness, and the
messages due for the agent's next turn (the timeline's hooks, one place for both)."""

from __future__ import annotations

from typing import Protocol

from proctor.computer import actions as a
from proctor.computer._recorder import Recorder
from proctor.computer.observation import USER_NOTE
from proctor.computer.user import UserChannel
from proctor.records import Step


class _Finishing(Protocol):
    finished: bool


def told(computer: _Finishing, user: UserChannel | None, action: a.Action, step: Step) -> None:
    """Tell the user of a recorded step; a ``done`` that the timeline answers (a message, a
    wake-up) leaves the attempt open (``finished`` back to False).

    Raises:
        AgentReset: a timeline event resets the agent (the step is recorded).
    """
    if user is None:
        return
    if isinstance(action, a.Done) and step.status == "ok":
        if user.idle(step):
            computer.finished = False
        return
    user.after_step(step)


def user_notes(user: UserChannel | None, recorder: Recorder) -> list[str]:
    """Messages due for the agent now, each shown once and traced."""
    if user is None:
        return []
    done = len(recorder.steps)
    due = user.messages_due(done)
    for text in due:
        recorder.event("user_message", after_steps=done, text=text)
    return [USER_NOTE + text for text in due]
