"""The statistics of the gate: Fisher for a drop, Holm, exact McNemar, sign-flip, t interval.

Every test the gate uses is one-sided towards "the candidate is worse", because the
gate only asks whether a change made the agent worse. ``mcnemar_p`` is the two-sided
McNemar that ``proctor models`` reports, where neither arm is the one under judgement.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

EXACT_SIGN_FLIP_MAX = 16
"""Up to this many scenarios the sign-flip test enumerates all 2^k flips."""

_SIGN_FLIP_DRAWS = 100_000
_TOLERANCE = 1e-9


class Interval(NamedTuple):
    """A mean with a two-sided confidence interval."""

    mean: float
    low: float
    high: float


def _check_counts(passes: int, n: int, side: str) -> None:
    if n < 0 or not 0 <= passes <= n:
        raise ValueError(f"{side}: passes={passes} must lie in 0..n with n={n} >= 0")


def fisher_drop_p(base_passes: int, base_n: int, cand_passes: int, cand_n: int) -> float:
    """One-sided Fisher exact p that the candidate passes less often than the baseline.

    With no attempt on a side there is no evidence, and the p is 1.
    """
    import numpy as np  # on first use, as scipy: most commands never need it
    from scipy import stats

    _check_counts(base_passes, base_n, "baseline")
    _check_counts(cand_passes, cand_n, "candidate")
    if base_n == 0 or cand_n == 0:
        return 1.0
    table = np.array([[base_passes, base_n - base_passes], [cand_passes, cand_n - cand_passes]])
    # "greater": the baseline row has the larger odds of passing.
    result = stats.fisher_exact(table, alternative="greater")
    return float(result.pvalue)


def holm(pvalues: Sequence[float]) -> tuple[float, ...]:
    """Holm step-down adjusted p-values, in the order given.

    The i-th smallest p is multiplied by (m - i + 1), capped at 1, and made
    monotone so that a larger raw p never gets a smaller adjusted one.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[index]))
        adjusted[index] = running
    return tuple(adjusted)


def mcnemar_drop_p(base_only: int, cand_only: int) -> float:
    """Exact one-sided McNemar p on paired attempts.

    Args:
        base_only: pairs the baseline passed and the candidate failed.
        cand_only: pairs the candidate passed and the baseline failed.
    """
    from scipy import stats  # on first use: most commands never need it

    if base_only < 0 or cand_only < 0:
        raise ValueError("discordant pair counts cannot be negative")
    discordant = base_only + cand_only
    if discordant == 0:
        return 1.0
    return float(stats.binomtest(base_only, discordant, 0.5, alternative="greater").pvalue)


def mcnemar_p(base_only: int, cand_only: int) -> float:
    """Exact two-sided McNemar p on paired attempts: do the two sides pass at different rates?

    Args:
        base_only: pairs the baseline passed and the candidate failed.
        cand_only: pairs the candidate passed and the baseline failed.
    """
    from scipy import stats  # on first use: most commands never need it

    if base_only < 0 or cand_only < 0:
        raise ValueError("discordant pair counts cannot be negative")
    discordant = base_only + cand_only
    if discordant == 0:
        return 1.0
    return float(stats.binomtest(base_only, discordant, 0.5, alternative="two-sided").pvalue)


def sign_flip_p(diffs: Sequence[float], *, seed: int = 0) -> float:
    """One-sided sign-flip permutation p that the paired differences are below zero.

    ``diffs`` are candidate minus baseline pass rates, one per scenario. Exact
    for up to ``EXACT_SIGN_FLIP_MAX`` scenarios; beyond that a seeded draw, so the
    same inputs give the same p.
    """
    import numpy as np  # on first use: most commands never need it

    k = len(diffs)
    if k == 0:
        return 1.0
    values = np.asarray(diffs, dtype=float)
    observed = float(values.sum())
    if k <= EXACT_SIGN_FLIP_MAX:
        # Row r flips scenario j when bit j of r is set: every assignment once.
        bits = (np.arange(2**k)[:, None] >> np.arange(k)) & 1
        totals = (1.0 - 2.0 * bits) @ values
        return float(np.mean(totals <= observed + _TOLERANCE))
    rng = np.random.default_rng(seed)
    hits = 0
    remaining = _SIGN_FLIP_DRAWS
    while remaining:
        chunk = min(remaining, 10_000)
        signs = rng.choice((1.0, -1.0), size=(chunk, k))
        hits += int(np.sum(signs @ values <= observed + _TOLERANCE))
        remaining -= chunk
    # The observed assignment counts as one draw, so p is never 0.
    return (hits + 1) / (_SIGN_FLIP_DRAWS + 1)


def mean_interval(diffs: Sequence[float], confidence: float = 0.95) -> Interval | None:
    """Student-t interval for the mean of paired differences; None with fewer than two."""
    from scipy import stats  # on first use: most commands never need it

    k = len(diffs)
    if k < 2:
        return None
    mean = math.fsum(diffs) / k
    sd = math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (k - 1))
    half = float(stats.t.ppf(0.5 + confidence / 2, k - 1)) * sd / math.sqrt(k)
    return Interval(mean, mean - half, mean + half)
