"""Phase 6 of a try, record: the one builder of ``AttemptRecord`` (a graded try's, an
attempt's whose every try faulted, a skipped one's), and the writing of an attempt's
folder, which only the driver does (attempt.json last)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proctor.agents import Account, Outcome
from proctor.agents.llm import arm_mode, arm_model
from proctor.computer.browser import Recorder
from proctor.errors import StorageError
from proctor.records import (
    AttemptRecord,
    CheckResult,
    EndState,
    InfraFault,
    JudgeVerdict,
    TraceEvent,
    append_jsonl,
    make_dirs,
    write_bytes_atomic,
    write_jsonl_atomic,
    write_model_atomic,
    write_text_atomic,
)
from proctor.runner._phases import Timing
from proctor.runner._plan import PlanItem
from proctor.vocab import AttemptResult, StopReason


def attempt_folder(run_dir: Path, item: PlanItem) -> Path:
    """results/<label>/attempts/<scenario>/<arm>-<n>/"""
    return run_dir / "attempts" / item.scenario.scenario.id / f"{item.arm.name}-{item.repeat}"


def build_record(
    item: PlanItem,
    result: AttemptResult,
    stop_reason: StopReason,
    *,
    started_at: float,
    seconds: float = 0.0,
    **details: Any,
) -> AttemptRecord:
    """The one place an ``AttemptRecord`` is made: the plan item's identity, then ``details``.

    Unless ``details`` say otherwise, the agent is the arm's spec and the model
    and mode are read from it (an attempt that never ran has no agent to ask).
    """
    scenario = item.scenario.scenario
    fields: dict[str, Any] = {
        "agent": item.arm.spec,
        "model": arm_model(item.arm.spec),
        "mode": arm_mode(item.arm.spec),
        **details,
    }
    return AttemptRecord(
        id=item.attempt_id,
        scenario=scenario.id,
        scenario_sha256=item.scenario.sha256,
        tier=scenario.tier,
        category=scenario.category,
        arm=item.arm.name,
        repeat=item.repeat,
        result=result,
        stop_reason=stop_reason,
        started_at=started_at,
        seconds=seconds,
        **fields,
    )


@dataclass(frozen=True)
class AttemptOutput:
    """An attempt as data: what a worker returns and only the driver writes.

    Attributes:
        record: attempt.json.
        events: events.jsonl (the raw trace).
        artifacts: Other files of the attempt folder by name (before.png, after.png).
    """

    record: AttemptRecord
    events: list[TraceEvent] = field(default_factory=list)
    artifacts: dict[str, bytes] = field(default_factory=dict)


def graded_output(
    item: PlanItem,
    *,
    started_at: float,
    timing: Timing,
    agent: str,
    outcome: Outcome,
    error: str | None,
    account: Account | None,
    recorder: Recorder,
    checks: list[CheckResult],
    verdicts: list[JudgeVerdict],
    end: EndState,
    artifacts: dict[str, bytes],
) -> AttemptOutput:
    """A graded try as data: its record, from what the phases before made, then its trace
    (ending with the ``graded`` event) and its PNGs.

    The model agents' account, when they keep one, counts the try's planner calls,
    tokens and cost; else the outcome's own counts do.
    """
    record = build_record(
        item,
        "passed" if all(c.passed for c in checks) else "failed",
        outcome.stop_reason,
        started_at=started_at,
        seconds=timing.seconds,
        agent=agent,
        stop_detail=outcome.detail,
        needs_review=outcome.needs_review,
        answer=end.answer,
        checks=checks,
        failed_checks=[c.name for c in checks if not c.passed],
        steps=list(recorder.steps),
        tool_calls=recorder.tool_calls,
        observations=recorder.observations,
        inputs=recorder.inputs,
        planner_calls=account.planner_calls if account else outcome.planner_calls,
        invalid_calls=account.invalid_calls if account else 0,
        infra_seconds=account.infra_seconds if account else 0.0,
        tokens=dict(account.tokens if account else outcome.tokens),
        cost_usd=account.cost_usd if account else outcome.cost_usd,
        model=account.model if account else None,
        mode=account.mode if account else None,
        planner=account.calls if account else [],
        plan=account.plan if account else None,
        judge=verdicts,
        agent_seconds=timing.phases.get("agent", 0.0),
        timings=timing.phases,
        error=error,
        exit_code=outcome.exit_code,
        stderr_tail=outcome.stderr_tail,
        end_state=end,
    )
    recorder.event("graded", result=record.result, failed=record.failed_checks)
    return AttemptOutput(record, recorder.events, artifacts)


def finish_attempt(
    item: PlanItem, output: AttemptOutput | None, faults: list[InfraFault]
) -> AttemptOutput:
    """The attempt's output with its faulted tries noted; ``error`` when no try was graded.

    The faulted tries' time is infra time (``infra_seconds``). When none was graded the
    record keeps the first try's start, the tries' wall time and their traces, in order:
    a provider slower than its timeout cost the run that time, and its events say so.
    """
    lost = round(sum(f.seconds or 0.0 for f in faults), 3)
    if output is None:
        error = faults[-1].message if faults else "unknown infra fault"
        starts = [f.started_at for f in faults if f.started_at is not None]
        record = build_record(
            item, "error", "infra", started_at=min(starts, default=time.time()), error=error
        )
        record = record.model_copy(update={"seconds": lost})
        output = AttemptOutput(record, [e for f in faults for e in f.events], {})
    infra = round(output.record.infra_seconds + lost, 3)
    record = output.record.model_copy(update={"infra_faults": list(faults), "infra_seconds": infra})
    return AttemptOutput(record, output.events, output.artifacts)


ARTIFACT_NAMES = frozenset({"before.png", "after.png"})
"""The only artifact names a worker may return (they name files in the attempt folder)."""


EVENTS = "events.jsonl"


class LiveTrace:
    """events.jsonl appended as a try runs, one flushed line per event, for ``proctor tail``.

    A try starts the file afresh (a retry's trace replaces the faulted try's);
    the record phase then writes the same lines atomically. The one file a
    worker writes in the run folder, and only when it shares the driver's disk:
    a worker on another machine has no run folder, so no live trace. A failed
    append (a full disk) stops the live trace, never the attempt: the record
    phase reports storage errors.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.alive = True
        try:
            write_text_atomic(path, "")
        except StorageError:
            self.alive = False

    @classmethod
    def for_attempt(cls, run_dir: Path, item: PlanItem) -> LiveTrace | None:
        """The attempt's live trace; None when the run folder is not on this machine."""
        if not run_dir.is_dir():
            return None
        return cls(attempt_folder(run_dir, item) / EVENTS)

    def __call__(self, event: TraceEvent) -> None:
        if not self.alive:
            return
        try:
            append_jsonl(self.path, event)
        except StorageError:
            self.alive = False


def write_attempt(run_dir: Path, folder: Path, output: AttemptOutput) -> None:
    """The record phase: artifacts, events.jsonl and web.jsonl lines, then attempt.json last.

    attempt.json is the completion marker: an attempt folder without it (a kill
    in between) is redone by ``--resume``, which first drops that attempt's
    web.jsonl lines (``prune_web_log``), so nothing is duplicated.
    """
    make_dirs(folder)
    for name, data in sorted(output.artifacts.items()):
        if name not in ARTIFACT_NAMES:
            raise ValueError(f"attempt artifact {name!r} is not one of {sorted(ARTIFACT_NAMES)}")
        write_bytes_atomic(folder / name, data)
    write_jsonl_atomic(folder / EVENTS, output.events)
    for req in output.record.end_state.requests:
        append_jsonl(run_dir / "web.jsonl", req)
    write_model_atomic(folder / "attempt.json", output.record)


def skipped_record(
    run_dir: Path, item: PlanItem, reason: str, *, write: bool = True
) -> AttemptRecord:
    """The record of an attempt not run (e.g. its arm has no API key): never scored."""
    record = build_record(item, "skipped", "skipped", started_at=time.time(), stop_detail=reason)
    if write:
        write_model_atomic(attempt_folder(run_dir, item) / "attempt.json", record)
    return record
