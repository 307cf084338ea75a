"""proctor compare: two runs side by side, per row and per scenario, differences marked.

What differs in how the runs were made (an arm's spec or model, a scenario's
file) is printed first, as warnings; compare.md and compare.html are written to
``--out`` (default ``<results>/compare-<A>-<B>/``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.cli._common import JsonOpt, ResultsOpt, emit_json
from proctor.cli.report import TargetsOpt
from proctor.errors import RunError
from proctor.records import LABEL_RULE, is_label
from proctor.report import (
    ComparePaths,
    Comparison,
    compare_runs,
    comparison_json,
    counts_text,
    load_run,
    load_targets,
    write_compare,
)

MARK_STYLE = {"▲": "green", "▼": "red"}

OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Folder for compare.md and compare.html (default: <results>/compare-<A>-<B>/).",
    ),
]


def _styled(mark: str) -> str:
    style = MARK_STYLE.get(mark[:1], "yellow")
    return f"[{style}]{markup(mark)}[/]" if mark else ""


def out_folder(results: Path, a: str, b: str, out: Path | None) -> Path:
    """``out``, or ``<results>/compare-<A>-<B>``.

    Raises:
        RunError: when a label cannot name a folder, or the default folder is a run's.
    """
    if out is not None:
        return out
    for label in (a, b):
        if not is_label(label):
            raise RunError(
                f"run label {label!r} cannot name the compare folder ({LABEL_RULE}); pass --out DIR"
            )
    folder = results / f"compare-{a}-{b}"
    if (folder / "run.json").exists() or (folder / "attempts").exists():
        raise RunError(f"{folder} is a run's folder, not a comparison's; pass --out DIR")
    return folder


def print_comparison(result: Comparison, console: Console) -> None:
    """The warnings (yellow), the per-row table, the per-scenario table and the counts."""
    for warning in result.warnings:
        # soft_wrap: one line per warning (and for the counts), whole for grep
        console.print(
            f"[yellow]warning: {markup(warning.text)}[/]", highlight=False, soft_wrap=True
        )
    rows = Table(title=f"A = {markup(result.a)}   B = {markup(result.b)}", title_justify="left")
    for column in ("arm", "metric", "A", "B", ""):
        rows.add_column(column, overflow="fold")  # labels are never cut: they fold
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
    scenarios = Table(title="per scenario, largest change first", title_justify="left")
    for column in ("scenario", "arm", "A", "B", ""):
        scenarios.add_column(column, overflow="fold")
    for sd in result.scenarios:
        scenarios.add_row(
            markup(sd.scenario), markup(sd.row), markup(sd.a), markup(sd.b), _styled(sd.mark)
        )
    console.print(scenarios)
    console.print(markup(counts_text(result)), highlight=False, soft_wrap=True)


def print_paths(paths: ComparePaths, console: Console) -> None:
    # soft_wrap keeps each path on one line, so it can be copied or clicked.
    for head, path in (("compare:", paths.html), ("", paths.markdown)):
        console.print(f"{head:<9}{markup(path)}", highlight=False, soft_wrap=True)


def compare(
    a: Annotated[str, typer.Argument(help="The first run's label (A).")],
    b: Annotated[str, typer.Argument(help="The second run's label (B).")],
    targets: TargetsOpt = None,
    results: ResultsOpt = Path("results"),
    out: OutOpt = None,
    json: JsonOpt = False,
) -> None:
    """Compare two runs: every metric per arm x model x mode, and every scenario's verdict.

    Only the scenarios both runs hold are compared (the numbers too); warnings
    first: the scenario sets differ, an arm in both runs whose spec, model or mode
    differs, a scenario whose file changed. Scenarios are listed largest change
    first. Writes compare.md and compare.html to --out.
    ``--json`` prints ``{"a", "b", "scenario_sets": {"shared", "only_a", "only_b"},
    "warnings": [{"kind", "subject", "a", "b", "text"}], "rows": [{"row", "cells":
    [{"metric", "a", "b", "mark"}]}], "scenarios": [{"scenario", "row", "a", "b",
    "mark", "change"}], "changed": {"rows", "scenarios"}}`` on stdout, and the paths
    written on stderr.
    """
    bars = load_targets(targets)
    runs = [load_run(results, label) for label in (a, b)]
    folder = out_folder(results, a, b, out)
    result = compare_runs(runs[0], runs[1], bars)
    paths = write_compare(folder, result)
    if json:
        emit_json(comparison_json(result))
        print_paths(paths, safe_console(stderr=True))
        return
    console = safe_console()
    print_comparison(result, console)
    print_paths(paths, console)
