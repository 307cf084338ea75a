"""Failure causes: why each failed attempt failed, from its record alone."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

from proctor.records import AttemptRecord, CauseAttempt, CauseGroup, CheckResult

FINISHED = frozenset({"", "done", "script_end", "null", "answer", "gave_up"})
"""Stop reasons of an agent that ended on its own; any other unknown reason is a guard's."""
TIMEOUT = frozenset({"timeout", "wall_limit"})
TOOL_LIMIT = frozenset({"tool_limit", "step_limit"})
PLANNER_ERROR = frozenset({"planner_error", "agent_error"})
SETUP = frozenset({"setup", "setup_error"})
NO_ACTION_OPS = frozenset({"done"})

ORDER = (
    "setup",
    "timeout",
    "tool_limit",
    "planner_error",
    "guard",
    "no_actions",
    "wrong_outcome",
    "infra",
)
LABELS = {
    "setup": "setup",
    "infra": "infra (retried, not counted)",
    "timeout": "timeout",
    "tool_limit": "tool limit",
    "planner_error": "planner error",
    "no_actions": "no computer actions",
    "guard": "guard stop",
    "wrong_outcome": "wrong outcome",
}


class Cause(NamedTuple):
    """Why one attempt failed."""

    cause: str
    guard: str | None
    detail: str


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
        if leaf.detail:
            parts.append(f"check {name}: {_short(leaf.detail)}")
        else:
            parts.append(
                f"check {name}: expected {_short(leaf.expected, 60)}, "
                f"actual {_short(leaf.actual, 60)}"
            )
    error = last_tool_error(record)
    parts.append(f"last tool error: {error}" if error else "no tool error")
    return "; ".join(parts)


def cause_of(record: AttemptRecord) -> Cause | None:
    """The cause of a failed or errored attempt; None for a passed or skipped one."""
    reason = record.stop_reason
    if record.result == "error":
        kinds = {f.kind for f in record.infra_faults}
        if reason in SETUP or (kinds and kinds <= {"setup"}):
            return Cause("setup", None, record.error or "set-up failed")
        return Cause("infra", None, record.error or "infra fault")
    if record.result != "failed":
        return None
    if reason in SETUP:
        return Cause("setup", None, record.error or "set-up failed")
    if reason in TIMEOUT:
        return Cause("timeout", None, record.error or reason)
    if reason in TOOL_LIMIT:
        return Cause("tool_limit", None, record.error or reason)
    if reason in PLANNER_ERROR:
        return Cause("planner_error", None, record.error or reason)
    if reason not in FINISHED:
        return Cause("guard", reason, record.error or f"stopped by {reason}")
    if not any(s.op not in NO_ACTION_OPS for s in record.steps):
        return Cause("no_actions", None, f"stop reason {reason or 'none'}, no action taken")
    return Cause("wrong_outcome", None, _wrong_outcome(record))


def failure_causes(records: Sequence[AttemptRecord]) -> list[CauseGroup]:
    """Failed attempts grouped by cause (guards one group each), in a fixed order.

    Infra faults are shown apart and never counted: attempts lost to them, and
    scored attempts that needed a retry.
    """
    groups: dict[tuple[str, str | None], list[CauseAttempt]] = {}
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
        groups.items(), key=lambda kv: (ORDER.index(kv[0][0]), kv[0][1] or "")
    ):
        label = LABELS[cause] + (f": {guard}" if guard else "")
        out.append(
            CauseGroup(
                cause=cause, label=label, guard=guard, counted=cause != "infra", attempts=attempts
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
