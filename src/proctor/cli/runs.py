"""proctor runs: the runs under the results folder, with date, arms and headline numbers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.cli._common import JsonOpt, ResultsOpt, add_whole_column, emit_json, print_whole
from proctor.report import list_runs, when


def runs(results: ResultsOpt = Path("results"), json: JsonOpt = False) -> None:
    """List run labels, oldest first, with date, arms, counts and headline numbers.

    A run whose driver is at work is marked running (arms and attempts done so far
    from its run.json); one whose driver was killed mid-run says so.
    ``--json`` prints ``{"runs": [{"label", "started_at", "arms", "scenarios",
    "counts", "headline", "note", "state"}]}`` (``started_at`` in Unix seconds or
    null; ``state`` running, ended or gone).
    """
    listings = list_runs(results)
    if json:
        emit_json({"runs": [dataclasses.asdict(run) for run in listings]})
        return
    console = safe_console()
    if not listings:
        console.print(f"no runs under {markup(results)}/; `proctor run` makes one", highlight=False)
        return
    table = Table(show_edge=False)
    add_whole_column(table, "label", [run.label for run in listings])
    for column in ("date", "arms", "scenarios", "results", "headline"):
        table.add_column(column)
    for run in listings:
        table.add_row(
            markup(run.label),
            when(run.started_at) if run.started_at else "-",
            markup(", ".join(run.arms)),
            str(run.scenarios),
            markup(run.counts + (f" ({run.note})" if run.note else "")),
            "\n".join(markup(line) for line in run.headline),
        )
    print_whole(console, table)
    console.print(f"{len(listings)} run(s) under {markup(results)}/", highlight=False)
