"""A ``ModelsComparison`` as a page of tables: the arms side by side, then every pair.

The same page is printed to the terminal and written as compare.md and compare.html
(``proctor.report.write_tables``), so the three never disagree.
"""

from __future__ import annotations

from proctor.compare._models import ArmColumn, ArmPair, ModelsComparison
from proctor.compare._results import ScenarioStats
from proctor.records import redact_secrets
from proctor.report import TableSection, TablesPage, metric_value

NA = "n/a"
NOT_APPLICABLE = "–"
"""A number the arm has no such thing as (no model, no usage reported): never a zero."""
ARM_METRICS = (
    "spec",
    "model · mode",
    "scored attempts",
    "success [95% CI]",
    "pass^k",
    "planner calls",
    "tokens",
    "$",
    "$ per success",
    "median decision latency",
)
"""The rows of the side-by-side table, in order (pass^k is shown with its k)."""


def _success(column: ArmColumn) -> str:
    row = column.row
    if row.success is None or row.success_low is None or row.success_high is None:
        return NA
    low, high = row.success_low * 100, row.success_high * 100
    return f"{metric_value('success', row.success)} [{low:.1f}–{high:.1f}]"


def _pass_k(column: ArmColumn) -> str:
    row = column.row
    value = row.pass_k.get(column.k)
    if value is None:
        return NA
    used = row.pass_k_scenarios.get(column.k, row.scenarios)
    shown = metric_value("success", value)
    return shown if used == row.scenarios else f"{shown} ({used}/{row.scenarios} scenarios)"


def _latency(column: ArmColumn) -> str:
    if column.median_latency_ms is None:
        return NA
    return f"{column.median_latency_ms:.0f} ms ({column.latency_calls} calls)"


def _arm_cells(column: ArmColumn) -> tuple[str, ...]:
    row = column.row
    planned = row.planner
    return (
        redact_secrets(column.spec),
        " · ".join(p for p in (row.model, row.mode) if p) or NA,
        f"{row.passes} passed of {row.attempts}",
        _success(column),
        _pass_k(column),
        metric_value("planner_calls", row.total_planner_calls) if planned else NOT_APPLICABLE,
        metric_value("tokens", row.total_tokens) if planned else NOT_APPLICABLE,
        metric_value("cost_usd", row.total_cost_usd) if planned else NOT_APPLICABLE,
        metric_value("cost_usd", column.cost_per_success) if planned else NOT_APPLICABLE,
        _latency(column),
    )


def arms_section(comparison: ModelsComparison) -> TableSection:
    """One column per arm, one row per metric."""
    columns = comparison.columns
    values = [_arm_cells(c) for c in columns]
    names = [m if m != "pass^k" else f"pass^{comparison.repeats}" for m in ARM_METRICS]
    rows = tuple((name, *(v[i] for v in values)) for i, name in enumerate(names))
    notes = [
        "Over scored attempts (passed or failed): infra errors and skipped attempts are in "
        f"no denominator. pass^{comparison.repeats}: the chance that all "
        f"{comparison.repeats} attempts of a scenario pass, averaged over scenarios. "
        "Planner calls, tokens and $ are totals.",
    ]
    notes += [f"arm {c.arm} was skipped: {c.skip}" for c in columns if c.skip]
    notes += [
        f"arm {c.arm} was answered by a replay provider: a recording, not a model result"
        for c in columns
        if c.recorded
    ]
    return TableSection(
        title="Arms",
        header=("metric", *(c.arm for c in columns)),
        rows=rows,
        notes=tuple(notes),
        anchor="arms",
    )


def _points(value: float) -> str:
    return f"{value * 100:+.1f} points"


def _interval(pair: ArmPair) -> str:
    paired = pair.paired
    if paired is None or paired.low is None or paired.high is None:
        return f"{NA} (fewer than two scenarios)"
    # A difference of pass rates lies in [-100, +100] points; the t interval of a few
    # scenarios can pass those bounds, which says only that it is wide.
    low, high = max(paired.low, -1.0), min(paired.high, 1.0)
    return f"[{low * 100:+.1f}, {high * 100:+.1f}] points"


def _pair_cells(pair: ArmPair) -> tuple[str, ...]:
    paired = pair.paired
    if paired is None:
        return (pair.baseline, pair.other, "0", "0", "0", "0", f"{pair.mcnemar_p:.3g}", NA, NA)
    return (
        pair.baseline,
        pair.other,
        str(paired.scenarios),
        str(paired.pairs),
        str(paired.base_only),
        str(paired.cand_only),
        f"{pair.mcnemar_p:.3g}",
        _points(paired.mean),
        _interval(pair),
    )


def pairs_section(comparison: ModelsComparison) -> TableSection:
    """One row per pair: the discordant pairs, McNemar, the mean difference and its interval."""
    confidence = f"{comparison.confidence:.0%}"
    return TableSection(
        title="Paired by scenario",
        header=(
            "baseline", "other", "scenarios", "pairs", "baseline only", "other only",
            "McNemar p (two-sided)", "other − baseline", f"{confidence} interval",
        ),
        rows=tuple(_pair_cells(p) for p in comparison.pairs),
        notes=(
            "Paired as the gate pairs: a scenario's attempts of the two arms by repeat number. "
            "baseline only / other only: pairs only that arm passed; McNemar is exact, on "
            "those discordant pairs. other − baseline: the mean over scenarios of the "
            f"difference in pass rate, with its {confidence} Student-t interval (over few "
            "scenarios it is wide; it is shown clipped to ±100 points).",
        ),
        anchor="pairs",
    )  # fmt: skip


def _rate(passes: int, n: int) -> str:
    return f"{passes}/{n} ({metric_value('success', passes / n)})" if n else NA


def _difference(s: ScenarioStats) -> str:
    if s.drop_points is None:
        return NA
    return f"{0.0 - s.drop_points:+.1f} points"  # never "-0.0"


def pair_section(pair: ArmPair, index: int) -> TableSection:
    """One pair, per scenario."""
    rows = tuple(
        (
            s.scenario,
            _rate(s.base_passes, s.base_n),
            _rate(s.cand_passes, s.cand_n),
            str(s.pairs),
            str(s.base_only),
            str(s.cand_only),
            _difference(s),
        )
        for s in pair.scenarios
    )
    return TableSection(
        title=f"{pair.baseline} vs {pair.other}, per scenario",
        header=(
            "scenario",
            pair.baseline,
            pair.other,
            "pairs",
            f"{pair.baseline} only",
            f"{pair.other} only",
            f"{pair.other} − {pair.baseline}",
        ),
        rows=rows,
        anchor=f"pair-{index}",
    )


def models_page(comparison: ModelsComparison) -> TablesPage:
    """The page: the run, the arms side by side, the pairs, then each pair per scenario."""
    names = ", ".join(c.arm for c in comparison.columns)
    intro = (
        f"run {comparison.label}: {comparison.scenarios} scenario(s) x "
        f"{len(comparison.columns)} model arm(s) ({names}) x {comparison.repeats} repeat(s), "
        "in one plan; within each repeat the arm order rotates by the repeat, so no arm "
        "always runs first.",
    )
    sections = [arms_section(comparison), pairs_section(comparison)]
    sections += [pair_section(p, i) for i, p in enumerate(comparison.pairs, 1)]
    return TablesPage(
        title=f"proctor models: {comparison.label}", intro=intro, sections=tuple(sections)
    )
