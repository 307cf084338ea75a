"""Metrics per arm x model x mode: success with its Wilson interval, pass^k, medians, flips."""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from statistics import NormalDist
from typing import NamedTuple

from proctor.records import AttemptRecord, MetricRow
from proctor.vocab import FAULT_KINDS

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% normal quantile, 1.959963984540054."""

SUBSET_TOKENS = frozenset({"cached", "reasoning"})
"""Token kinds already counted inside input or output, so never added to the total."""


class RowKey(NamedTuple):
    """What a metrics row is about: one arm, with its model and mode."""

    arm: str
    model: str | None
    mode: str | None

    def text(self) -> str:
        """``arm``, then ``model`` and ``mode`` when set, joined by ' · '."""
        return " · ".join(p for p in (self.arm, self.model, self.mode) if p)


def row_key(record: AttemptRecord) -> RowKey:
    return RowKey(record.arm, record.model, record.mode)


def scored(records: Iterable[AttemptRecord]) -> list[AttemptRecord]:
    """Attempts graded passed or failed: infra errors and skips are never scored."""
    return [r for r in records if r.result in ("passed", "failed")]


def wilson(passes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for ``passes`` out of ``n``; None when ``n`` is 0."""
    if n <= 0:
        return None
    p = passes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def pass_hat_k(passes: int, n: int, k: int) -> float | None:
    """Unbiased pass^k for one scenario: C(c,k)/C(n,k); None when ``n < k``."""
    if k < 1 or n < k:
        return None
    return math.comb(passes, k) / math.comb(n, k)


def pass_k(per_scenario: Sequence[tuple[int, int]], k: int) -> tuple[float, int] | None:
    """Mean pass^k over scenarios given as (passes, n), leaving out those with n < k.

    Returns:
        (mean, scenarios used), or None when no scenario has ``n >= k``.
    """
    values = [v for c, n in per_scenario if (v := pass_hat_k(c, n, k)) is not None]
    if not values:
        return None
    return sum(values) / len(values), len(values)


def flip_rate(verdicts: Sequence[bool]) -> float | None:
    """Share of consecutive repeats whose verdict differs; None under two repeats."""
    if len(verdicts) < 2:
        return None
    flips = sum(a != b for a, b in itertools.pairwise(verdicts))
    return flips / (len(verdicts) - 1)


def total_tokens(tokens: dict[str, int]) -> int:
    """``total`` when the provider gave it, else every kind but the cached/reasoning subsets."""
    if "total" in tokens:
        return tokens["total"]
    return sum(v for k, v in tokens.items() if k not in SUBSET_TOKENS)


def median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


def median_known(values: Sequence[float | None]) -> float | None:
    """The median, or None when any value is unknown: an unknown is never guessed."""
    if not values or any(v is None for v in values):
        return None
    return float(statistics.median([v for v in values if v is not None]))


def by_scenario(records: Iterable[AttemptRecord]) -> dict[str, list[AttemptRecord]]:
    """Records by scenario in first-seen order, each list ordered by repeat."""
    groups: dict[str, list[AttemptRecord]] = {}
    for record in records:
        groups.setdefault(record.scenario, []).append(record)
    return {sid: sorted(group, key=lambda r: r.repeat) for sid, group in groups.items()}


def by_row(records: Iterable[AttemptRecord]) -> dict[RowKey, list[AttemptRecord]]:
    """Records by arm x model x mode in first-seen order."""
    groups: dict[RowKey, list[AttemptRecord]] = {}
    for record in records:
        groups.setdefault(row_key(record), []).append(record)
    return groups


def metric_row(key: RowKey, records: Sequence[AttemptRecord]) -> MetricRow:
    """Metrics of one row; bars are added by ``targets.mark``."""
    graded = scored(records)
    passes = sum(r.result == "passed" for r in graded)
    interval = wilson(passes, len(graded))
    scenarios = by_scenario(graded)
    counts = [(sum(r.result == "passed" for r in g), len(g)) for g in scenarios.values()]
    k_max = max((n for _, n in counts), default=0)
    pass_ks: dict[int, float] = {}
    used: dict[int, int] = {}
    for k in range(1, k_max + 1):
        found = pass_k(counts, k)
        if found is not None:
            pass_ks[k], used[k] = found
    flips = {
        sid: rate
        for sid, group in scenarios.items()
        if (rate := flip_rate([r.result == "passed" for r in group])) is not None
    }
    costs = [r.cost_usd for r in graded]
    return MetricRow(
        arm=key.arm,
        model=key.model,
        mode=key.mode,
        scenarios=len(scenarios),
        attempts=len(graded),
        passes=passes,
        infra_errors=sum(r.result == "error" for r in records),
        infra_faults=fault_kinds(records),
        not_run=sum(r.not_run is not None for r in records),
        success=passes / len(graded) if graded else None,
        success_low=interval[0] if interval else None,
        success_high=interval[1] if interval else None,
        pass_k=pass_ks,
        pass_k_scenarios=used,
        median_planner_calls=median([r.planner_calls for r in graded]),
        median_tokens=median([total_tokens(r.tokens) for r in graded]),
        median_cost_usd=median_known(costs),
        median_seconds=median([r.seconds for r in graded]),
        median_tool_calls=median([r.tool_calls for r in graded]),
        median_observations=median([r.observations for r in graded]),
        median_inputs=median([r.inputs for r in graded]),
        planner=any(plans(r) for r in graded),
        total_planner_calls=sum(r.planner_calls for r in graded),
        total_invalid_calls=sum(r.invalid_calls for r in graded),
        total_text_calls=sum(c.parsed_from_text for r in graded for c in r.planner),
        total_tokens=sum(total_tokens(r.tokens) for r in graded),
        total_cost_usd=(
            None if any(c is None for c in costs) else sum(c for c in costs if c is not None)
        ),
        total_seconds=round(sum(r.seconds for r in graded), 3),
        flip_rate=sum(flips.values()) / len(flips) if flips else None,
        flaky=[sid for sid, group in scenarios.items() if len({r.result for r in group}) > 1],
    )


def plans(record: AttemptRecord) -> bool:
    """A model planned the attempt, or its agent reported usage (calls, tokens or $).

    An agent without a planner records $0.00 and no calls: that is no usage.
    """
    return bool(record.model or record.planner_calls or record.tokens or record.cost_usd)


def fault_kinds(records: Sequence[AttemptRecord]) -> dict[str, int]:
    """Fault kind -> faulted tries over ``records``, in the vocabulary's order."""
    counts = Counter(f.kind for r in records for f in r.infra_faults)
    return {kind: counts[kind] for kind in FAULT_KINDS if counts[kind]}


def metric_rows(records: Sequence[AttemptRecord]) -> list[MetricRow]:
    """One row per arm x model x mode, in first-seen order."""
    return [metric_row(key, group) for key, group in by_row(records).items()]
