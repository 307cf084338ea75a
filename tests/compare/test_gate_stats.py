"""The gate's statistics, checked against scipy and against hand computation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from proctor.compare import (
    fisher_drop_p,
    fisher_power,
    holm,
    mcnemar_drop_p,
    mcnemar_p,
    mean_interval,
    plan_power,
    rejection_region,
    sign_flip_p,
)


@pytest.mark.parametrize(
    ("bp", "bn", "cp", "cn"),
    [(10, 10, 2, 10), (5, 5, 0, 5), (7, 10, 4, 10), (3, 3, 3, 3), (0, 4, 4, 4), (18, 20, 9, 15)],
)
def test_fisher_matches_scipy_one_sided(bp: int, bn: int, cp: int, cn: int) -> None:
    expected = stats.fisher_exact(
        np.array([[bp, bn - bp], [cp, cn - cp]]), alternative="greater"
    ).pvalue
    assert fisher_drop_p(bp, bn, cp, cn) == pytest.approx(expected, rel=1e-12)


def test_fisher_matches_the_hypergeometric_tail_by_hand() -> None:
    # 10/10 vs 2/10: 12 passes among 20; P(all 10 baseline attempts among them).
    assert fisher_drop_p(10, 10, 2, 10) == pytest.approx(
        math.comb(10, 10) * math.comb(10, 2) / math.comb(20, 12), rel=1e-12
    )
    assert fisher_drop_p(5, 5, 0, 5) == pytest.approx(1 / 252, rel=1e-12)


def test_fisher_without_attempts_on_a_side_is_no_evidence() -> None:
    assert fisher_drop_p(0, 0, 0, 5) == 1.0
    with pytest.raises(ValueError, match="passes=6"):
        fisher_drop_p(6, 5, 0, 5)


def test_holm_by_hand() -> None:
    # Sorted: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1=0.04 -> monotone 0.06.
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx((0.03, 0.06, 0.06, 0.02), abs=1e-15)
    assert holm([0.5, 0.9]) == pytest.approx((1.0, 1.0))
    assert holm([]) == ()
    assert holm([0.2]) == (0.2,)


def test_holm_by_hand_with_a_monotone_step() -> None:
    ps = [0.001, 0.2, 0.013, 0.04, 0.0049, 0.6, 0.011]
    # Sorted x (7..1): 0.007, 0.0294, 0.055, 0.052 -> 0.055 (monotone), 0.12, 0.4, 0.6.
    expected = (0.007, 0.4, 0.055, 0.12, 0.0294, 0.6, 0.055)
    assert holm(ps) == pytest.approx(expected, abs=1e-12)
    # Holm never rejects less than Bonferroni.
    assert all(h <= min(1.0, 7 * p) + 1e-15 for h, p in zip(holm(ps), ps, strict=True))


def test_mcnemar_exact_against_binomial() -> None:
    expected = stats.binomtest(6, 7, 0.5, alternative="greater").pvalue
    assert mcnemar_drop_p(6, 1) == pytest.approx(expected)
    assert mcnemar_drop_p(6, 1) == pytest.approx(8 / 128)
    assert mcnemar_drop_p(0, 0) == 1.0


def test_two_sided_mcnemar_counts_both_tails() -> None:
    # P(X >= 6) + P(X <= 1) for X ~ Bin(7, 1/2): (1 + 7) / 128 on each side.
    assert mcnemar_p(6, 1) == pytest.approx(16 / 128)
    assert mcnemar_p(1, 6) == mcnemar_p(6, 1)
    assert mcnemar_p(2, 0) == pytest.approx(0.5)
    assert mcnemar_p(3, 3) == 1.0
    assert mcnemar_p(0, 0) == 1.0


def test_sign_flip_enumerates_every_assignment() -> None:
    diffs = [-0.1, -0.2, 0.0, -0.3, 0.1]
    observed = sum(diffs)
    flips = list(itertools.product((1, -1), repeat=len(diffs)))
    hand = sum(sum(s * d for s, d in zip(f, diffs, strict=True)) <= observed + 1e-12 for f in flips)
    assert sign_flip_p(diffs) == pytest.approx(hand / len(flips))
    assert sign_flip_p([-0.1] * 5) == pytest.approx(1 / 32)
    assert sign_flip_p([]) == 1.0


def test_sign_flip_draws_are_seeded_beyond_exact_size() -> None:
    diffs = [-0.1] * 12 + [0.0] * 8
    first = sign_flip_p(diffs)
    assert first == sign_flip_p(diffs)
    # Exact answer is 2^-12 (only the all-negative flips of the 12 reach the sum).
    assert first == pytest.approx(2**-12, abs=5e-4)


def test_mean_interval_is_student_t() -> None:
    diffs = [-0.1, -0.2, 0.0, -0.3, -0.1]
    got = mean_interval(diffs)
    assert got is not None
    sem = stats.sem(diffs)
    low, high = stats.t.interval(0.95, len(diffs) - 1, loc=sum(diffs) / 5, scale=sem)
    assert (got.low, got.high) == pytest.approx((low, high))
    assert mean_interval([-0.1]) is None
    flat = mean_interval([-0.1] * 6)
    assert flat is not None and flat.low == pytest.approx(-0.1) and flat.high == pytest.approx(-0.1)


def test_five_attempts_a_side_is_the_least_that_can_reach_no_go_over_ten() -> None:
    assert plan_power(4, 4, 10).underpowered
    five = plan_power(5, 5, 10)
    assert not five.underpowered
    assert five.attempts_needed == 5
    assert five.smallest_drop == 100.0 and five.smallest_drop_passes == 0
    assert rejection_region(5, 5, 10) == frozenset({(5, 0)})


def test_two_repeats_are_underpowered_and_say_so() -> None:
    report = plan_power(2, 2, 10)
    assert report.underpowered
    assert report.smallest_drop is None and report.mde is None
    assert report.best_p == pytest.approx(1 / 6)
    assert report.text().startswith("underpowered: 2 attempts a side")
    assert "at least 5 attempts a side" in report.text()


def test_power_is_exact_enumeration() -> None:
    # With 5 a side over 10 scenarios only 5/5 -> 0/5 fires, so power is P(all fail).
    assert fisher_power(5, 5, 1.0, 0.5, 10) == pytest.approx(0.5**5)
    # MDE at 80%: smallest d with (d/100)^5 >= 0.8 is 96 points.
    assert plan_power(5, 5, 10).mde == 96.0
    # 10 a side: 10/10 -> 3/10 fires (p=0.00155 < 0.005), 4/10 does not (p=0.0054).
    region = rejection_region(10, 10, 10)
    assert (10, 3) in region and (10, 4) not in region
    assert plan_power(10, 10, 10).smallest_drop == 70.0
    by_hand = sum(stats.binom.pmf(k, 10, 0.5) for k in range(4))
    assert fisher_power(10, 10, 1.0, 0.5, 10) == pytest.approx(by_hand)


def test_power_respects_the_rule_a_thresholds() -> None:
    # 70/100 -> 40/100 is a drop of exactly 30 points from exactly 70% (in floats
    # 0.7 - 0.4 < 0.3); 69/100 -> 0/100 starts below 70%; 100 -> 71 drops 29 points.
    region = rejection_region(100, 100, 1)
    assert (70, 40) in region
    assert (69, 0) not in region
    assert (100, 71) not in region


def test_paired_rule_is_flagged_impossible_under_five_scenarios() -> None:
    report = plan_power(10, 10, 3)
    assert not report.paired_possible
    assert "Rule (c) needs at least 5 gate scenarios" in report.text()


@pytest.mark.parametrize(("nb", "nc", "m"), [(5, 5, 10), (10, 10, 10), (12, 7, 3), (20, 20, 1)])
def test_rejection_region_equals_brute_force(nb: int, nc: int, m: int) -> None:
    brute = set()
    for xb in range(nb + 1):
        for xc in range(nc + 1):
            high = 100 * xb >= 70 * nb
            drop = 100 * (xb * nc - xc * nb) >= 30 * nb * nc
            if high and drop and min(1.0, m * fisher_drop_p(xb, nb, xc, nc)) < 0.05:
                brute.add((xb, xc))
    assert rejection_region(nb, nc, m) == frozenset(brute)
