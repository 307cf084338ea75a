"""One attempt as a reader sees it: outcome, cause, crash, failed checks, planner calls, text.

report.html's attempt details and ``proctor show`` render the same view, so the two
never disagree on what an attempt holds. Agent-written text (answers, errors, reply
text, stderr) is kept as it was: each renderer escapes it for its medium.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proctor.errors import RunError
from proctor.records import AttemptRecord, CheckResult, PlannerCall
from proctor.report._causes import attempt_path, cause_label, cause_of, check_line

TOKEN_KINDS = ("input", "output", "cached")
"""The token counts a call row shows, as in/out/cached."""


def tokens_cell(tokens: Mapping[str, int]) -> str:
    """``in/out/cached``, e.g. ``1200/85/0``; ``-`` for a call that counted none."""
    if not tokens:
        return "-"
    return "/".join(str(tokens.get(kind, 0)) for kind in TOKEN_KINDS)


@dataclass(frozen=True)
class CallRow:
    """One planner call, as the per-call table shows it."""

    index: int
    purpose: str
    status: str
    tool: str
    """The tool the reply called; empty when it called none."""
    latency_ms: float
    retries: int
    tokens: str
    """``in/out/cached`` (``tokens_cell``)."""
    cost_usd: float | None
    model: str | None
    error: str
    """Why the reply was not usable; empty when it was."""
    from_text: bool = False
    """Its calls were read from the reply's text (``+text_calls``)."""

    @classmethod
    def of(cls, call: PlannerCall) -> CallRow:
        return cls(
            index=call.index,
            purpose=call.purpose,
            status=call.status,
            tool=call.tool or "",
            latency_ms=call.latency_ms,
            retries=call.retries,
            tokens=tokens_cell(call.tokens),
            cost_usd=call.cost_usd,
            model=call.model,
            error=call.error or "",
            from_text=call.parsed_from_text,
        )


@dataclass(frozen=True)
class FirstRequest:
    """The prompt of an attempt's first decision: what every tool schema and the system
    prompt cost before the model has read a word of the task's progress."""

    estimate: int | None
    """proctor's estimate of its prompt tokens (``PlannerCall.prompt_estimate``)."""
    counted: int | None
    """The provider's count of them (``tokens.input``); None when it reported none."""

    @classmethod
    def of(cls, calls: Sequence[PlannerCall]) -> FirstRequest | None:
        """From the first ``act`` call, if any."""
        call = next((c for c in calls if c.purpose == "act"), None)
        if call is None:
            return None
        return cls(call.prompt_estimate, call.tokens.get("input") if call.tokens else None)

    @property
    def line(self) -> str:
        """``~1,395 prompt tokens estimated, 1,474 counted by the provider``."""
        parts = []
        if self.estimate is not None:
            parts.append(f"~{self.estimate:,} prompt tokens estimated")
        if self.counted is not None:
            parts.append(f"{self.counted:,} counted by the provider")
        return ", ".join(parts) or "no token count"


@dataclass(frozen=True)
class TextTurn:
    """What the model said in one reply, besides its tool call."""

    call: int
    """The planner call's index."""
    text: str


@dataclass(frozen=True)
class FailedCheck:
    """A check that failed, with its path under all/any (``outer > inner``)."""

    path: str
    check: CheckResult

    @property
    def line(self) -> str:
        """What it expected against what it found, on one line (``check_line``)."""
        return check_line(self.check)


def _failed(checks: Sequence[CheckResult], prefix: str = "") -> list[FailedCheck]:
    out = []
    for check in checks:
        path = f"{prefix}{check.name}"
        if not check.passed:
            out.append(FailedCheck(path, check))
        out += _failed(check.children, f"{path} > ")
    return out


@dataclass(frozen=True)
class TimelineRow:
    """One timeline event that fired, placed among the steps (``after`` actions)."""

    after: int
    name: str
    kind: str
    clock: str
    what: str
    """What the user said, or what the event did."""


def _timeline(record: AttemptRecord) -> list[TimelineRow]:
    user = record.end_state.user
    rows = [TimelineRow(p.actions, p.name, p.kind, p.clock, p.text or p.detail) for p in user.play]
    rows += [
        TimelineRow(s.step, "schedule", "schedule", s.at, f"{s.note} (woke after {s.woke})")
        for s in user.scheduled
        if s.woke is not None
    ]
    return sorted(rows, key=lambda r: r.after)


@dataclass(frozen=True)
class AttemptView:
    """What one attempt shows: built by ``attempt_view`` from its record alone."""

    record: AttemptRecord
    cause: str
    """The failure cause's label (``cause_label``); empty for a passed or skipped attempt."""
    cause_detail: str
    failed_checks: tuple[FailedCheck, ...]
    calls: tuple[CallRow, ...]
    turns: tuple[TextTurn, ...]
    """Every reply with text, in call order."""
    timeline: tuple[TimelineRow, ...] = ()
    """The timeline events that fired (``play:``), by the actions taken before each."""
    first_request: FirstRequest | None = None
    """A model agent's first decision's prompt size; None without a planner call."""

    @property
    def crashed(self) -> bool:
        """A command agent's exit code or stderr tail is on record."""
        return self.record.exit_code is not None or bool(self.record.stderr_tail)

    def as_json(self) -> dict[str, Any]:
        """The view as JSON values: what ``proctor show --json`` prints."""
        r = self.record
        return {
            "id": r.id,
            "path": attempt_path(r),
            "scenario": r.scenario,
            "arm": r.arm,
            "agent": r.agent,
            "model": r.model,
            "result": r.result,
            "stop_reason": r.stop_reason,
            "stop_detail": r.stop_detail,
            "cause": self.cause or None,
            "cause_detail": self.cause_detail or None,
            "answer": r.answer,
            "error": r.error,
            "exit_code": r.exit_code,
            "stderr_tail": r.stderr_tail,
            "failed_checks": [
                {
                    "path": f.path,
                    "kind": f.check.kind,
                    "expected": f.check.expected,
                    "actual": f.check.actual,
                    "detail": f.check.detail,
                    "line": f.line,
                }
                for f in self.failed_checks
            ],
            "steps": [
                {
                    "index": s.index,
                    "tool": s.tool,
                    "op": s.op,
                    "target": s.target,
                    "status": s.status,
                    "latency_ms": s.latency_ms,
                    "error": s.error,
                }
                for s in r.steps
            ],
            "planner": [c.model_dump(mode="json") for c in r.planner],
            "text_turns": [{"call": t.call, "text": t.text} for t in self.turns],
            "first_request": (
                {"prompt_estimate": first.estimate, "input_tokens": first.counted}
                if (first := self.first_request) is not None
                else None
            ),
            "timeline": [
                {"after": t.after, "name": t.name, "kind": t.kind, "clock": t.clock, "what": t.what}
                for t in self.timeline
            ],
        }


def attempt_view(record: AttemptRecord) -> AttemptView:
    """The view of one attempt record."""
    found = cause_of(record)
    return AttemptView(
        record=record,
        cause=cause_label(found.cause, found.guard) if found is not None else "",
        cause_detail=found.detail if found is not None else "",
        failed_checks=tuple(_failed(record.checks)),
        calls=tuple(CallRow.of(c) for c in record.planner),
        turns=tuple(
            TextTurn(c.index, c.reply_text) for c in record.planner if c.reply_text.strip()
        ),
        timeline=tuple(_timeline(record)),
        first_request=FirstRequest.of(record.planner),
    )


def find_attempt(records: Sequence[AttemptRecord], attempt_id: str, run_dir: Path) -> AttemptRecord:
    """The record of ``attempt_id`` (``scenario/arm-n``) among a run's records.

    Raises:
        RunError: naming the attempt and the run, with ids of that scenario (or a
            few of the run's) and how to list them all.
    """
    for record in records:
        if record.id == attempt_id:
            return record
    scenario = attempt_id.split("/", 1)[0]
    near = [r.id for r in records if r.scenario == scenario] or [r.id for r in records]
    shown = ", ".join(near[:8]) + (f" and {len(near) - 8} more" if len(near) > 8 else "")
    raise RunError(
        f"no attempt {attempt_id!r} in run {run_dir.name!r} ({run_dir}); attempt ids are "
        f"SCENARIO/ARM-N, e.g. {shown}; `proctor diagnose {run_dir.name}` lists the failed "
        f"ones and report.html lists all"
    )
