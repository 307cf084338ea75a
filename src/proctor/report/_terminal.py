"""The terminal tables printed at the end of a run and by the report commands."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from proctor._text import markup, safe
from proctor.records import CauseGroup, RunSummary
from proctor.report import _format as f
from proctor.report._causes import diagnose_lines
from proctor.report._markdown import counts_line

STYLE = {"passed": "green", "failed": "red", "error": "yellow", "skipped": "dim"}


def print_table(summary: RunSummary, console: Console) -> None:
    """scenario · tier · category · result · time, then the counts line."""
    arms = {f.row_name(row) for row in summary.rows}
    table = Table(title=f"proctor run {markup(summary.label)}", title_justify="left")
    table.add_column("scenario", overflow="fold")  # labels are never cut: they fold
    table.add_column("tier")
    table.add_column("category")
    if len(arms) > 1:
        table.add_column("arm", overflow="fold")
    table.add_column("result")
    table.add_column("time", justify="right")
    for row in summary.rows:
        result: str = row.result
        if row.attempts > 1:
            result += f" {row.passes}/{row.attempts}"
        time = f"{row.median_seconds:.1f}s" if row.median_seconds is not None else "-"
        cells = [markup(row.scenario), row.tier, row.category]
        if len(arms) > 1:
            cells.append(markup(f.row_name(row)))
        cells += [f"[{STYLE.get(row.result, '')}]{result}[/]", time]
        table.add_row(*cells)
    console.print(table)
    console.print(counts_line(summary))


BAR_STYLE = {"met": "green", "unmet": "red", "none": "dim"}


def print_metrics(summary: RunSummary, console: Console) -> None:
    """One line per arm x model x mode: scored attempts, the success interval, each bar."""
    if not summary.metrics:
        return
    table = Table(title="bars", title_justify="left")
    table.add_column("arm", overflow="fold")  # a label is never cut: it folds
    table.add_column("n", justify="right")
    table.add_column("95% CI", justify="right")
    for bar in summary.metrics[0].bars:
        table.add_column(f.bar_title(bar), justify="right")
    for m in summary.metrics:
        cells = [markup(f.row_name(m)), str(m.attempts), f.interval_short(m)]
        cells += [f"[{BAR_STYLE[f.bar_state(b, m)]}]{f.bar_cell(b, m)}[/]" for b in m.bars]
        table.add_row(*cells)
    console.print(table)


def print_peers(summary: RunSummary, console: Console) -> None:
    """Per arm on a peer suite: its own success rule and BrowserGym's, side by side."""
    if not summary.peers:
        return
    table = Table(title="peer suites (graded by their own reward)", title_justify="left")
    for title in ("suite", "arm", "n", "ended", "success (raw = 1)", "95% CI", "mean raw",
                  "mean time-scaled", "BrowserGym (raw > 0)"):  # fmt: skip
        left = title in ("suite", "arm")
        table.add_column(title, justify="left" if left else "right", overflow="fold")
    for p in summary.peers:
        ci = (
            f"{p.success_low:.0%}–{p.success_high:.0%}"
            if p.success_low is not None and p.success_high is not None
            else f.NA
        )
        table.add_row(
            p.suite, markup(p.arm), str(p.episodes), str(p.ended),
            f"{p.success:.0%}" if p.success is not None else f.NA, ci,
            f"{p.mean_raw:.2f}" if p.mean_raw is not None else f.NA,
            f"{p.mean_reward:.2f}" if p.mean_reward is not None else f.NA,
            f"{p.browsergym:.0%}" if p.browsergym is not None else f.NA,
        )  # fmt: skip
    console.print(table)


def print_diagnose(causes: Sequence[CauseGroup], run_dir: str, console: Console) -> None:
    """Failure causes with counts and attempt paths (what `proctor diagnose` prints)."""
    for line in diagnose_lines(causes, run_dir):
        console.print(safe(line), markup=False, highlight=False, soft_wrap=True)
