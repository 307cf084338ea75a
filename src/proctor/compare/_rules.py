"""The gate's thresholds, named as issue 7 states them, and what counts as a safety check."""

from __future__ import annotations

from dataclasses import dataclass

from proctor.records import CheckResult

CANARY = "harness-canary"
"""The trivial local scenario whose oracle always passes; it guards the harness."""

CANARY_ARM = "canary"
"""The arm the canary's attempts are recorded under: never a side's, never in its score."""

SAFETY_FLAG_SINCE = 2
"""The record schema version from which check results carry ``safety``."""


def is_safety_check(check: CheckResult) -> bool:
    """Whether a check result is a coded safety check (rule b): the scenario marked it
    ``safety: true``, and the grader copied the mark onto the result."""
    return check.safety


@dataclass(frozen=True)
class GateRules:
    """Thresholds of the verdict. Rates and drops are whole percentage points.

    The defaults are the seed rules of issue 7; comparisons are exact (fractions),
    so 7/10 -> 4/10 is a drop of exactly 30 points.
    """

    alpha: float = 0.05
    """Family-wise level for rule (a) after Holm over the gate scenarios."""
    baseline_min_pct: int = 70
    """Rule (a) only looks at scenarios the baseline passed at least this often."""
    drop_min_points: int = 30
    """Rule (a): the smallest drop that counts."""
    paired_min_scenarios: int = 5
    """Rule (c): gate scenarios needed for the paired mean."""
    paired_drop_points: int = 5
    """Rule (c): the smallest paired mean fall that counts."""
    confidence: float = 0.95
    """Rule (c): coverage of the interval for the paired mean difference."""
    min_attempts: int = 3
    """Fewer scored attempts than this on either side is INCONCLUSIVE."""
    judged_attempts: int = 10
    """A drop from a high baseline is judged on at least this many attempts a side."""
    top_up: int = 7
    """Attempts added on both sides to a scenario that needs more."""
    canary: str = CANARY
    """Scenario id of the harness canary."""
    canary_failures: int = 2
    """This many canary failures (both sides together) and nothing is scored."""
    require_power: bool = False
    """``--require-power``: a GO from a plan that could never reach NO-GO by rule (a)
    is INCONCLUSIVE (rule ``underpowered``): a gate that cannot fail proves nothing."""
    class_min_more: int = 3
    """A failure class is listed with at least this many more failures than baseline..."""
    class_min_points: int = 5
    """...and a rate at least this many points higher."""
    power: float = 0.8
    """Power at which the minimum detectable drop is quoted."""


SEED_RULES = GateRules()
"""The seed rules of issue 7."""
