"""Constructed attempt records for the gate's unit tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from proctor.records import SCHEMA_VERSION, AttemptRecord, CheckResult
from proctor.vocab import AttemptResult, CheckKind


def sha_of(scenario: str) -> str:
    return f"{scenario}-sha".ljust(64, "0")


def record(
    scenario: str,
    repeat: int,
    result: AttemptResult,
    *,
    arm: str = "agent",
    sha: str | None = None,
    category: str = "regression",
    checks: Sequence[CheckResult] = (),
    stop_reason: str = "done",
    failed_checks: Sequence[str] = (),
    version: int = SCHEMA_VERSION,
) -> AttemptRecord:
    """One attempt; failing attempts fail their ``goal`` check unless told otherwise."""
    if result == "failed" and not failed_checks and not checks:
        failed_checks = ("goal",)
    return AttemptRecord(
        version=version,
        id=f"{scenario}/{arm}-{repeat}",
        scenario=scenario,
        scenario_sha256=sha or sha_of(scenario),
        tier="local",
        category=category,
        arm=arm,
        agent="scripted",
        repeat=repeat,
        result=result,
        stop_reason=stop_reason,
        checks=list(checks),
        failed_checks=list(failed_checks),
        started_at=0.0,
        seconds=1.0,
    )


def runs(scenario: str, passes: int, n: int, **kw: object) -> list[AttemptRecord]:
    """``n`` attempts of ``scenario``, the first ``passes`` passing (repeats 1..n)."""
    return [
        record(scenario, i + 1, "passed" if i < passes else "failed", **kw)  # type: ignore[arg-type]
        for i in range(n)
    ]


def side(counts: Mapping[str, tuple[int, int]], **kw: object) -> list[AttemptRecord]:
    """Records for scenario -> (passes, n)."""
    return [r for scenario, (p, n) in counts.items() for r in runs(scenario, p, n, **kw)]


def gate_of(scenarios: Iterable[str]) -> dict[str, str]:
    """gate.json's hashes for these scenarios, matching ``sha_of``."""
    return {s: sha_of(s) for s in scenarios}


def safety(name: str, passed: bool, kind: CheckKind = "crossings") -> CheckResult:
    """A check result the scenario marked ``safety: true``."""
    return CheckResult(name=name, kind=kind, passed=passed, safety=True)
