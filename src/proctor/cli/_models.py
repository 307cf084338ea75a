"""Model-tier options of ``proctor run``, ``models`` and ``calibrate`` (keys, prices, vision,
the judge, the persona) and what they print: the arms and scenarios a run skips, the
models' facts under its table."""

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
from proctor.agents.llm import parse_model_spec, refuse_same_model, spend_lines
from proctor.api import Preflight
from proctor.errors import RunError
from proctor.records import AttemptRecord
from proctor.report import StoredRun
from proctor.runner import Arm

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


def print_preflight(found: Preflight, console: Console) -> None:
    """Each arm skipped with its reason, each price warning (on stderr), then each
    scenario skipped with its reason."""
    err = safe_console(stderr=True, soft_wrap=True)
    for arm in found.arms:
        console.print(f"[yellow]skipped[/] arm {markup(arm.name)}: {markup(arm.reason)}")
    for warning in found.warnings:
        err.print(f"[yellow]warning:[/] {markup(warning)}", highlight=False)
    for scenario in found.scenarios:
        console.print(
            f"[yellow]skipped[/] scenario {markup(scenario.name)}: {markup(scenario.reason)}"
        )


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
