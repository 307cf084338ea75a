"""proctor regrade: the current checks over a run's stored end states, into a new label."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.cli._common import ResultsOpt, ScenariosOpt, catalog
from proctor.cli.report import LabelArg, TargetsOpt, print_paths
from proctor.records import AttemptRecord, TryId, check_label
from proctor.report import (
    Fallback,
    free_label,
    load_run,
    load_targets,
    print_diagnose,
    print_metrics,
    print_peers,
    print_table,
    regrade_run,
    summarize,
    write_outputs,
    write_regraded,
)
from proctor.scenario import Scenario
from proctor.world import DOMAIN


def _fallback(run_dir: Path) -> Fallback:
    """Placeholder values for records made before end states stored them."""

    def values(record: AttemptRecord, scenario: Scenario) -> dict[str, str]:
        # The runner's scratch folder of the graded try (the one after its faulted tries).
        scratch = run_dir / "scratch" / TryId(record.id, len(record.infra_faults) + 1).folder_name
        out = {"scratch": str(scratch), "home": str(scratch / "home")}
        out.update({f"site.{s}": f"http://{s}.{DOMAIN}" for s in scenario.world.sites})
        return out

    return values


def regrade(
    label: LabelArg,
    new_label: Annotated[
        str | None,
        typer.Option(
            "--label",
            help="Label of the regraded run: 1-100 of A-Z a-z 0-9 . _ - (default: LABEL-regrade).",
        ),
    ] = None,
    scenarios: ScenariosOpt = None,
    targets: TargetsOpt = None,
    results: ResultsOpt = Path("results"),
) -> None:
    """Re-run the current checks on a run's stored end states, with no agent, as a new run.

    Exit codes: 0 every verdict holds; 1 a verdict changed (the checks or the
    scenarios moved under the stored runs: review before trusting old numbers).
    """
    if new_label is not None:
        check_label(new_label)
    bars = load_targets(targets)
    run = load_run(results, label)
    regraded = regrade_run(run, catalog(scenarios).scenarios, _fallback(run.run_dir))
    if new_label is None:
        target = check_label(free_label(results, f"{label}-regrade"), option="the default --label")
    else:
        target = new_label
    started = time.time()
    run_dir = write_regraded(results, run, target, regraded)
    records = [item.after for item in regraded]
    summary = summarize(target, records, started, time.time(), bars)
    paths = write_outputs(run_dir, results, summary, records)
    console = safe_console()
    changed = [item for item in regraded if item.changed]
    if changed:
        table = Table(title=f"{len(changed)} verdict(s) changed", title_justify="left")
        for column in ("attempt", label, target, "failed checks now"):
            table.add_column(markup(column))
        for item in changed:
            table.add_row(
                markup(item.after.id),
                item.before.result,
                item.after.result,
                markup(", ".join(item.after.failed_checks) or "-"),
            )
        console.print(table)
    else:
        console.print(
            f"every verdict of {markup(label)} holds under the current checks", highlight=False
        )
    print_table(summary, console)
    print_metrics(summary, console)
    print_peers(summary, console)
    print_paths(paths, console)
    print_diagnose(summary.causes, str(run_dir), console)
    if changed:
        raise typer.Exit(1)
