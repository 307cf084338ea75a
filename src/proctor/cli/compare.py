"""proctor compare: two runs side by side, per row and per scenario, differences marked."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.cli._common import ResultsOpt
from proctor.cli.report import TargetsOpt
from proctor.report import compare as compare_runs
from proctor.report import load_run, load_targets, summarize

MARK_STYLE = {"▲": "green", "▼": "red"}


def _styled(mark: str) -> str:
    style = MARK_STYLE.get(mark[:1], "yellow")
    return f"[{style}]{markup(mark)}[/]" if mark else ""


def compare(
    a: Annotated[str, typer.Argument(help="The first run's label (A).")],
    b: Annotated[str, typer.Argument(help="The second run's label (B).")],
    targets: TargetsOpt = None,
    results: ResultsOpt = Path("results"),
) -> None:
    """Compare two runs: every metric per arm x model x mode, and every scenario's verdict."""
    bars = load_targets(targets)
    summaries = []
    for label in (a, b):
        run = load_run(results, label)
        summaries.append(summarize(run.label, run.records, run.started_at, run.finished_at, bars))
    result = compare_runs(summaries[0], summaries[1])
    console = safe_console()
    rows = Table(title=f"A = {markup(a)}   B = {markup(b)}", title_justify="left")
    for column in ("arm", "metric", "A", "B", ""):
        rows.add_column(column)
    for diff in result.rows:
        for i, cell in enumerate(diff.cells):
            rows.add_row(
                markup(diff.row) if i == 0 else "",
                markup(cell.metric),
                markup(cell.a),
                markup(cell.b),
                _styled(cell.mark),
            )
        rows.add_section()
    console.print(rows)
    scenarios = Table(title="per scenario", title_justify="left")
    for column in ("scenario", "arm", "A", "B", ""):
        scenarios.add_column(column)
    for sd in result.scenarios:
        scenarios.add_row(
            markup(sd.scenario), markup(sd.row), markup(sd.a), markup(sd.b), _styled(sd.mark)
        )
    console.print(scenarios)
    changed = sum(bool(sd.mark) for sd in result.scenarios)
    console.print(
        f"{changed} of {len(result.scenarios)} scenario row(s) differ; "
        f"{sum(d.changed for d in result.rows)} of {len(result.rows)} arm row(s) differ",
        highlight=False,
    )
