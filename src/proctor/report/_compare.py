"""Two runs side by side: per arm x model x mode row and per scenario, differences marked.

Rows are matched by name, so the numbers alone cannot tell that arm ``bad`` was
the null agent in A and a command agent in B. ``compare_warnings`` says so: an
arm present in both runs whose spec (as run.json recorded it), agent kind,
model or mode differs, and a scenario whose file hash differs between the runs
or within one of them.

Numbers of two runs compare only over the same scenarios: ``compare_runs``
summarizes each run over the scenarios both hold (``ScenarioSets``), warns when
the sets differ, and the per-scenario table lists the largest change first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from proctor.records import AttemptRecord, MetricRow, RunSummary, ScenarioRow, redact_secrets
from proctor.report import _format as f
from proctor.report._load import StoredRun
from proctor.report._summary import summarize
from proctor.report._targets import Targets, applies
from proctor.vocab import RunDifference

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
    change: float | None = None
    """B's pass rate minus A's (-1 to 1); None when either side has no scored attempt."""


NAMES_SHOWN = 5
"""Scenario ids named in the scenario-set warning; the rest are counted."""


@dataclass(frozen=True)
class ScenarioSets:
    """Which scenarios each run holds: only the shared ones are compared."""

    shared: list[str]
    only_a: list[str]
    only_b: list[str]

    @property
    def differ(self) -> bool:
        return bool(self.only_a or self.only_b)

    @property
    def text(self) -> str:
        """``compared on 2 shared scenarios; 48 only in A, 0 only in B``."""
        return (
            f"compared on {len(self.shared)} shared scenario(s); "
            f"{len(self.only_a)} only in A, {len(self.only_b)} only in B"
        )


def scenario_sets(a: Iterable[str], b: Iterable[str]) -> ScenarioSets:
    """The scenario ids of A and B, split into shared, only in A, only in B (first-seen order)."""
    ids_a, ids_b = dict.fromkeys(a), dict.fromkeys(b)
    return ScenarioSets(
        shared=[s for s in ids_a if s in ids_b],
        only_a=[s for s in ids_a if s not in ids_b],
        only_b=[s for s in ids_b if s not in ids_a],
    )


def _named(ids: list[str]) -> str:
    shown = ", ".join(ids[:NAMES_SHOWN])
    more = len(ids) - NAMES_SHOWN
    return shown + (f", … (+{more})" if more > 0 else "")


def _sets_warning(sets: ScenarioSets) -> CompareWarning:
    parts = [sets.text]
    if sets.only_a:
        parts.append(f"only in A: {_named(sets.only_a)}")
    if sets.only_b:
        parts.append(f"only in B: {_named(sets.only_b)}")
    text = "scenario sets differ, " + "; ".join(parts)
    a, b = len(sets.shared) + len(sets.only_a), len(sets.shared) + len(sets.only_b)
    return CompareWarning("scenarios", "scenarios", f"{a} scenario(s)", f"{b} scenario(s)", text)


"""What differs: an arm's spec, agent kind (when a run.json lacks the spec), model or
mode, or a scenario file's hash."""

SHA_SHOWN = 6
"""Hex digits of a scenario hash shown in a warning's text."""


@dataclass(frozen=True)
class CompareWarning:
    """Something that differs in how the two runs were made, so their numbers may not compare.

    ``a`` and ``b`` are the values in each run (several joined by ``, ``; ``none``
    for no value); specs are as run.json recorded them, with the environment's
    secrets redacted.
    """

    kind: RunDifference
    subject: str
    """The arm's name, or the scenario's id."""
    a: str
    b: str
    text: str
    """One line for people, e.g. ``arm bad: spec null in A, command:./agent.sh in B``."""


@dataclass(frozen=True)
class Comparison:
    a: str
    b: str
    rows: list[RowDiff]
    scenarios: list[ScenarioDiff]
    warnings: list[CompareWarning] = field(default_factory=list)
    sets: ScenarioSets = field(default_factory=lambda: ScenarioSets([], [], []))

    @property
    def changed_rows(self) -> int:
        return sum(d.changed for d in self.rows)

    @property
    def changed_scenarios(self) -> int:
        return sum(bool(sd.mark) for sd in self.scenarios)


Getter = Callable[[MetricRow], float | None]
METRICS: tuple[tuple[str, Getter, Callable[[float | None], str], bool, str | None], ...] = (
    ("success", lambda m: m.success, f.pct, True, None),
    ("success low", lambda m: m.success_low, f.pct, True, None),
    ("med calls", lambda m: m.median_planner_calls, f.num, False, "planner_calls"),
    ("med tokens", lambda m: m.median_tokens, f.num, False, "tokens"),
    ("med $", lambda m: m.median_cost_usd, f.money, False, "cost_usd"),
    ("med time", lambda m: m.median_seconds, f.secs, False, None),
    ("flip rate", lambda m: m.flip_rate, f.pct, False, None),
)
"""(name, value, format, higher is better, the bar metric whose ``applies`` rules it)."""


def _mark(a: float | None, b: float | None, higher_better: bool, shown_a: str, shown_b: str) -> str:
    if shown_a == shown_b:
        return SAME
    if a is None or b is None:
        return CHANGED
    return BETTER if (b > a) == higher_better else WORSE


def _side(
    row: MetricRow | None, get: Getter, fmt: Callable[[float | None], str], bar: str | None
) -> tuple[float | None, str]:
    """One side's value and text: ``-`` without the row, ``–`` where the number does not apply."""
    if row is None:
        return None, "-"
    if bar is not None and not applies(row, bar):
        return None, f.NOT_APPLICABLE
    value = get(row)
    return value, fmt(value)


def _row_diff(name: str, a: MetricRow | None, b: MetricRow | None) -> RowDiff:
    cells = []
    for metric, get, fmt, higher, bar in METRICS:
        (va, sa), (vb, sb) = _side(a, get, fmt, bar), _side(b, get, fmt, bar)
        cells.append(Cell(metric, sa, sb, _mark(va, vb, higher, sa, sb)))
    ks = sorted({*(a.pass_k if a else {}), *(b.pass_k if b else {})})
    for k in ks:
        va = a.pass_k.get(k) if a else None
        vb = b.pass_k.get(k) if b else None
        sa, sb = f.pct(va), f.pct(vb)
        cells.append(Cell(f"pass^{k}", sa, sb, _mark(va, vb, True, sa, sb)))
    bars_a = f.bars_met(a) if a else "-"
    bars_b = f.bars_met(b) if b else "-"
    met_a = a.bars_met()[0] if a else None
    met_b = b.bars_met()[0] if b else None
    cells.append(Cell("bars met", bars_a, bars_b, _mark(met_a, met_b, True, bars_a, bars_b)))
    return RowDiff(name, cells)


def _scenario_text(row: ScenarioRow | None) -> str:
    return "-" if row is None else f.verdict(row)


def arm_specs(run: StoredRun) -> dict[str, str]:
    """Each arm's spec as run.json's config recorded it (``NAME=SPEC``); empty without one."""
    arms = run.info.config.get("arms") if run.info is not None else None
    specs: dict[str, str] = {}
    for item in arms if isinstance(arms, list) else []:
        if isinstance(item, str):
            name, sep, spec = item.partition("=")  # an arm name never holds "="
            if sep and name:
                specs.setdefault(name, spec)
    return specs


def _values(records: Iterable[AttemptRecord], get: Callable[[AttemptRecord], str | None]) -> str:
    """The distinct values, in the order first seen, joined; ``none`` for a missing one."""
    return ", ".join(dict.fromkeys(get(r) or "none" for r in records))


def _arm_warnings(a: StoredRun, b: StoredRun) -> list[CompareWarning]:
    specs_a, specs_b = arm_specs(a), arm_specs(b)
    by_arm_a: dict[str, list[AttemptRecord]] = {name: [] for name in specs_a}
    by_arm_b: dict[str, list[AttemptRecord]] = {name: [] for name in specs_b}
    for r in a.records:
        by_arm_a.setdefault(r.arm, []).append(r)
    for r in b.records:
        by_arm_b.setdefault(r.arm, []).append(r)
    out = []
    for arm in (name for name in by_arm_a if name in by_arm_b):
        ra, rb = by_arm_a[arm], by_arm_b[arm]
        pairs: list[tuple[RunDifference, str, str]] = []
        if arm in specs_a and arm in specs_b:
            pairs.append(("spec", redact_secrets(specs_a[arm]), redact_secrets(specs_b[arm])))
        elif ra and rb:  # a run without run.json: the agent kind is what the records say
            pairs.append(("agent", _values(ra, lambda r: r.agent), _values(rb, lambda r: r.agent)))
        if ra and rb:
            pairs.append(("model", _values(ra, lambda r: r.model), _values(rb, lambda r: r.model)))
            pairs.append(("mode", _values(ra, lambda r: r.mode), _values(rb, lambda r: r.mode)))
        for kind, va, vb in pairs:
            if va != vb:
                text = f"arm {arm}: {kind} {va} in A, {vb} in B"
                out.append(CompareWarning(kind, arm, va, vb, text))
    return out


def _hashes(records: Iterable[AttemptRecord]) -> dict[str, list[str]]:
    """Each scenario's distinct file hashes, in the order first run."""
    hashes: dict[str, dict[str, None]] = {}
    for r in records:
        hashes.setdefault(r.scenario, {})[r.scenario_sha256] = None
    return {sid: list(shas) for sid, shas in hashes.items()}


def _short(shas: list[str]) -> str:
    return ", ".join(f"{sha[:SHA_SHOWN]}…" if len(sha) > SHA_SHOWN else sha for sha in shas)


def _scenario_warnings(a: StoredRun, b: StoredRun) -> list[CompareWarning]:
    hashes_a, hashes_b = _hashes(a.records), _hashes(b.records)
    out = []
    for sid in (s for s in hashes_a if s in hashes_b):
        ha, hb = hashes_a[sid], hashes_b[sid]
        if set(ha) != set(hb):
            what = "file changed"
        elif len(ha) > 1:  # the same hashes in both, but the file changed within each run
            what = "file changed within each run"
        else:
            continue
        text = f"scenario {sid}: {what} (sha {_short(ha)} in A, {_short(hb)} in B)"
        out.append(CompareWarning("scenario", sid, ", ".join(ha), ", ".join(hb), text))
    return out


def compare_warnings(a: StoredRun, b: StoredRun) -> list[CompareWarning]:
    """What differs in how runs A and B were made: arms present in both, then scenarios.

    Per arm: its spec (from run.json; its agent kind from the records when a
    run.json lacks it), its model and its mode. Per scenario run in both: its file
    hashes, each distinct hash of a run listed (a file edited during a run has several).
    """
    return _arm_warnings(a, b) + _scenario_warnings(a, b)


def _rate(row: ScenarioRow | None) -> float | None:
    return row.passes / row.attempts if row is not None and row.attempts else None


def _change(a: ScenarioRow | None, b: ScenarioRow | None) -> float | None:
    rate_a, rate_b = _rate(a), _rate(b)
    return None if rate_a is None or rate_b is None else round(rate_b - rate_a, 4)


def _by_change(diff: ScenarioDiff) -> tuple[float, bool]:
    """Largest change first, then rows marked without a rate change, then the same ones."""
    return (-abs(diff.change or 0.0), not diff.mark)


def compare(
    a: RunSummary,
    b: RunSummary,
    *,
    warnings: Iterable[CompareWarning] = (),
    sets: ScenarioSets | None = None,
) -> Comparison:
    """Rows of both runs (A's order, then B's new ones), and scenarios both runs hold.

    ``sets`` says which scenarios each run held (``compare_runs`` takes them from the
    records, before summarizing both runs over the shared ones); without it, from the
    summaries' rows. A scenario only one run holds is counted, never compared, and a
    warning says the sets differ. The per-scenario table lists the largest change in
    pass rate first. ``warnings`` (from ``compare_warnings``) are kept in the result,
    to be shown first.
    """
    if sets is None:
        sets = scenario_sets((r.scenario for r in a.rows), (r.scenario for r in b.rows))
    shared = set(sets.shared)
    rows_a = {f.row_name(m): m for m in a.metrics}
    rows_b = {f.row_name(m): m for m in b.metrics}
    rows = [_row_diff(n, rows_a.get(n), rows_b.get(n)) for n in dict.fromkeys([*rows_a, *rows_b])]
    sc_a = {(r.scenario, f.row_name(r)): r for r in a.rows if r.scenario in shared}
    sc_b = {(r.scenario, f.row_name(r)): r for r in b.rows if r.scenario in shared}
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
        scenarios.append(
            ScenarioDiff(
                key[0], key[1], _scenario_text(ra), _scenario_text(rb), mark, _change(ra, rb)
            )
        )
    scenarios.sort(key=_by_change)  # stable: ties keep A's order
    found = ([_sets_warning(sets)] if sets.differ else []) + list(warnings)
    return Comparison(a.label, b.label, rows, scenarios, found, sets)


def compare_runs(a: StoredRun, b: StoredRun, targets: Targets | None = None) -> Comparison:
    """Two stored runs compared over the scenarios both hold, with every warning.

    Each run is summarized over the shared scenarios only, so a run of 50 scenarios
    against one of 2 compares those 2, not 96% against 0%.
    """
    sets = scenario_sets((r.scenario for r in a.records), (r.scenario for r in b.records))
    shared = set(sets.shared)
    summaries = [
        summarize(
            run.label,
            [r for r in run.records if r.scenario in shared],
            run.started_at,
            run.finished_at,
            targets,
        )
        for run in (a, b)
    ]
    return compare(*summaries, warnings=compare_warnings(a, b), sets=sets)
