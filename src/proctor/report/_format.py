"""How numbers, bars and rows read, the same in the terminal, report.md and report.html."""

from __future__ import annotations

import datetime as dt
from typing import Protocol

from proctor.records import AttemptRecord, Bar, MetricRow, ScenarioRow
from proctor.report._metrics import plans, total_tokens
from proctor.report._targets import applies, value_of

NA = "n/a"
OP_SIGNS = {">=": "≥", ">": ">", "<=": "≤", "<": "<"}
NOT_APPLICABLE = "–"
"""A bar that does not apply to a row: no such number, so neither met nor unmet."""
METRIC_NAMES = {
    "success": "success",
    "planner_calls": "planner calls",
    "tokens": "tokens",
    "cost_usd": "$",
    "seconds": "time",
    "tool_calls": "tool calls",
    "observations": "observations",
    "inputs": "inputs",
}


def pct(value: float | None) -> str:
    if value is None:
        return NA
    return f"{value * 100:.0f}%" if (value * 100).is_integer() else f"{value * 100:.1f}%"


def money(value: float | None) -> str:
    if value is None:
        return NA
    return f"${value:.2f}" if round(value, 2) == value else f"${value:.4f}"


def num(value: float | None) -> str:
    if value is None:
        return NA
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def secs(value: float | None) -> str:
    if value is None:
        return NA
    return f"{value:.0f} s" if float(value).is_integer() else f"{value:.1f} s"


def faults(kinds: dict[str, int]) -> str:
    """``2 (browser 1, worker 1)``: faulted tries by kind, or 0."""
    total = sum(kinds.values())
    if not total:
        return "0"
    return f"{total} (" + ", ".join(f"{k} {n}" for k, n in kinds.items()) + ")"


def when(timestamp: float) -> str:
    """A Unix time as local ``YYYY-MM-DD HH:MM``."""
    return dt.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


def metric_value(metric: str, value: float | None) -> str:
    """A value in the unit of its metric."""
    if metric == "success" or metric.startswith("pass^"):
        return pct(value)
    if metric == "cost_usd":
        return money(value)
    if metric == "seconds":
        return secs(value)
    return num(value)


def median_cell(row: MetricRow, metric: str) -> str:
    """A row's median of ``metric`` in its unit; – when the row has no such number.

    Planner calls, tokens and $ do not apply to an agent with no model that reports
    no usage (``targets.applies``): its zeros are no usage, not a cheap run.
    """
    if not applies(row, metric):
        return NOT_APPLICABLE
    return metric_value(metric, value_of(row, metric))


def total_cell(row: MetricRow, metric: str, value: float | None) -> str:
    """A row's total of a planner number (calls, invalid calls, tokens, $); – as ``median_cell``."""
    if not row.planner:
        return NOT_APPLICABLE
    return metric_value(metric, value)


def usage_cells(record: AttemptRecord) -> tuple[str, str, str]:
    """One attempt's planner calls, tokens and $; – each when its agent reports no usage."""
    if not plans(record):
        return NOT_APPLICABLE, NOT_APPLICABLE, NOT_APPLICABLE
    tokens = total_tokens(record.tokens)
    return str(record.planner_calls), num(tokens), money(record.cost_usd)


def bar_title(bar: Bar) -> str:
    """E.g. ``success ≥ 90%``, ``$ ≤ $0.0500``, ``time < 120.0 s``."""
    name = METRIC_NAMES.get(bar.metric, bar.metric)
    return f"{name} {OP_SIGNS[bar.op]} {metric_value(bar.metric, bar.target)}"


def scored_none(row: MetricRow | None) -> bool:
    """The row has no scored attempt (its arm was skipped, or lost every try to infra)."""
    return row is not None and row.attempts == 0


def bar_cell(bar: Bar, row: MetricRow | None = None) -> str:
    """✓ or ✗, then the value; – when the bar does not apply; n/a for a row with no scored
    attempt (a skipped arm is unknown, not failed). An unknown value of a scored row reads
    ``✗ n/a``: it is never ✓."""
    if not bar.applies:
        return NOT_APPLICABLE
    if scored_none(row):
        return NA
    return f"{'✓' if bar.met else '✗'} {metric_value(bar.metric, bar.value)}"


def bar_state(bar: Bar, row: MetricRow | None = None) -> str:
    """How a bar cell is coloured: ``met``, ``unmet``, or ``none`` (– or a skipped arm's n/a)."""
    if not bar.applies or scored_none(row):
        return "none"
    return "met" if bar.met else "unmet"


def bars_met(row: MetricRow) -> str:
    """E.g. ``2/3``: bars met of those that apply to the row; n/a with no scored attempt."""
    if scored_none(row):
        return NA
    met, counted = row.bars_met()
    return f"{met}/{counted}"


class Named(Protocol):
    """Anything keyed by arm x model x mode."""

    @property
    def arm(self) -> str: ...
    @property
    def model(self) -> str | None: ...
    @property
    def mode(self) -> str | None: ...


def row_name(row: Named) -> str:
    """``arm``, then model and mode when set."""
    return " · ".join(p for p in (row.arm, row.model, row.mode) if p)


def interval(row: MetricRow) -> str:
    """Success with its Wilson 95% interval, e.g. ``66.7% [20.8–93.9]``."""
    if row.success is None or row.success_low is None or row.success_high is None:
        return NA
    return f"{pct(row.success)} [{row.success_low * 100:.1f}–{row.success_high * 100:.1f}]"


def interval_short(row: MetricRow) -> str:
    """The Wilson 95% interval alone, in whole percent, e.g. ``21–94%``."""
    if row.success_low is None or row.success_high is None:
        return NA
    return f"{row.success_low * 100:.0f}–{row.success_high * 100:.0f}%"


def pass_k_cell(row: MetricRow, k: int) -> str:
    """pass^k, with how many scenarios it covers when fewer than all."""
    value = row.pass_k.get(k)
    if value is None:
        return NA
    used = row.pass_k_scenarios.get(k, row.scenarios)
    return pct(value) + ("" if used == row.scenarios else f" ({used}/{row.scenarios} sc.)")


def verdict(row: ScenarioRow) -> str:
    """A scenario cell: ✓/✗ with passes/attempts, or the reason it was not scored."""
    if row.result == "error":
        return f"error ({row.infra_errors} infra)"
    if row.result == "skipped":
        return "skipped"
    mark = "✓" if row.result == "passed" else "✗"
    flaky = " ~" if row.flip_rate else ""
    return f"{mark} {row.passes}/{row.attempts}{flaky}"
