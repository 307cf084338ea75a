"""Model-tier options of ``proctor run`` (and calibrate): keys, prices, vision, the judge."""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.agents.llm import (
    LLMJudge,
    arm_warnings,
    make_judge,
    refuse_same_model,
    spend_lines,
    with_options,
)
from proctor.errors import RunError
from proctor.records import AttemptRecord
from proctor.runner import Arm, scenario_skip
from proctor.scenario import LoadedScenario

StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Fail (exit 2) instead of skipping a model arm that has no API key, or a "
        "desktop scenario on a machine without the desktop stack.",
    ),
]
PricesOpt = Annotated[
    Path | None,
    typer.Option("--prices", help="Price table (TOML) instead of the shipped one."),
]
TimeScaleOpt = Annotated[
    float,
    typer.Option(
        "--time-scale",
        help="Multiply every wall limit by F, for slow backends (a local model on CPU); "
        "recorded in run.json and shown in the report.",
    ),
]
VisionOpt = Annotated[
    bool, typer.Option("--vision", help="Send model arms a screenshot with each observation.")
]
JudgeOpt = Annotated[
    str | None,
    typer.Option(
        "--judge",
        help="Model spec of the independent judge for scenarios' judge: criteria (off by "
        "default; refused when it is an arm's model).",
    ),
]


def model_specs(texts: Sequence[str], *, vision: bool, prices: Path | None) -> list[str]:
    """``--arm`` texts with the run-wide model options added to model specs."""
    out = []
    for text in texts:
        name, sep, spec = text.partition("=")
        if sep and ":" not in name:
            out.append(f"{name}={with_options(spec, vision=vision, prices=prices)}")
        else:
            out.append(with_options(text, vision=vision, prices=prices))
    return out


def check_arms(arms: Sequence[Arm], *, strict: bool, console: Console) -> None:
    """Print each skipped arm with its reason and each price warning; ``strict`` refuses skips.

    Raises:
        RunError: under ``strict``, naming every arm that cannot run.
    """
    skipped = [a for a in arms if a.skip]
    if strict and skipped:
        reasons = "; ".join(a.skip or "" for a in skipped)
        raise RunError(f"--strict: {reasons}; set the key(s) or drop --strict to skip")
    err = safe_console(stderr=True, soft_wrap=True)
    for a in skipped:
        console.print(f"[yellow]skipped[/] arm {markup(a.name)}: {markup(a.skip or '')}")
    for a in arms:
        if not a.skip:
            for warning in arm_warnings(a.name, a.spec):
                err.print(f"[yellow]warning:[/] {markup(warning)}", highlight=False)


def check_scenarios(scenarios: Sequence[LoadedScenario], *, strict: bool, console: Console) -> None:
    """Print each scenario this machine cannot run (a desktop one without the desktop
    stack) with its reason; ``strict`` refuses them.

    Raises:
        RunError: under ``strict``, naming every scenario that cannot run and why.
    """
    skipped = [(s.scenario.id, why) for s in scenarios if (why := scenario_skip(s.scenario))]
    if strict and skipped:
        names = ", ".join(name for name, _ in skipped)
        raise RunError(
            f"--strict: {names} cannot run here: {skipped[0][1]}; install it or drop --strict"
        )
    for name, why in skipped:
        console.print(f"[yellow]skipped[/] scenario {markup(name)}: {markup(why)}")


def judge_for(spec: str | None, arms: Sequence[Arm]) -> LLMJudge | None:
    """The judge for ``--judge``, refused when its model is an arm's model."""
    if spec is None:
        return None
    refuse_same_model(spec, [(a.name, a.spec) for a in arms])
    return make_judge(spec)


def print_model_facts(
    records: Sequence[AttemptRecord], arms: Sequence[Arm], console: Console
) -> None:
    """Under the table: decision latency medians, judge verdicts, the provider's spend."""
    by_arm: dict[str, list[float]] = {}
    for record in records:
        by_arm.setdefault(record.arm, []).extend(c.latency_ms for c in record.planner)
    for arm, latencies in by_arm.items():
        if latencies:
            median = statistics.median(latencies)
            console.print(
                f"decision latency, arm {markup(arm)}: median {median:.0f} ms "
                f"over {len(latencies)} planner call(s)"
            )
    for record in records:
        for verdict in record.judge:
            console.print(
                f"judge ({markup(verdict.model)}) {markup(record.id)} {markup(verdict.name)}: "
                f"{verdict.verdict} - {markup(verdict.reason)} (beside the checks, not in them)"
            )
    recorded = sorted({r.arm for r in records if any(c.recorded for c in r.planner)})
    for arm in recorded:
        console.print(
            f"[yellow]arm {markup(arm)} was answered by a replay provider: a recording, "
            "not a model result[/]"
        )
    ran = [(a.name, a.spec) for a in arms if not a.skip]
    for line in asyncio.run(spend_lines(ran)):
        console.print(markup(line))
