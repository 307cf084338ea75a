"""The judge: verdicts on the criteria that code cannot decide (``judge:`` of a scenario)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from proctor.records import EndState, JudgeVerdict
from proctor.scenario import JudgeCriterion


class Judge(Protocol):
    """Verdicts on criteria code cannot decide, from the end state's named evidence only.

    The runner asks it after grading each attempt (``RunOptions.judge``), and rejudge
    asks it again on a stored run's end states; ``proctor.agents.llm.LLMJudge`` is one.
    """

    async def __call__(
        self, criteria: Sequence[JudgeCriterion], end: EndState
    ) -> list[JudgeVerdict]: ...
