"""Phase 5 of a try, grade: the scenario's checks over the end state only, then the
run's judge, when it has one, over the scenario's ``judge:`` criteria."""

from __future__ import annotations

from dataclasses import dataclass

from proctor.grading import grade
from proctor.records import CheckResult, EndState, JudgeVerdict
from proctor.runner._phases import Phases
from proctor.runner._setup import TrySetup
from proctor.runner._worker import Worker


@dataclass(frozen=True)
class Graded:
    """The try's verdicts: every check's result, and the judge's (empty without one)."""

    checks: list[CheckResult]
    verdicts: list[JudgeVerdict]


async def grade_try(worker: Worker, setup: TrySetup, end: EndState, phases: Phases) -> Graded:
    """Grade the end state, timed as the ``grade`` phase and the judge as ``judge``."""
    with phases.phase("grade"):
        checks = grade(setup.scenario.checks, end)
    verdicts: list[JudgeVerdict] = []
    if worker.options.judge is not None and setup.scenario.judge:
        with phases.phase("judge"):
            verdicts = await worker.options.judge(setup.scenario.judge, end)
        setup.recorder.event("judge", verdicts=[v.model_dump() for v in verdicts])
    return Graded(checks, verdicts)
