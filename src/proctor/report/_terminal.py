"""The terminal table printed at the end of a run."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from proctor.records import RunSummary
from proctor.report._summary import counts_line

STYLE = {"passed": "green", "failed": "red", "error": "yellow", "skipped": "dim"}


def print_table(summary: RunSummary, console: Console) -> None:
    """scenario · tier · category · result · time, then the counts line."""
    arms = {row.arm for row in summary.rows}
    table = Table(title=f"proctor run {summary.label}", title_justify="left")
    table.add_column("scenario")
    table.add_column("tier")
    table.add_column("category")
    if len(arms) > 1:
        table.add_column("arm")
    table.add_column("result")
    table.add_column("time", justify="right")
    for row in summary.rows:
        result = row.result
        if row.attempts > 1:
            result += f" {row.passes}/{row.attempts}"
        time = f"{row.median_seconds:.1f}s" if row.median_seconds is not None else "-"
        cells = [row.scenario, row.tier, row.category]
        if len(arms) > 1:
            cells.append(row.arm)
        cells += [f"[{STYLE.get(row.result, '')}]{result}[/]", time]
        table.add_row(*cells)
    console.print(table)
    console.print(counts_line(summary))
