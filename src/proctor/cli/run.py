"""proctor run: run scenarios with arms and repeats, then write the results tree.

Exit codes: 0 no scored scenario failed, 1 a local or model scenario failed, 2 a
usage or setup error, 3 nothing could be scored because of infra errors.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from proctor._text import console as safe_console
from proctor.cli._common import OnlyOpt, ResultsOpt, ScenariosOpt, TierOpt, catalog, split_only
from proctor.cli._models import (
    JudgeOpt,
    PricesOpt,
    StrictOpt,
    VisionOpt,
    check_arms,
    judge_for,
    model_specs,
    print_model_facts,
)
from proctor.cli.report import TargetsOpt, print_paths
from proctor.errors import RunError
from proctor.records import AttemptRecord, check_label
from proctor.report import (
    load_targets,
    print_diagnose,
    print_metrics,
    print_table,
    summarize,
    write_outputs,
)
from proctor.runner import (
    PlanItem,
    RunOptions,
    config_of,
    execute,
    make_plan,
    new_run_dir,
    parse_arm,
    run_info,
    write_run_info,
)

SCORED_TIERS = ("local", "model")
"""Tiers whose failures fail the run (exit 1)."""
EXIT_FAILED = 1
EXIT_UNSCORED = 3


def exit_code(records: Sequence[AttemptRecord], failed: bool) -> int:
    """The exit code of a run: 1 when a scored scenario ``failed``, 3 when nothing was scored.

    Nothing scored means no attempt passed or failed and at least one ended in
    an infra error: the harness, not the agent, decided the run. A run whose
    attempts were all skipped (a model arm without its key) exits 0.
    """
    if failed:
        return EXIT_FAILED
    scored = any(r.result in ("passed", "failed") for r in records)
    if records and not scored and any(r.result == "error" for r in records):
        return EXIT_UNSCORED
    return 0


def run(
    tier: TierOpt = None,
    only: OnlyOpt = None,
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
) -> None:
    """Run scenarios and grade them from the end state.

    Exit codes: 0 no scored scenario failed (a model arm without its key is
    skipped, not failed); 1 a local or model scenario failed; 2 a usage or
    setup error, such as a results folder that cannot be written; 3 nothing
    could be scored: no attempt passed or failed, and at least one ended in an
    infra error (a browser crash, a fixture or provider fault).
    """
    if label is not None:
        check_label(label)
    picked = catalog(scenarios).select(tiers=tier or [], only=split_only(only))
    if not picked:
        raise RunError("no scenario matches --tier/--only; `proctor list` shows them")
    if resume and not label:
        raise RunError("--resume needs the --label of the run to continue")
    bars = load_targets(targets)
    specs = model_specs(arm or ["oracle=scripted"], vision=vision, prices=prices)
    arms = [parse_arm(a) for a in specs]
    console = safe_console()
    check_arms(arms, strict=strict, console=console)
    the_judge = judge_for(judge, arms)
    plan = make_plan(picked, arms, repeat)
    label, run_dir = new_run_dir(results, label, resume=resume)
    options = RunOptions(keep_scratch=keep_scratch, infra_retries=retries, judge=the_judge)
    config = config_of(
        tiers=tier or [], only=split_only(only), arms=[f"{a.name}={a.spec}" for a in arms],
        repeat=repeat, scenarios=[p.scenario.id for p in picked], options=options.__dict__,
    )  # fmt: skip
    write_run_info(run_dir, run_info(label, config))
    console.print(
        f"run [bold]{label}[/]: {len(picked)} scenario(s) x {len(arms)} arm(s) x {repeat}"
    )
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("starting", total=len(plan))

        def hook(item: PlanItem, record: AttemptRecord | None) -> None:
            if record is None:
                progress.update(task, description=item.attempt_id)
            else:
                progress.advance(task)

        result = asyncio.run(execute(plan, run_dir, label, options, progress=hook, resume=resume))
    summary = summarize(label, result.records, result.started_at, result.finished_at, bars)
    paths = write_outputs(run_dir, results, summary, result.records)
    print_table(summary, console)
    print_metrics(summary, console)
    print_model_facts(result.records, arms, console)
    print_diagnose(summary.causes, str(run_dir), console)
    print_paths(paths, console)
    failing = [r for r in summary.rows if r.result == "failed" and r.tier in SCORED_TIERS]
    code = exit_code(result.records, bool(failing))
    if code == EXIT_UNSCORED:
        errors = sum(r.result == "error" for r in result.records)
        console.print(
            f"[yellow]nothing could be scored:[/] {errors} of {len(result.records)} attempt(s) "
            f"ended in an infra error (causes above); exit {EXIT_UNSCORED}",
            highlight=False,
            soft_wrap=True,
        )
    if code:
        raise typer.Exit(code)
