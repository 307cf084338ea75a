"""proctor rejudge: only the judge, run again on a finished run's end states, as a new run.

Exit codes: 0 rejudged (a verdict that changed is shown, never an error: a judge's
verdict sits beside the checks); 2 a usage error (no such run, an unfinished run, a
label that exists, a judge that is an arm's model, no judge criteria in the run).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.agents.llm import make_judge
from proctor.cli._common import ResultsOpt, ScenariosOpt, add_whole_column, catalog, print_whole
from proctor.cli._models import refuse_stored_model
from proctor.cli.report import LabelArg, TargetsOpt, print_paths
from proctor.errors import RunError
from proctor.records import AttemptRecord, check_label
from proctor.report import (
    criteria_of,
    free_label,
    load_finished_run,
    load_targets,
    print_metrics,
    print_table,
    rejudge_run,
    summarize,
    write_outputs,
    write_rejudged,
)

__all__ = ["rejudge"]


def _verdicts(record: AttemptRecord) -> dict[str, str]:
    return {v.name: v.verdict for v in record.judge}


def rejudge(
    label: LabelArg,
    judge: Annotated[
        str,
        typer.Option(
            "--judge",
            help="Model spec of the new judge (refused when it is an arm's model).",
            show_default=False,
        ),
    ],
    new_label: Annotated[
        str | None,
        typer.Option(
            "--label",
            help="Label of the rejudged run: 1-100 of A-Z a-z 0-9 . _ - "
            "(default: LABEL-rejudge); never an existing one.",
        ),
    ] = None,
    scenarios: ScenariosOpt = None,
    targets: TargetsOpt = None,
    results: ResultsOpt = Path("results"),
) -> None:
    """Re-run only the judge on a finished run's stored end states, into a new label.

    Each attempt's scenario's judge: criteria (as the catalog has them now) go to the new
    judge with the attempt's stored end state, and a copy of the run, whose records
    carry the new verdicts, is written as the new label with its reports. Checks,
    results, steps and artefacts are the stored ones; the old label is never touched.
    """
    if new_label is not None:
        check_label(new_label)
        if (results / new_label).exists():
            raise RunError(
                f"--label {new_label}: {results / new_label} already exists and a label is "
                "never overwritten; choose another --label"
            )
    bars = load_targets(targets)
    run = load_finished_run(results, label, "proctor rejudge")
    refuse_stored_model(judge, run)
    catalogued = catalog(scenarios).scenarios
    judged = [
        r
        for r in run.records
        if r.scenario in catalogued and criteria_of(r, catalogued[r.scenario])
    ]
    if not judged and all(r.scenario in catalogued for r in run.records):
        names = ", ".join(sorted({r.scenario for r in run.records}))
        raise RunError(
            f"proctor rejudge {label}: no scenario of the run has judge: criteria ({names}); "
            "there is nothing to judge"
        )
    the_judge = make_judge(judge)
    rejudged = asyncio.run(rejudge_run(run, catalogued, the_judge))
    if new_label is None:
        target = check_label(free_label(results, f"{label}-rejudge"), option="the default --label")
    else:
        target = new_label
    started = time.time()
    run_dir = write_rejudged(results, run, target, rejudged, judge)
    records = [item.after for item in rejudged]
    summary = summarize(target, records, started, time.time(), bars, run.budget_usd, run.time_scale)
    paths = write_outputs(run_dir, results, summary, records)
    console = safe_console()
    table = Table(
        title=f"judge verdicts of {markup(target)} ({markup(judge)}), beside the checks",
        title_justify="left",
    )
    rows = [(item.before, item.after) for item in rejudged if item.after.judge]
    add_whole_column(table, "attempt", [after.id for _, after in rows])
    for column in ("criterion", label, target, "reason"):
        table.add_column(markup(column))
    changed = 0
    for before, after in rows:
        old = _verdicts(before)
        for verdict in after.judge:
            was = old.get(verdict.name, "-")
            changed += was != verdict.verdict
            table.add_row(
                markup(after.id),
                markup(verdict.name),
                was,
                verdict.verdict,
                markup(verdict.reason),
            )
    print_whole(console, table)
    console.print(
        f"{changed} verdict(s) differ from {markup(label)}'s; checks and results are the "
        "stored ones (a judge's verdict is never in them)",
        highlight=False,
    )
    print_table(summary, console)
    print_metrics(summary, console)
    print_paths(paths, console)
