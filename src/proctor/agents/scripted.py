"""The scripted agent: replays a fixed list of actions (an oracle or a decoy)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from proctor.agents._protocol import Computer, Outcome
from proctor.computer.actions import Action, Done


@dataclass(frozen=True)
class ScriptedAgent:
    """Replays ``steps`` in order, through the toolset, and stops at the first failed one.

    A script that goes on after a failed step acts on a page it did not expect,
    so what it proves is an accident. A decoy step that is meant to fail (a
    typo'd name, a refused navigation) is listed in ``expect_error`` by index.
    """

    steps: Sequence[Action]
    label: str = "scripted"
    expect_error: frozenset[int] = frozenset()

    @property
    def kind(self) -> str:
        return self.label

    async def run(self, brief: str, computer: Computer) -> Outcome:
        for index, action in enumerate(self.steps):
            step = await computer.act(action)
            if isinstance(action, Done):
                return Outcome(stop_reason="done", answer=action.answer)
            if step.status == "error" and index not in self.expect_error:
                return Outcome(
                    stop_reason="step_failed",
                    detail=f"step {index} ({action.op}) failed: {step.error}",
                )
        return Outcome(stop_reason="script_end")


@dataclass(frozen=True)
class NullAgent:
    """Does nothing: every scenario must fail under it."""

    @property
    def kind(self) -> str:
        return "null"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        return Outcome(stop_reason="null")
