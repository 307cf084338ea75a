"""proctor run: run scenarios with arms and repeats, then write the results tree.

Exit codes: 0 no scored scenario failed, 1 a local, model or desktop scenario failed (under
--strict, a live one too), 2 a usage or setup error, 3 nothing could be scored because of
infra errors.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from proctor._text import console as safe_console
from proctor.api import EXIT_UNSCORED, Run, RunSettings
from proctor.cli._common import (
    CapabilityOpt,
    OnlyOpt,
    ResultsOpt,
    ScenariosOpt,
    TierOpt,
    catalog,
    print_notes,
    shown,
    split_only,
)
from proctor.cli._interrupt import Stop, say_interrupted, stoppable
from proctor.cli._models import (
    JudgeOpt,
    PersonaOpt,
    PricesOpt,
    StrictOpt,
    TimeScaleOpt,
    VisionOpt,
    print_model_facts,
    print_preflight,
)
from proctor.cli._progress import attempt_bar
from proctor.cli._scale import (
    BudgetOpt,
    ExecutorOpt,
    RayAddressOpt,
    RetryDelaysOpt,
    WorkersOpt,
    executor_kind,
    retry_delays,
)
from proctor.cli.report import TargetsOpt, print_paths
from proctor.errors import RunError
from proctor.records import check_label
from proctor.report import (
    load_targets,
    print_diagnose,
    print_metrics,
    print_peers,
    print_table,
)
from proctor.runner import RunOptions

__all__ = ["run"]


def run(
    tier: TierOpt = None,
    only: OnlyOpt = None,
    capability: CapabilityOpt = None,
    scenarios: ScenariosOpt = None,
    arm: Annotated[
        list[str] | None,
        typer.Option(
            "--arm",
            help="NAME=SPEC, repeatable; SPEC: scripted, null, decoy:NAME, command:CMD, "
            "openai:MODEL, openai-compatible:MODEL@URL, anthropic:MODEL (+plan, +vision, ...).",
        ),
    ] = None,
    repeat: Annotated[
        int, typer.Option("--repeat", min=1, help="Attempts per scenario x arm.")
    ] = 1,
    label: Annotated[
        str | None,
        typer.Option("--label", help="Run label: 1-100 of A-Z a-z 0-9 . _ - (default: the time)."),
    ] = None,
    results: ResultsOpt = Path("results"),
    keep_scratch: Annotated[
        bool, typer.Option("--keep-scratch", help="Keep each attempt's scratch folder.")
    ] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the run --label, skipping done attempts.")
    ] = False,
    retries: Annotated[int, typer.Option("--retries", min=0, help="Infra-fault retries.")] = 2,
    targets: TargetsOpt = None,
    strict: StrictOpt = False,
    prices: PricesOpt = None,
    vision: VisionOpt = False,
    judge: JudgeOpt = None,
    persona: PersonaOpt = None,
    executor: ExecutorOpt = "inline",
    workers: WorkersOpt = None,
    ray_address: RayAddressOpt = None,
    budget: BudgetOpt = None,
    delays: RetryDelaysOpt = "30,90",
    time_scale: TimeScaleOpt = 1.0,
) -> None:
    """Run scenarios and grade them from the end state.

    Exit codes: 0 no scored scenario failed (a model arm without its key, or a
    live scenario offline, is skipped, not failed); 1 a local, model or desktop
    scenario failed (under --strict, a live one too); 2 a usage or setup error, such
    as a results folder that cannot be written; 3 nothing could be scored: no attempt
    passed or failed, and at least one ended in an infra error (a browser crash, a
    fixture or provider fault).
    """
    if label is not None:
        check_label(label)
    picked = catalog(scenarios).select(
        tiers=tier or [], only=split_only(only), capabilities=capability or []
    )
    if not picked:
        raise RunError("no scenario matches --tier/--only/--capability; `proctor list` shows them")
    kind, count = executor_kind(executor, workers)
    options = RunOptions(
        keep_scratch=keep_scratch,
        infra_retries=retries,
        retry_delays=retry_delays(delays),
        time_scale=time_scale,
    )
    selection = {
        "tiers": tier or [], "only": split_only(only), "capabilities": capability or []
    }  # fmt: skip
    settings = RunSettings(
        repeat=repeat, results=results, label=label, resume=resume, options=options,
        vision=vision, prices=prices, judge=judge, persona=persona, strict=strict,
        targets=load_targets(targets), executor=kind, workers=count, ray_address=ray_address,
        budget_usd=budget, config=selection,
    )  # fmt: skip
    console = safe_console()
    planned = Run.open(picked, arm or ["oracle=scripted"], settings)
    print_preflight(planned.preflight, console)
    where = f" on {kind} x {count}" if kind != "inline" else ""
    console.print(
        f"run [bold]{planned.folder.label}[/]: {len(picked)} scenario(s) x "
        f"{len(planned.arms)} arm(s) x {repeat}{where}"
    )
    with attempt_bar(console, len(planned.plan)) as bar:
        stop = Stop()
        try:
            outcome = asyncio.run(stoppable(planned.execute(progress=bar), stop))
        except (KeyboardInterrupt, asyncio.CancelledError):
            bar.stop()
            say_interrupted(stop, planned.folder.label, safe_console(stderr=True))
            raise typer.Exit(stop.exit_code) from None
    assert outcome.reports is not None  # reports are on for `proctor run`
    summary = outcome.reports.summary
    print_table(summary, console)
    print_metrics(summary, console)
    print_peers(summary, console)
    print_model_facts(outcome.records, planned.arms, console)
    print_diagnose(summary.causes, shown(outcome.folder.path), console)
    print_paths(outcome.reports.paths, console)
    print_notes(outcome.notes, console)
    code = outcome.exit_code
    live_failed = sum(r.tier == "live" and r.result in ("failed", "error") for r in outcome.records)
    if live_failed and not strict:
        console.print(
            f"[yellow]live:[/] {live_failed} attempt(s) failed or ended in an infra error; "
            "live failures do not change the exit code (--strict counts them)",
            highlight=False,
            soft_wrap=True,
        )
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
