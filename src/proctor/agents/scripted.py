"""The scripted agent: replays a fixed list of actions (an oracle or a decoy)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

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
    _taken: list[int] = field(default_factory=lambda: [0], compare=False, repr=False)
    """How many steps were handed to the computer (a reset keeps the rest)."""

    @property
    def kind(self) -> str:
        return self.label

    def restarted(self) -> ScriptedAgent:
        """The rest of the script, for the agent that replaces this one after a reset: a
        script has no memory to lose, so the oracle's later steps carry on."""
        taken = self._taken[0]
        rest = frozenset(i - taken for i in self.expect_error if i >= taken)
        return ScriptedAgent(self.steps[taken:], self.label, rest)

    async def run(self, brief: str, computer: Computer) -> Outcome:
        answer: str | None = None
        for index, action in enumerate(self.steps):
            self._taken[0] = index + 1
            step = await computer.act(action)
            computer.user_messages()  # heard: the script already knows what to do
            if isinstance(action, Done):
                answer = action.answer
                if computer.finished:
                    return Outcome(stop_reason="done", answer=answer)
                continue  # the timeline answered done: the script goes on
            if step.status == "error" and index not in self.expect_error:
                return Outcome(
                    stop_reason="step_failed",
                    detail=f"step {index} ({action.op}) failed: {step.error}",
                )
        return Outcome(stop_reason="script_end", answer=answer)


@dataclass(frozen=True)
class NullAgent:
    """Does nothing: every scenario must fail under it."""

    @property
    def kind(self) -> str:
        return "null"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        return Outcome(stop_reason="null")
