"""proctor models: two or more model arms in one run, side by side, then paired by scenario.

Exit codes are ``proctor run``'s: 0 no scored scenario failed, 1 a local, model or
desktop scenario failed, 2 a usage or setup error (a spec that names no model), 3
nothing could be scored because of infra errors.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.api import EXIT_UNSCORED, Models, RunSettings
from proctor.cli._common import (
    CapabilityOpt,
    OnlyOpt,
    ResultsOpt,
    ScenariosOpt,
    TierOpt,
    add_whole_column,
    catalog,
    print_notes,
    print_whole,
    shown,
    split_only,
)
from proctor.cli._models import (
    PersonaOpt,
    PricesOpt,
    StrictOpt,
    TimeScaleOpt,
    VisionOpt,
    print_preflight,
)
from proctor.cli._progress import attempt_bar
from proctor.cli._scale import (
    BudgetOpt,
    ExecutorOpt,
    WorkersOpt,
    default_retry_delays,
    executor_kind,
)
from proctor.cli.report import print_paths
from proctor.errors import RunError
from proctor.records import check_label
from proctor.report import ComparePaths, TablesPage, print_diagnose
from proctor.runner import RunOptions

__all__ = ["models"]

DEFAULT_TIER = "model"
"""The tier run when neither --tier nor --only is given."""


def print_page(page: TablesPage, console: Console) -> None:
    """Every section of the page as a titled terminal table; no cell is ever cut."""
    for line in page.intro:
        console.print(markup(line), highlight=False, soft_wrap=True)
    for section in page.sections:
        console.print()
        console.print(f"[bold]{markup(section.title)}[/]", highlight=False)
        for line in section.notes:
            console.print(f"[dim]{markup(line)}[/]", highlight=False, soft_wrap=True)
        table = Table()
        add_whole_column(table, markup(section.header[0]), [row[0] for row in section.rows])
        for name in section.header[1:]:
            table.add_column(markup(name), overflow="fold")  # a long spec folds, never cut
        for row in section.rows:
            table.add_row(*(markup(cell) for cell in row))
        print_whole(console, table)


def _print_compare_paths(paths: ComparePaths, console: Console) -> None:
    for head, path in (("compare:", paths.html), ("", paths.markdown)):
        console.print(f"{head:<9}{markup(path)}", highlight=False, soft_wrap=True)


def models(
    specs: Annotated[
        list[str],
        typer.Argument(
            help="Two or more model arm specs, each SPEC or NAME=SPEC: openai:MODEL, "
            "openai-compatible:MODEL@URL, anthropic:MODEL (+plan, +vision, +key=ENV, ...).",
            show_default=False,
        ),
    ],
    tier: TierOpt = None,
    only: OnlyOpt = None,
    capability: CapabilityOpt = None,
    scenarios: ScenariosOpt = None,
    repeat: Annotated[
        int, typer.Option("--repeat", min=1, help="Attempts per scenario x arm (the k of pass^k).")
    ] = 1,
    label: Annotated[
        str | None,
        typer.Option("--label", help="Run label: 1-100 of A-Z a-z 0-9 . _ - (default: the time)."),
    ] = None,
    results: ResultsOpt = Path("results"),
    retries: Annotated[int, typer.Option("--retries", min=0, help="Infra-fault retries.")] = 2,
    strict: StrictOpt = False,
    prices: PricesOpt = None,
    vision: VisionOpt = False,
    persona: PersonaOpt = None,
    executor: ExecutorOpt = "inline",
    workers: WorkersOpt = None,
    budget: BudgetOpt = None,
    time_scale: TimeScaleOpt = 1.0,
) -> None:
    """Run model arms on the same scenarios in one run, then compare them side by side.

    One plan over every arm: each scenario x arm x repeat, with the arm order rotating
    by repeat (repeat 2 starts with the second arm), so no arm always runs first.
    Without --tier, --only or --capability the model tier runs. An arm is named by its model id
    (-plan, -vision, -computer for those options; -2, -3 when two would share a name) unless
    given as NAME=SPEC.

    Prints, and writes to compare.md and compare.html in the run's folder: per arm,
    success with its Wilson 95% interval, pass^k (k = --repeat), planner calls,
    tokens, $, $ per success and the median decision latency; then for every pair
    (the first arm against each other beyond four arms) the gate's pairing: attempts
    paired by scenario and repeat, an exact two-sided McNemar test, and the 95%
    interval of the mean per-scenario difference in pass rate.

    Exit codes as proctor run: 0 no scored scenario failed; 1 a scenario failed; 2 a
    usage or setup error (a spec that names no model, fewer than two arms); 3 nothing
    could be scored because of infra errors.
    """
    if label is not None:
        check_label(label)
    tiers = tier or ([] if only or capability else [DEFAULT_TIER])
    picked = catalog(scenarios).select(
        tiers=tiers, only=split_only(only), capabilities=capability or []
    )
    if not picked:
        raise RunError(
            "no scenario matches --tier/--only/--capability (without them: the model tier); "
            "`proctor list` shows them"
        )
    kind, count = executor_kind(executor, workers)
    options = RunOptions(
        infra_retries=retries, retry_delays=default_retry_delays(), time_scale=time_scale
    )
    settings = RunSettings(
        repeat=repeat, results=results, label=label, options=options, vision=vision,
        prices=prices, persona=persona, strict=strict, executor=kind, workers=count,
        budget_usd=budget, config={"tiers": tiers, "only": split_only(only)},
    )  # fmt: skip
    console = safe_console()
    planned = Models.open(specs, picked, settings)
    print_preflight(planned.run.preflight, console)
    where = f" on {kind} x {count}" if kind != "inline" else ""
    console.print(
        f"run [bold]{markup(planned.run.folder.label)}[/]: {len(picked)} scenario(s) x "
        f"{len(planned.run.arms)} model arm(s) x {repeat}{where}",
        highlight=False,
    )
    with attempt_bar(console, len(planned.run.plan)) as bar:
        compared = asyncio.run(planned.execute(progress=bar))
    outcome, page, paths = compared.run, compared.page, compared.paths
    print_page(page, console)
    console.print()
    if outcome.reports is not None:
        print_diagnose(outcome.reports.summary.causes, shown(outcome.folder.path), console)
        print_paths(outcome.reports.paths, console)
    _print_compare_paths(paths, console)
    print_notes(outcome.notes, console)
    code = outcome.exit_code
    if code == EXIT_UNSCORED:
        errors = sum(r.result == "error" for r in outcome.records)
        console.print(
            f"[yellow]nothing could be scored:[/] {errors} of {len(outcome.records)} attempt(s) "
            f"ended in an infra error (causes above); exit {EXIT_UNSCORED}",
            highlight=False,
            soft_wrap=True,
        )
    if code:
        raise typer.Exit(code)
