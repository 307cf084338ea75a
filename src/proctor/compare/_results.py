"""What the gate decides on and answers with: sides, per-scenario numbers, findings, the verdict."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from proctor.compare._power import PowerReport
from proctor.compare._rules import SEED_RULES, GateRules
from proctor.records import AttemptRecord
from proctor.vocab import GateDecision, GateRule


@dataclass(frozen=True)
class Side:
    """One side of the gate: its attempt records and how it ran."""

    label: str
    """Run label or arm name, for the text."""
    records: Sequence[AttemptRecord]
    models: tuple[str, ...] = ()
    """Model specs the agent used; empty for agents without a model."""
    judge: str | None = None
    """Judge model spec, when a judge ran."""
    failure: str | None = None
    """Why the run failed; None when it completed."""


@dataclass(frozen=True)
class ScenarioStats:
    """One gate scenario, both sides."""

    scenario: str
    base_passes: int
    base_n: int
    cand_passes: int
    cand_n: int
    p: float
    """One-sided Fisher p for a drop; 1 when a side has no attempt."""
    p_holm: float
    """p after Holm over the gate scenarios that ran on both sides."""
    pairs: int
    """Attempts paired by repeat number."""
    base_only: int
    """Pairs the baseline passed and the candidate failed."""
    cand_only: int
    """Pairs the candidate passed and the baseline failed."""
    mcnemar_p: float
    """Exact one-sided McNemar p on the pairs."""

    @property
    def base_rate(self) -> float | None:
        return self.base_passes / self.base_n if self.base_n else None

    @property
    def cand_rate(self) -> float | None:
        return self.cand_passes / self.cand_n if self.cand_n else None

    @property
    def drop_points(self) -> float | None:
        """Baseline rate minus candidate rate, in points; None when a side did not run."""
        if self.base_n == 0 or self.cand_n == 0:
            return None
        return 100 * float(
            Fraction(self.base_passes, self.base_n) - Fraction(self.cand_passes, self.cand_n)
        )


@dataclass(frozen=True)
class Paired:
    """The paired comparison across gate scenarios (rule c and the per-scenario tests)."""

    scenarios: int
    mean: float
    """Mean of candidate minus baseline pass rate, per scenario (fraction, not points)."""
    low: float | None
    """Lower end of the interval for ``mean``; None with one scenario."""
    high: float | None
    sign_flip_p: float
    """One-sided sign-flip permutation p over scenarios."""
    pairs: int
    base_only: int
    cand_only: int
    mcnemar_p: float
    """Exact one-sided McNemar p over all paired attempts."""


@dataclass(frozen=True)
class FailureClass:
    """A kind of failure that grew on the candidate. Listed, never blocking."""

    name: str
    base_count: int
    base_n: int
    cand_count: int
    cand_n: int

    @property
    def base_rate(self) -> float:
        return self.base_count / self.base_n if self.base_n else 0.0

    @property
    def cand_rate(self) -> float:
        return self.cand_count / self.cand_n if self.cand_n else 0.0


@dataclass(frozen=True)
class TopUp:
    """More attempts wanted on both sides of one gate scenario."""

    scenario: str
    attempts: int
    reason: str


@dataclass(frozen=True)
class Finding:
    """One rule that fired, with its numbers in words."""

    rule: GateRule
    decision: GateDecision
    text: str
    scenario: str | None = None


@dataclass(frozen=True)
class Verdict:
    """The gate's answer and everything it was decided on."""

    decision: GateDecision
    rule: GateRule
    """The first rule that decided; ``go`` when none fired."""
    findings: tuple[Finding, ...]
    """The rules that decided, in order."""
    also: tuple[Finding, ...]
    """Rules that fired but were outranked (e.g. too few attempts beside a NO-GO)."""
    baseline: str
    candidate: str
    scenarios: tuple[ScenarioStats, ...]
    paired: Paired | None
    power: PowerReport | None
    failure_classes: tuple[FailureClass, ...]
    top_ups: tuple[TopUp, ...]
    notes: tuple[str, ...]
    rules: GateRules = SEED_RULES

    @property
    def underpowered(self) -> bool:
        """The attempts at hand could never fire rule (a)."""
        return self.power is not None and self.power.underpowered
