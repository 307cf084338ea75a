"""Power of a gate plan: which drops these repeats can detect under rule (a).

Rule (a) needs a Fisher p below ``alpha`` after Holm over the gate scenarios. A
single dropped scenario is at best the smallest p, where Holm multiplies by m;
so the best case for one scenario is ``m * p < alpha``. Power is exact: it sums
the binomial probabilities of every outcome pair that fires the rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from proctor.compare._rules import SEED_RULES, GateRules
from proctor.compare._stats import fisher_drop_p

_MAX_SUGGESTED_ATTEMPTS = 200


@dataclass(frozen=True)
class PowerReport:
    """What ``base_n`` and ``cand_n`` attempts over ``scenarios`` gate scenarios can detect."""

    base_n: int
    cand_n: int
    scenarios: int
    """m, the size of the Holm family."""
    alpha: float
    best_p: float
    """Fisher p of the most extreme outcome: all baseline attempts pass, none of the candidate's."""
    smallest_drop: float | None
    """Smallest observed drop (points) from a perfect baseline that fires rule (a), if any."""
    smallest_drop_passes: int | None
    """Candidate passes (of cand_n) at that smallest drop."""
    smallest_drop_p: float | None
    """Fisher p at that smallest drop, before Holm."""
    mde: float | None
    """Smallest true drop (points) from ``baseline_rate`` caught with probability ``power``."""
    baseline_rate: float
    power: float
    attempts_needed: int | None
    """Fewest attempts a side (equal sides) with which rule (a) can fire at all, for this m."""
    paired_possible: bool
    """Whether there are enough gate scenarios for rule (c)."""
    paired_min_scenarios: int

    @property
    def underpowered(self) -> bool:
        """The plan cannot detect the drops the rules name: rule (a) can never fire."""
        return self.smallest_drop is None

    def text(self) -> str:
        """One paragraph for the terminal, starting with "underpowered" when it is."""
        plan = (
            f"{self.base_n} attempts a side"
            if self.base_n == self.cand_n
            else f"{self.base_n} baseline and {self.cand_n} candidate attempts"
        )
        family = f"Holm over {self.scenarios} gate scenario{'s' if self.scenarios != 1 else ''}"
        bonf = min(1.0, self.scenarios * self.best_p)
        if self.smallest_drop is None:
            need = (
                f"use at least {self.attempts_needed} attempts a side"
                if self.attempts_needed is not None
                else "add attempts"
            )
            lines = [
                f"underpowered: {plan} with {family} can never reach NO-GO by rule (a): "
                f"the best Fisher p is {self.best_p:.3g} ({self.base_n}/{self.base_n} -> "
                f"0/{self.cand_n}), x{self.scenarios} = {bonf:.3g} >= {self.alpha:g}; {need}."
            ]
        else:
            at = self.smallest_drop_p or 1.0
            lines = [
                f"power: {plan} with {family}: the smallest drop that can reach NO-GO is "
                f"{self.smallest_drop:.0f} points ({self.base_n}/{self.base_n} -> "
                f"{self.smallest_drop_passes}/{self.cand_n}: Fisher p {at:.3g}, "
                f"x{self.scenarios} = {min(1.0, self.scenarios * at):.3g}"
                f" < {self.alpha:g})."
            ]
            if self.mde is not None:
                lines.append(
                    f"A true drop of {self.mde:.0f} points from {self.baseline_rate:.0%} is "
                    f"caught with {self.power:.0%} power."
                )
            else:
                lines.append(
                    f"No drop from {self.baseline_rate:.0%} is caught with {self.power:.0%} power."
                )
        if not self.paired_possible:
            lines.append(
                f"Rule (c) needs at least {self.paired_min_scenarios} gate scenarios; "
                f"it cannot fire with {self.scenarios}."
            )
        return " ".join(lines)


def _fires_a(xb: int, nb: int, xc: int, nc: int, m: int, rules: GateRules) -> bool:
    base = Fraction(xb, nb)
    drop = base - Fraction(xc, nc)
    if base * 100 < rules.baseline_min_pct or drop * 100 < rules.drop_min_points:
        return False
    return min(1.0, m * _fisher(xb, nb, xc, nc)) < rules.alpha


@cache
def _fisher(xb: int, nb: int, xc: int, nc: int) -> float:
    return fisher_drop_p(xb, nb, xc, nc)


def rejection_region(
    base_n: int, cand_n: int, scenarios: int, rules: GateRules = SEED_RULES
) -> frozenset[tuple[int, int]]:
    """Outcome pairs (baseline passes, candidate passes) for which rule (a) fires.

    Assumes the scenario holds the smallest p of the family (Holm's first step).
    """
    if base_n < 1 or cand_n < 1:
        return frozenset()
    m = max(1, scenarios)
    region: list[tuple[int, int]] = []
    for xb in range(base_n + 1):
        if Fraction(xb, base_n) * 100 < rules.baseline_min_pct:
            continue
        # Largest candidate count still a drop of drop_min_points or more.
        top = math.floor((Fraction(xb, base_n) - Fraction(rules.drop_min_points, 100)) * cand_n)
        if top < 0 or not _fires_a(xb, base_n, 0, cand_n, m, rules):
            continue
        # For a fixed baseline count, p grows with candidate passes: bisect the edge.
        lo, hi = 0, top
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if _fires_a(xb, base_n, mid, cand_n, m, rules):
                lo = mid
            else:
                hi = mid - 1
        region.extend((xb, xc) for xc in range(lo + 1))
    return frozenset(region)


def _power_of(
    region: frozenset[tuple[int, int]], base_n: int, cand_n: int, base: float, cand: float
) -> float:
    import numpy as np  # on first use, as scipy: most commands never need it
    from scipy import stats

    if not region:
        return 0.0
    xb, xc = (np.array(axis) for axis in zip(*region, strict=True))
    probs = stats.binom.pmf(xb, base_n, base) * stats.binom.pmf(xc, cand_n, cand)
    return float(np.sum(probs))


def fisher_power(
    base_n: int,
    cand_n: int,
    base_rate: float,
    cand_rate: float,
    scenarios: int,
    rules: GateRules = SEED_RULES,
) -> float:
    """Probability that rule (a) fires for a scenario whose true rates are as given."""
    if not (0.0 <= base_rate <= 1.0 and 0.0 <= cand_rate <= 1.0):
        raise ValueError("rates must lie in 0..1")
    region = rejection_region(base_n, cand_n, scenarios, rules)
    return _power_of(region, base_n, cand_n, base_rate, cand_rate)


def _attempts_needed(scenarios: int, rules: GateRules) -> int | None:
    m = max(1, scenarios)
    for n in range(1, _MAX_SUGGESTED_ATTEMPTS + 1):
        # The most extreme outcome has the smallest p; if it cannot fire, nothing can.
        if _fires_a(n, n, 0, n, m, rules):
            return n
    return None


def plan_power(
    base_n: int,
    cand_n: int,
    scenarios: int,
    rules: GateRules = SEED_RULES,
    *,
    baseline_rate: float = 1.0,
) -> PowerReport:
    """The smallest drops a plan can detect, and whether it is underpowered.

    Args:
        base_n: scored attempts per gate scenario on the baseline.
        cand_n: the same on the candidate.
        scenarios: gate scenarios in the Holm family (at least 1 is assumed).
        rules: thresholds of the verdict.
        baseline_rate: assumed true baseline rate for the power figure; gate
            scenarios passed every attempt when promoted, hence 1.0.
    """
    m = max(1, scenarios)
    region = rejection_region(base_n, cand_n, m, rules)
    best_p = _fisher(base_n, base_n, 0, cand_n) if base_n > 0 and cand_n > 0 else 1.0
    perfect = [xc for xb, xc in region if xb == base_n]
    smallest_passes = max(perfect) if perfect else None
    smallest_drop = (
        float(100 * (1 - Fraction(smallest_passes, cand_n)))
        if smallest_passes is not None
        else None
    )
    mde = None
    for points in range(1, round(baseline_rate * 100) + 1):
        cand_rate = max(0.0, baseline_rate - points / 100)
        if _power_of(region, base_n, cand_n, baseline_rate, cand_rate) >= rules.power:
            mde = float(points)
            break
    return PowerReport(
        base_n=base_n,
        cand_n=cand_n,
        scenarios=m,
        alpha=rules.alpha,
        best_p=best_p,
        smallest_drop=smallest_drop,
        smallest_drop_passes=smallest_passes,
        smallest_drop_p=(
            _fisher(base_n, base_n, smallest_passes, cand_n)
            if smallest_passes is not None
            else None
        ),
        mde=mde,
        baseline_rate=baseline_rate,
        power=rules.power,
        attempts_needed=_attempts_needed(m, rules),
        paired_possible=m >= rules.paired_min_scenarios,
        paired_min_scenarios=rules.paired_min_scenarios,
    )
