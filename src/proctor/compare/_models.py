"""``proctor models``: the model arms of one run side by side, then paired by scenario.

An arm's numbers are the report's (``metric_row``: success with its Wilson 95%
interval, pass^k, planner calls, tokens, $), over its scored attempts only; the
decision latency is the median of the planner calls of those attempts. A pair's
numbers are the gate's (``paired_stats``): a scenario's attempts paired by repeat
number, the exact McNemar test on the discordant pairs summed over scenarios (here
two-sided: neither arm is the one under judgement), and the Student-t interval of the
per-scenario differences in pass rate.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from proctor.compare._results import Paired, ScenarioStats
from proctor.compare._rules import SEED_RULES
from proctor.compare._stats import mcnemar_p
from proctor.compare._tally import is_scored
from proctor.compare._verdict import paired_stats
from proctor.records import AttemptRecord, MetricRow
from proctor.report import RowKey, metric_row

ALL_PAIRS_MAX = 4
"""Up to this many arms every pair is compared; beyond it, the first arm against each other."""


@dataclass(frozen=True)
class ArmColumn:
    """One model arm's numbers over its scored attempts."""

    arm: str
    spec: str
    """As the run planned it (``--vision``/``--prices`` added)."""
    row: MetricRow
    """The report's metrics row of the arm."""
    k: int
    """The k of pass^k: the run's repeats."""
    cost_per_success: float | None
    """Total $ over passes; None without a pass or with an unknown $."""
    median_latency_ms: float | None
    """Median decision latency of the planner calls; None without a call."""
    latency_calls: int
    """Planner calls the median is over."""
    recorded: bool
    """Some reply came from the replay provider: a recording, not a model result."""
    skip: str | None
    """Why the arm's attempts were skipped (e.g. no API key); None when they ran."""


@dataclass(frozen=True)
class ArmPair:
    """Two arms paired by scenario; ``other`` minus ``baseline``."""

    baseline: str
    other: str
    scenarios: tuple[ScenarioStats, ...]
    """Per scenario: passes and attempts of each (``base_*`` is the baseline, ``cand_*`` the
    other), pairs by repeat and the discordant ones."""
    paired: Paired | None
    """The gate's paired comparison; None when no scenario was scored on both arms."""
    mcnemar_p: float
    """Exact two-sided McNemar p over every pair of attempts."""


@dataclass(frozen=True)
class ModelsComparison:
    """The arms of one run side by side, and their pairs."""

    label: str
    repeats: int
    scenarios: int
    columns: tuple[ArmColumn, ...]
    pairs: tuple[ArmPair, ...]
    confidence: float


def arm_pairs(names: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair (earlier arm as baseline) up to ``ALL_PAIRS_MAX`` arms, else first vs each."""
    if len(names) <= ALL_PAIRS_MAX:
        return list(itertools.combinations(names, 2))
    return [(names[0], other) for other in names[1:]]


def _column(arm: str, spec: str, records: Sequence[AttemptRecord], k: int) -> ArmColumn:
    first = next((r for r in records if r.model), records[0] if records else None)
    key = RowKey(arm, first.model if first else None, first.mode if first else None)
    row = metric_row(key, records)
    graded = [r for r in records if is_scored(r)]
    latencies = [c.latency_ms for r in graded for c in r.planner]
    cost = row.total_cost_usd
    skipped = [r for r in records if r.result == "skipped"]
    return ArmColumn(
        arm=arm,
        spec=spec,
        row=row,
        k=k,
        cost_per_success=cost / row.passes if cost is not None and row.passes else None,
        median_latency_ms=float(statistics.median(latencies)) if latencies else None,
        latency_calls=len(latencies),
        recorded=any(c.recorded for r in records for c in r.planner),
        skip=(skipped[0].stop_detail or "skipped") if skipped and not graded else None,
    )


def compare_models(
    label: str,
    records: Sequence[AttemptRecord],
    arms: Mapping[str, str],
    repeats: int,
) -> ModelsComparison:
    """The arms of run ``label`` side by side and paired (see the module's docstring).

    Args:
        label: The run's label.
        records: Every attempt record of the run.
        arms: Arm name -> spec, in the order given on the command line (the first
            is the baseline of every pair it is in).
        repeats: The run's repeats: the k of pass^k.
    """
    by_arm: dict[str, list[AttemptRecord]] = {name: [] for name in arms}
    for record in records:
        if record.arm in by_arm:
            by_arm[record.arm].append(record)
    columns = tuple(_column(name, spec, by_arm[name], repeats) for name, spec in arms.items())
    pairs = []
    for base, other in arm_pairs(list(arms)):
        stats, paired = paired_stats(by_arm[base], by_arm[other], SEED_RULES)
        pairs.append(
            ArmPair(
                baseline=base,
                other=other,
                scenarios=stats,
                paired=paired,
                mcnemar_p=mcnemar_p(paired.base_only, paired.cand_only) if paired else 1.0,
            )
        )
    return ModelsComparison(
        label=label,
        repeats=repeats,
        scenarios=len({r.scenario for r in records if r.arm in by_arm}),
        columns=columns,
        pairs=tuple(pairs),
        confidence=SEED_RULES.confidence,
    )
