"""proctor report: rebuild summary.json, report.md and report.html from attempt records."""

from __future__ import annotations

import webbrowser
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.cli._common import ResultsOpt, shown
from proctor.report import (
    ReportPaths,
    load_run,
    load_targets,
    print_metrics,
    print_peers,
    summarize,
    write_reports,
)

LabelArg = Annotated[str, typer.Argument(help="The run's label (a folder under --results).")]
TargetsOpt = Annotated[
    Path | None,
    typer.Option("--targets", help="TOML file of bars (default: the shipped targets.toml)."),
]


def print_paths(paths: ReportPaths, console: Console) -> None:
    # soft_wrap keeps each path on one line, so it can be copied or clicked.
    for head, path in (("report:", paths.html), ("", paths.markdown), ("", paths.summary)):
        console.print(f"{head:<8}{markup(shown(path))}", highlight=False, soft_wrap=True)


def report(
    label: LabelArg,
    open_: Annotated[bool, typer.Option("--open", help="Open report.html in a browser.")] = False,
    targets: TargetsOpt = None,
    results: ResultsOpt = Path("results"),
) -> None:
    """Rebuild a run's summary.json, report.md and report.html from its attempt records."""
    run = load_run(results, label)
    summary = summarize(
        run.label,
        run.records,
        run.started_at,
        run.finished_at,
        load_targets(targets),
        run.budget_usd,
        run.time_scale,
    )
    paths = write_reports(run.run_dir, summary, run.records)
    console = safe_console()
    print_metrics(summary, console)
    print_peers(summary, console)
    print_paths(paths, console)
    if open_:
        open_page(paths.html, console)


def open_page(page: Path, console: Console) -> None:
    """Open ``page`` in a browser; when none opens (CI has none), say where the file is."""
    where = page.resolve()
    try:
        opened = webbrowser.open(where.as_uri())
    except (webbrowser.Error, OSError):
        opened = False
    if not opened:
        console.print(
            f"--open: no browser opened here; the report is {markup(where)}",
            highlight=False,
            soft_wrap=True,
        )
