"""The scripted agent: replays a fixed list of actions (an oracle or a decoy)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from proctor.agents._protocol import Computer, Outcome
from proctor.computer.actions import Action, Done


@dataclass(frozen=True)
class ScriptedAgent:
    """Replays ``steps`` in order, through the toolset, whatever each step returns."""

    steps: Sequence[Action]
    label: str = "scripted"

    @property
    def kind(self) -> str:
        return self.label

    async def run(self, brief: str, computer: Computer) -> Outcome:
        answer: str | None = None
        for action in self.steps:
            await computer.act(action)
            if isinstance(action, Done):
                return Outcome(stop_reason="done", answer=action.answer)
        return Outcome(stop_reason="script_end", answer=answer)


@dataclass(frozen=True)
class NullAgent:
    """Does nothing: every scenario must fail under it."""

    @property
    def kind(self) -> str:
        return "null"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        return Outcome(stop_reason="null")
