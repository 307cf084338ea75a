"""proctor calibrate: per prompt variant, the longest correct prefix of the expected actions."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.api import Run, RunSettings, preflight
from proctor.cli._common import ResultsOpt, ScenariosOpt, catalog
from proctor.cli._models import PricesOpt, StrictOpt, VisionOpt, print_preflight
from proctor.cli._scale import default_retry_delays
from proctor.errors import RunError
from proctor.records import check_label
from proctor.runner import RunOptions, parse_arm


def calibrate(
    scenario: Annotated[str, typer.Option("--scenario", help="The scenario id.")],
    variants: Annotated[
        Path,
        typer.Option(
            "--variants",
            help="Folder of prompt variants: each sub-folder holds any of system.md, task.md, "
            "observation.md, planning.md, plan.md.",
        ),
    ],
    arm: Annotated[
        str,
        typer.Option(
            "--arm",
            help="The model spec, e.g. openai:gpt-4.1-mini or anthropic:claude-sonnet-4-5+plan.",
        ),
    ],
    runs: Annotated[int, typer.Option("--runs", min=1, help="Runs per variant.")] = 3,
    label: Annotated[
        str | None,
        typer.Option("--label", help="Run label: 1-100 of A-Z a-z 0-9 . _ - (default: the time)."),
    ] = None,
    results: ResultsOpt = Path("results"),
    scenarios: ScenariosOpt = None,
    strict: StrictOpt = False,
    prices: PricesOpt = None,
    vision: VisionOpt = False,
    retries: Annotated[int, typer.Option("--retries", min=0, help="Infra-fault retries.")] = 2,
) -> None:
    """Run each prompt variant N times; report its correct prefix and outcomes."""
    from proctor.agents.llm import is_model_spec, with_options
    from proctor.agents.llm.calibrate import calibrate as score_calibration
    from proctor.agents.llm.calibrate import prompt_specs, variants_in

    if label is not None:
        check_label(label)
    loaded = catalog(scenarios).select(only=[scenario])[0]
    if "=" in arm.split(":", 1)[0]:
        raise RunError(f"--arm {arm!r}: give the model spec alone; arms are named after variants")
    if not is_model_spec(arm):
        raise RunError(
            f"--arm {arm!r}: calibrate needs a model spec (openai:MODEL, "
            "openai-compatible:MODEL@URL or anthropic:MODEL)"
        )
    spec = with_options(arm, vision=vision, prices=prices)
    found = variants_in(variants)
    console = safe_console()
    arms = [parse_arm(text) for text in prompt_specs(spec, found)]
    print_preflight(preflight(arms, (), strict=strict), console)
    if all(a.skip for a in arms):
        return
    options = RunOptions(
        infra_retries=retries, retry_delays=default_retry_delays(), screenshots=False
    )
    settings = RunSettings(
        repeat=runs, results=results, label=label, options=options,
        config={"command": "calibrate"}, reports=False,
    )  # fmt: skip
    planned = Run.open([loaded], arms, settings)
    label, run_dir = planned.folder.label, planned.folder.path
    console.print(
        f"calibrate [bold]{markup(loaded.scenario.id)}[/]: {len(found)} variant(s) x {runs} "
        f"run(s) with {markup(arm)}"
    )
    outcome = asyncio.run(planned.execute())
    result = score_calibration(loaded, found, spec, outcome.records, run_dir)
    table = Table(title=f"calibration {markup(label)}")
    for column in ("variant", "runs", "correct prefix", "median", "passed", "outcomes"):
        table.add_column(column)
    for v in result.variants:
        mine = [r for r in result.runs if r.variant == v.variant]
        table.add_row(
            markup(v.variant),
            str(v.runs),
            ", ".join(f"{r.prefix}/{r.expected}" for r in mine),
            "n/a" if v.median_prefix is None else f"{v.median_prefix:g}/{v.expected}",
            f"{v.passed}/{v.runs}",
            markup(", ".join(f"{r.result}:{r.stop_reason}" for r in mine)),
        )
    console.print(table)
    if result.recording:
        console.print("[yellow]answered by a replay provider: a recording, not a model result[/]")
    console.print(f"calibration: {markup(run_dir / 'calibration.json')}")
