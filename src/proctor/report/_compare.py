"""Two runs side by side: per arm x model x mode row and per scenario, differences marked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from proctor.records import MetricRow, RunSummary, ScenarioRow
from proctor.report import _format as f

SAME, CHANGED, BETTER, WORSE = "", "≠", "▲", "▼"


@dataclass(frozen=True)
class Cell:
    """One metric of one row in both runs; ``mark`` says how they differ."""

    metric: str
    a: str
    b: str
    mark: str


@dataclass(frozen=True)
class RowDiff:
    row: str
    cells: list[Cell]

    @property
    def changed(self) -> bool:
        return any(c.mark for c in self.cells)


@dataclass(frozen=True)
class ScenarioDiff:
    scenario: str
    row: str
    a: str
    b: str
    mark: str


@dataclass(frozen=True)
class Comparison:
    a: str
    b: str
    rows: list[RowDiff]
    scenarios: list[ScenarioDiff]


Getter = Callable[[MetricRow], float | None]
METRICS: tuple[tuple[str, Getter, Callable[[float | None], str], bool], ...] = (
    ("success", lambda m: m.success, f.pct, True),
    ("success low", lambda m: m.success_low, f.pct, True),
    ("med calls", lambda m: m.median_planner_calls, f.num, False),
    ("med tokens", lambda m: m.median_tokens, f.num, False),
    ("med $", lambda m: m.median_cost_usd, f.money, False),
    ("med time", lambda m: m.median_seconds, f.secs, False),
    ("flip rate", lambda m: m.flip_rate, f.pct, False),
)
"""(name, value, format, higher is better)."""


def _mark(a: float | None, b: float | None, higher_better: bool, shown_a: str, shown_b: str) -> str:
    if shown_a == shown_b:
        return SAME
    if a is None or b is None:
        return CHANGED
    return BETTER if (b > a) == higher_better else WORSE


def _row_diff(name: str, a: MetricRow | None, b: MetricRow | None) -> RowDiff:
    cells = []
    for metric, get, fmt, higher in METRICS:
        va = get(a) if a else None
        vb = get(b) if b else None
        sa, sb = (fmt(va) if a else "-"), (fmt(vb) if b else "-")
        cells.append(Cell(metric, sa, sb, _mark(va, vb, higher, sa, sb)))
    ks = sorted({*(a.pass_k if a else {}), *(b.pass_k if b else {})})
    for k in ks:
        va = a.pass_k.get(k) if a else None
        vb = b.pass_k.get(k) if b else None
        sa, sb = f.pct(va), f.pct(vb)
        cells.append(Cell(f"pass^{k}", sa, sb, _mark(va, vb, True, sa, sb)))
    bars_a = f"{sum(x.met for x in a.bars)}/{len(a.bars)}" if a else "-"
    bars_b = f"{sum(x.met for x in b.bars)}/{len(b.bars)}" if b else "-"
    met_a = sum(x.met for x in a.bars) if a else None
    met_b = sum(x.met for x in b.bars) if b else None
    cells.append(Cell("bars met", bars_a, bars_b, _mark(met_a, met_b, True, bars_a, bars_b)))
    return RowDiff(name, cells)


def _scenario_text(row: ScenarioRow | None) -> str:
    return "-" if row is None else f.verdict(row)


def compare(a: RunSummary, b: RunSummary) -> Comparison:
    """Rows and scenarios of both runs, in A's order then B's new ones."""
    rows_a = {f.row_name(m): m for m in a.metrics}
    rows_b = {f.row_name(m): m for m in b.metrics}
    rows = [_row_diff(n, rows_a.get(n), rows_b.get(n)) for n in dict.fromkeys([*rows_a, *rows_b])]
    sc_a = {(r.scenario, f.row_name(r)): r for r in a.rows}
    sc_b = {(r.scenario, f.row_name(r)): r for r in b.rows}
    scenarios = []
    for key in dict.fromkeys([*sc_a, *sc_b]):
        ra, rb = sc_a.get(key), sc_b.get(key)
        if ra is None or rb is None:
            mark = "only in " + ("B" if ra is None else "A")
        elif ra.result != rb.result:
            fixed = rb.result == "passed"
            mark = (
                f"{BETTER} fixed"
                if fixed
                else (f"{WORSE} broke" if ra.result == "passed" else CHANGED)
            )
        elif (ra.passes, ra.attempts) != (rb.passes, rb.attempts):
            mark = CHANGED
        else:
            mark = SAME
        scenarios.append(ScenarioDiff(key[0], key[1], _scenario_text(ra), _scenario_text(rb), mark))
    return Comparison(a.label, b.label, rows, scenarios)
