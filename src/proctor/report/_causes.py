"""Failure causes: why each failed attempt failed, from its record alone."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, assert_never

from proctor.records import AttemptRecord, CauseAttempt, CauseGroup, CheckResult
from proctor.vocab import CAUSE_KINDS, CauseKind, StopReason

NO_ACTION_OPS = frozenset({"done"})

LABELS: Mapping[CauseKind, str] = {
    "setup": "setup",
    "timeout": "timeout",
    "tool_limit": "tool limit",
    "planner_error": "planner error: no usable tool call",
    "agent_error": "agent error",
    "agent_crashed": "agent crashed",
    "step_failed": "scripted step failed",
    "guard": "guard stop",
    "boundary": "boundary stop",
    "no_done": "ended without done",
    "no_actions": "no computer actions",
    "wrong_outcome": "wrong outcome",
    "unknown": "unknown stop reason",
    "infra": "infra (not counted)",
}
"""How each cause is shown; the groups are shown in ``CAUSE_KINDS`` order."""

SPLIT_BY_REASON: frozenset[CauseKind] = frozenset({"guard", "boundary", "no_done"})
"""Causes that group their attempts by stop reason, e.g. 'guard stop: no_progress'."""


def stop_cause(reason: StopReason) -> CauseKind | None:
    """The cause a failed attempt's stop reason points to; None for a reason no failure has.

    Exhaustive over the vocabulary: a new stop reason fails mypy here until it is
    classified. ``wrong_outcome`` means the agent finished on its own, so the
    checks say why (or ``no_actions`` when it did nothing).
    """
    match reason:
        case "done" | "script_end" | "null":
            return "wrong_outcome"
        case "gave_up" | "exited":
            return "no_done"
        case "step_failed":
            return "step_failed"
        case "timeout":
            return "timeout"
        case "tool_limit" | "step_limit":
            return "tool_limit"
        case "step_budget" | "repeated_action" | "scroll_oscillation" | "no_progress":
            return "guard"
        case "verification_gate" | "untrusted_content" | "owner_required" | "lease_revoked":
            return "boundary"
        case "planner_error":
            return "planner_error"
        case "agent_error":
            return "agent_error"
        case "infra":
            return "infra"
        case "unknown":
            return "unknown"
        case "skipped":
            return None  # never run, never scored
        case _:
            assert_never(reason)


class Cause(NamedTuple):
    """Why one attempt failed."""

    cause: CauseKind
    guard: StopReason | None
    """The stop reason, for the causes split by it (``SPLIT_BY_REASON``)."""
    detail: str


def cause_label(cause: CauseKind, guard: StopReason | None = None) -> str:
    """The cause as shown, e.g. 'guard stop: no_progress'."""
    return LABELS[cause] + (f": {guard}" if guard else "")


def attempt_path(record: AttemptRecord) -> str:
    """The attempt folder relative to the run folder."""
    return f"attempts/{record.id}"


def _short(value: Any, limit: int = 120) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _failing_path(checks: Sequence[CheckResult]) -> list[CheckResult]:
    """The first failing check, then its first failing child, and so on down."""
    for check in checks:
        if not check.passed:
            return [check, *_failing_path(check.children)]
    return []


EXPECTED = "expected"
"""The word by which a check's detail states what it expected (then it is shown alone)."""


def check_line(check: CheckResult) -> str:
    """A failed check on one line, always with what it expected against what it found.

    The detail when it states its expectation (``... expected 'SHIP_P2'``, or quotes the
    expected text); otherwise
    the detail (what was found) and the check's expected value, or without a detail,
    ``expected E, actual A``.
    """
    if not check.detail:
        return f"expected {_short(check.expected, 80)}, actual {_short(check.actual, 80)}"
    if _states_expected(check):
        return _short(check.detail, 240)
    return f"{_short(check.detail)}; expected {_short(check.expected, 120)}"


def _states_expected(check: CheckResult) -> bool:
    """The detail says what was expected: by the word, or by quoting an expected text
    (``answer '41' is not '42'``)."""
    expected = check.expected
    quoted = isinstance(expected, str) and bool(expected) and repr(expected) in check.detail
    return EXPECTED in check.detail or quoted


def last_tool_error(record: AttemptRecord) -> str | None:
    errors = [s for s in record.steps if s.error]
    if not errors:
        return None
    last = errors[-1]
    return f"step {last.index} {last.op}: {last.error}"


def _wrong_outcome(record: AttemptRecord) -> str:
    parts = []
    path = _failing_path(record.checks)
    if path:
        leaf = path[-1]
        name = " > ".join(c.name for c in path)
        parts.append(f"check {name}: {check_line(leaf)}")
    error = last_tool_error(record)
    parts.append(f"last tool error: {error}" if error else "no tool error")
    return "; ".join(parts)


def _no_done(record: AttemptRecord) -> str:
    said = record.stop_detail or f"stopped by {record.stop_reason}"
    if not any(s.op not in NO_ACTION_OPS for s in record.steps):
        return f"{said}; no action taken"
    return f"{said}; {_wrong_outcome(record)}"


def _crashed(record: AttemptRecord) -> str:
    """Its exit code and the last line of its stderr (all of it is in the trace)."""
    code = record.exit_code
    how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit {code}"
    lines = [line for line in (record.stderr_tail or "").splitlines() if line.strip()]
    said = f"; stderr: {_short(lines[-1], 200)}" if lines else "; nothing on stderr"
    return f"the command exited without calling done ({how}){said}"


def _step_failed(record: AttemptRecord) -> str:
    """The scripted agent's own sentence (which step of the script, and its error)."""
    return record.stop_detail or last_tool_error(record) or record.error or "a scripted step failed"


def cause_of(record: AttemptRecord) -> Cause | None:
    """The cause of a failed or errored attempt; None for a passed or skipped one."""
    if record.result == "error":
        kinds = {f.kind for f in record.infra_faults}
        if kinds and kinds <= {"setup"}:
            return Cause("setup", None, record.error or "set-up failed")
        tries = len(record.infra_faults)
        said = "1 try" if tries == 1 else f"{tries} tries"
        return Cause("infra", None, f"{said}, each ended by infra: {record.error or 'infra fault'}")
    if record.result != "failed":
        return None
    reason = record.stop_reason
    cause = stop_cause(reason)
    split = reason if cause in SPLIT_BY_REASON else None
    match cause:
        case "wrong_outcome":
            if not any(s.op not in NO_ACTION_OPS for s in record.steps):
                return Cause("no_actions", None, f"stop reason {reason}, no action taken")
            return Cause("wrong_outcome", None, _wrong_outcome(record))
        case "no_done":
            if reason == "exited" and record.exit_code not in (None, 0):
                return Cause("agent_crashed", None, _crashed(record))
            return Cause("no_done", split, _no_done(record))
        case "step_failed":
            return Cause("step_failed", None, _step_failed(record))
        case "guard" | "boundary":
            detail = record.error or record.stop_detail or f"stopped by {reason}"
            return Cause(cause, split, detail)
        case "unknown":
            return Cause("unknown", None, record.stop_detail or "stop reason unknown")
        case "infra" | None:
            # Only records with no run carry these; a failed one is damaged: say so, do not guess.
            return Cause("unknown", None, f"a failed attempt with stop reason {reason}")
        case _:
            return Cause(cause, None, record.error or record.stop_detail or reason)


def failure_causes(records: Sequence[AttemptRecord]) -> list[CauseGroup]:
    """Failed attempts grouped by cause (guards one group each), in a fixed order.

    Infra faults are shown apart and never counted: attempts lost to them, and
    scored attempts that needed a retry.
    """
    groups: dict[tuple[CauseKind, StopReason | None], list[CauseAttempt]] = {}
    for record in records:
        found = cause_of(record)
        if found is not None:
            groups.setdefault((found.cause, found.guard), []).append(
                CauseAttempt(attempt=record.id, path=attempt_path(record), detail=found.detail)
            )
        if record.result != "error" and record.infra_faults:
            faults = "; ".join(
                f"try {f.try_number} {f.kind}: {f.message}" for f in record.infra_faults
            )
            groups.setdefault(("infra", None), []).append(
                CauseAttempt(
                    attempt=record.id,
                    path=attempt_path(record),
                    detail=f"retried, then {record.result}: {faults}",
                )
            )
    out = []
    for (cause, guard), attempts in sorted(
        groups.items(), key=lambda kv: (CAUSE_KINDS.index(kv[0][0]), kv[0][1] or "")
    ):
        out.append(
            CauseGroup(
                cause=cause,
                label=cause_label(cause, guard),
                guard=guard,
                counted=cause != "infra",
                attempts=attempts,
            )
        )
    return out


def diagnose_lines(groups: Sequence[CauseGroup], run_dir: str) -> list[str]:
    """Plain-text diagnose: each group with its count, then each attempt's path and detail."""
    counted = [g for g in groups if g.counted]
    total = sum(len(g.attempts) for g in counted)
    if not groups:
        return ["no failed attempts"]
    lines = [f"{total} failed attempt(s) by cause:"]
    for group in groups:
        suffix = "" if group.counted else " (shown apart, not counted)"
        lines.append(f"  {group.label}: {len(group.attempts)}{suffix}")
        for entry in group.attempts:
            lines.append(f"    {run_dir}/{entry.path}  {entry.detail}")
    return lines
