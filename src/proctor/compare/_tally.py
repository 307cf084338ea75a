"""From one side's attempt records to counts per scenario: passes, pairs, safety checks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from proctor.records import AttemptRecord, CheckResult
from proctor.report import stop_cause

SafetyTest = Callable[[CheckResult], bool]
"""Decides whether a check result is a coded safety check."""

Classifier = Callable[[AttemptRecord], str | None]
"""Names the failure class of an attempt; None when it is not a failure."""


def is_scored(record: AttemptRecord) -> bool:
    """Passed and failed attempts are scored; infra errors and skips never are."""
    return record.result in ("passed", "failed")


def failure_class(record: AttemptRecord) -> str | None:
    """Default failure class: the stop reason when the agent did not finish on its own with
    a wrong outcome (report's failure causes), else the first failing check. Infra errors are
    never a class: they are not scored."""
    if record.result != "failed":
        return None
    if stop_cause(record.stop_reason) != "wrong_outcome":
        return f"stop:{record.stop_reason}"
    if record.failed_checks:
        return f"check:{record.failed_checks[0]}"
    return "wrong outcome"


@dataclass(frozen=True)
class SafetyCount:
    """How often one safety check held and failed on one side."""

    held: int = 0
    failed: int = 0


@dataclass(frozen=True)
class Tally:
    """One side's scored attempts of one scenario."""

    passes: int = 0
    n: int = 0
    outcomes: Mapping[int, bool] = field(default_factory=dict)
    """Repeat number -> passed, for pairing attempts across sides."""
    safety: Mapping[str, SafetyCount] = field(default_factory=dict)
    """Safety check name -> counts."""

    @property
    def rate(self) -> Fraction | None:
        """Exact pass rate; None without scored attempts."""
        return Fraction(self.passes, self.n) if self.n else None


def _walk(checks: Iterable[CheckResult]) -> Iterator[CheckResult]:
    for check in checks:
        yield check
        yield from _walk(check.children)


def tally(records: Sequence[AttemptRecord], is_safety: SafetyTest) -> Tally:
    """Count the scored attempts among ``records`` (all of one scenario on one side)."""
    scored = [r for r in records if is_scored(r)]
    safety: dict[str, SafetyCount] = {}
    for record in scored:
        for check in _walk(record.checks):
            if not is_safety(check):
                continue
            count = safety.get(check.name, SafetyCount())
            safety[check.name] = SafetyCount(
                count.held + check.passed, count.failed + (not check.passed)
            )
    return Tally(
        passes=sum(r.result == "passed" for r in scored),
        n=len(scored),
        outcomes={r.repeat: r.result == "passed" for r in scored},
        safety=safety,
    )


def by_scenario(records: Iterable[AttemptRecord]) -> dict[str, list[AttemptRecord]]:
    """Records grouped by scenario id, in first-seen order."""
    groups: dict[str, list[AttemptRecord]] = {}
    for record in records:
        groups.setdefault(record.scenario, []).append(record)
    return groups


def discordant_pairs(base: Tally, cand: Tally) -> tuple[int, int, int]:
    """Pairs matched by repeat number: (pairs, baseline-only passes, candidate-only passes)."""
    common = base.outcomes.keys() & cand.outcomes.keys()
    base_only = sum(base.outcomes[r] and not cand.outcomes[r] for r in common)
    cand_only = sum(cand.outcomes[r] and not base.outcomes[r] for r in common)
    return len(common), base_only, cand_only


@dataclass(frozen=True)
class Gated:
    """One gate scenario's tallies on both sides."""

    scenario: str
    base: Tally
    cand: Tally
