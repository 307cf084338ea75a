"""Model-tier options of ``proctor run`` (and calibrate): keys, prices, vision, the judge,
the persona."""

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
    LLMPersona,
    arm_warnings,
    make_judge,
    make_persona,
    parse_model_spec,
    refuse_persona_model,
    refuse_same_model,
    spend_lines,
    with_options,
)
from proctor.errors import RunError
from proctor.records import AttemptRecord
from proctor.report import StoredRun
from proctor.runner import Arm, scenario_skip
from proctor.scenario import LoadedScenario

StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="Fail (exit 2) instead of skipping a model arm that has no API key, a "
        "desktop scenario on a machine without the desktop stack, or a live scenario whose "
        "hosts the connectivity probe could not reach; and let live failures fail the run "
        "(exit 1).",
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

PersonaOpt = Annotated[
    str | None,
    typer.Option(
        "--persona",
        help="Model spec that plays the simulated user for questions the scenario's user: "
        'script does not answer, in its persona (off by default: they get "I don\'t know."; '
        "recorded in run.json, never used for grading; refused when it is an arm's model).",
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
    stack, a live one offline) with its reason; ``strict`` refuses them.

    Raises:
        RunError: under ``strict``, naming every scenario that cannot run and why.
    """
    skipped = [(s.scenario.id, why) for s in scenarios if (why := scenario_skip(s.scenario))]
    if strict and skipped:
        names = ", ".join(name for name, _ in skipped)
        raise RunError(
            f"--strict: {names} cannot run here: {skipped[0][1]}; fix that, or drop --strict "
            "to skip"
        )
    for name, why in skipped:
        console.print(f"[yellow]skipped[/] scenario {markup(name)}: {markup(why)}")


def judge_for(spec: str | None, arms: Sequence[Arm]) -> LLMJudge | None:
    """The judge for ``--judge``, refused when its model is an arm's model."""
    if spec is None:
        return None
    refuse_same_model(spec, [(a.name, a.spec) for a in arms])
    return make_judge(spec)


def persona_for(spec: str | None, arms: Sequence[Arm]) -> LLMPersona | None:
    """The persona for ``--persona``, refused when its model is an arm's model."""
    if spec is None:
        return None
    refuse_persona_model(spec, [(a.name, a.spec) for a in arms])
    return make_persona(spec)


def refuse_stored_model(spec: str, run: StoredRun) -> None:
    """Refuse a judge (``--judge SPEC`` of review, rejudge) whose model an arm of ``run`` used.

    The arms are run.json's specs, and every model an attempt record names (a run
    made before run.json held its arms, or from a spec that pinned another model).

    Raises:
        RunError: naming the arm and the model.
    """
    arms = run.info.config.get("arms") if run.info is not None else None
    stored = [tuple(str(a).split("=", 1)) for a in arms] if isinstance(arms, list) else []
    refuse_same_model(spec, [(a[0], a[1]) for a in stored if len(a) == 2])
    model = parse_model_spec(spec).model
    for record in run.records:
        if record.model == model:
            raise RunError(
                f"--judge {spec}: model {model} is also arm {record.arm}'s model (attempt "
                f"{record.id}); the judge must be independent, so give --judge another model"
            )


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
