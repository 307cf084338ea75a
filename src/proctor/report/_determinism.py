"""Determinism: did repeats of a scenario take the same steps, and where did they part?"""

from __future__ import annotations

from collections.abc import Sequence

from proctor.records import AttemptRecord, Determinism, RunStep, Step
from proctor.report._metrics import by_row, by_scenario

MIN_RUNS = 3


def signature(step: Step) -> tuple[str, str, str | None]:
    """What a step did, for comparison: (tool, op, target); timings and outputs ignored."""
    return (step.tool, step.op, step.target)


def describe(step: Step) -> str:
    return " ".join(p for p in (step.tool, step.op, step.target) if p)


def divergence(sequences: Sequence[Sequence[tuple[str, str, str | None]]]) -> int | None:
    """The first index where the sequences differ (a run that ended differs); None if equal."""
    longest = max((len(s) for s in sequences), default=0)
    for i in range(longest):
        seen = {s[i] if i < len(s) else None for s in sequences}
        if len(seen) > 1:
            return i
    return None


def determinism_of(records: Sequence[AttemptRecord]) -> Determinism:
    """Compare the step sequences of repeated attempts of one scenario by one row."""
    runs = sorted(records, key=lambda r: r.repeat)
    index = divergence([[signature(s) for s in r.steps] for r in runs])
    at = []
    if index is not None:
        at = [
            RunStep(attempt=r.id, step=describe(r.steps[index]) if index < len(r.steps) else None)
            for r in runs
        ]
    first = runs[0]
    before = [p.name for p in first.end_state.user.play if index is not None and p.actions <= index]
    return Determinism(
        scenario=first.scenario,
        arm=first.arm,
        model=first.model,
        mode=first.mode,
        runs=len(runs),
        same=index is None,
        diverged_at=index,
        at=at,
        after_event=before[-1] if before else None,
    )


def determinism(records: Sequence[AttemptRecord], min_runs: int = MIN_RUNS) -> list[Determinism]:
    """Every scenario x row run ``min_runs`` or more times (infra errors and skips left out)."""
    out = []
    for group in by_row(records).values():
        for runs in by_scenario(group).values():
            ran = [r for r in runs if r.result in ("passed", "failed")]
            if len(ran) >= min_runs:
                out.append(determinism_of(ran))
    return out
