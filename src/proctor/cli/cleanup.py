"""proctor cleanup: end what dead runs left behind, and say what went."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.cli._common import ResultsOpt
from proctor.runner import Leftovers, clean, find_leftovers


def _planned(leftovers: Leftovers) -> list[str]:
    """What ``clean`` would do, one line each (``--dry-run``)."""
    lines = [f"would kill {o.pid} ({o.command})" for o in leftovers.processes]
    paths = (*leftovers.folders, *leftovers.files, *leftovers.owners)
    return lines + [f"would remove {path}" for path in paths]


def cleanup(
    label: Annotated[
        str | None, typer.Argument(help="Only this run (default: every run under --results).")
    ] = None,
    results: ResultsOpt = Path("results"),
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only say what would go; change nothing.")
    ] = False,
) -> None:
    """Kill the orphan processes of dead runs and remove their scratch, temp and stale files.

    A run counts as dead when none of the processes that recorded themselves in
    its .pids/ folder still runs (same pid and start time); a live run is never
    touched.
    """
    leftovers = find_leftovers(results, label)
    console = safe_console(soft_wrap=True)  # a path is never broken across lines
    if leftovers.empty:
        console.print("nothing to clean", highlight=False)
        return
    for line in _planned(leftovers) if dry_run else clean(leftovers):
        console.print(markup(line), highlight=False)
