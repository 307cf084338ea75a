"""proctor gate: GO / NO-GO / INCONCLUSIVE for a candidate against a baseline.

Exit codes: 0 GO, 1 NO-GO, 3 INCONCLUSIVE, 2 a usage or setup error.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, get_type_hints

import typer
from rich.console import Console

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.api import Gate, GateSpec, RunSettings
from proctor.cli._common import (
    CapabilityOpt,
    OnlyOpt,
    ResultsOpt,
    ScenariosOpt,
    TierOpt,
    split_only,
)
from proctor.cli._progress import attempt_bar
from proctor.cli._scale import default_retry_delays
from proctor.compare import render_verdict
from proctor.report import load_targets
from proctor.runner import RunOptions
from proctor.runner.gate import SideSpec

GateOpt = Annotated[
    Path | None,
    typer.Option(
        "--gate",
        help="The gate file: which scenarios decide, with their hashes (default: ./gate.json "
        "when it exists, else the gate.json shipped with proctor).",
        show_default=False,
    ),
]


RepeatOpt = Annotated[
    int,
    typer.Option(
        "--repeat", min=1, help="Attempts per scenario x side (five can reach NO-GO over ~10)."
    ),
]
LabelOpt = Annotated[
    str | None,
    typer.Option(
        "--label",
        help="Label of the run the job makes: 1-100 of A-Z a-z 0-9 . _ - (default: the time).",
    ),
]
TopUpsOpt = Annotated[
    bool,
    typer.Option(
        "--top-ups/--no-top-ups",
        help="Give gate scenarios that dropped or ran too few attempts 7 more on both sides.",
    ),
]
RetriesOpt = Annotated[int, typer.Option("--retries", min=0, help="Infra-fault retries.")]
DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Print the plan and its power; run and judge nothing.")
]
RequirePowerOpt = Annotated[
    bool,
    typer.Option(
        "--require-power",
        help="A GO from a plan too small to ever reach NO-GO by rule (a) is INCONCLUSIVE.",
    ),
]


@dataclass(frozen=True)
class GateArgs:
    """The options ``proctor gate`` and ``proctor refs`` share, as their commands got them."""

    tier: list[str] | None
    only: str | None
    scenarios: list[Path] | None
    repeat: int
    gate_file: Path | None
    """None: ./gate.json when it exists, else the shipped file (``api.resolve_gate``)."""
    results: Path
    label: str | None
    top_ups: bool
    retries: int
    dry_run: bool = False
    require_power: bool = False
    capability: list[str] | None = None

    def spec(self) -> GateSpec:
        """What the gate judges on, as the API takes it."""
        return GateSpec(
            gate_file=self.gate_file,
            tiers=tuple(self.tier or ()),
            only=tuple(split_only(self.only)),
            capabilities=tuple(self.capability or ()),
            folders=tuple(self.scenarios or ()),
            top_ups=self.top_ups,
            require_power=self.require_power,
        )

    def settings(self) -> RunSettings:
        """The run a gate job makes, as the API takes it: the shipped bars, retries at
        $PROCTOR_RETRY_DELAYS."""
        options = RunOptions(infra_retries=self.retries, retry_delays=default_retry_delays())
        return RunSettings(
            repeat=self.repeat,
            results=self.results,
            label=self.label,
            options=options,
            targets=load_targets(None),
        )


_SHARED: tuple[tuple[str, Any, Any], ...] = (
    ("tier", TierOpt, None),
    ("only", OnlyOpt, None),
    ("capability", CapabilityOpt, None),
    ("scenarios", ScenariosOpt, None),
    ("repeat", RepeatOpt, 5),
    ("gate_file", GateOpt, None),
    ("results", ResultsOpt, Path("results")),
    ("label", LabelOpt, None),
    ("top_ups", TopUpsOpt, True),
    ("retries", RetriesOpt, 2),
    ("dry_run", DryRunOpt, False),
    ("require_power", RequirePowerOpt, False),
)
"""The options of every gate command, once: (name, typer annotation, default)."""


def gate_options(command: Callable[..., None]) -> Callable[..., None]:
    """Give a command the shared gate options; it receives them as ``args: GateArgs``.

    typer reads a command's parameters from its signature, so the wrapper's
    signature is the command's own parameters plus the shared ones.
    """
    hints = get_type_hints(command, include_extras=True)
    own = [
        p.replace(annotation=hints[p.name])
        for p in inspect.signature(command).parameters.values()
        if p.name != "args"
    ]
    shared = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint)
        for name, hint, default in _SHARED
    ]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> None:
        args = GateArgs(**{name: kwargs.pop(name) for name, _, _ in _SHARED})
        command(**kwargs, args=args)

    parameters = [*own, *shared]
    signature = inspect.Signature(parameters, return_annotation=None)
    wrapper.__signature__ = signature  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": None}
    del wrapper.__wrapped__
    return wrapper


def gate_job(baseline: SideSpec | str, candidate: SideSpec | str, args: GateArgs) -> int:
    """Plan (``proctor.api.Gate``), print the plan and its power, run what must run, print
    the verdict; the exit code (0 for a dry run)."""
    console = safe_console(highlight=False, soft_wrap=True)
    planned = Gate.open(baseline, candidate, args.spec(), args.settings())
    print_plan(planned, console)
    if args.dry_run:
        return 0
    folder = planned.begin()
    if folder is None:
        result = asyncio.run(planned.execute())
    else:
        console.print(f"run [bold]{markup(folder.label)}[/]", highlight=False)

        def say(line: str) -> None:
            console.print(line, markup=False)

        with attempt_bar(console, planned.attempts) as bar:
            result = asyncio.run(planned.execute(folder, progress=bar, say=say))
    console.print(render_verdict(result.verdict), markup=False)
    console.print(f"verdict: {result.verdict_file} (exit {result.exit_code})", markup=False)
    return result.exit_code


def print_plan(planned: Gate, console: Console) -> None:
    """What ``--dry-run`` prints: scenarios the gate file no longer gates, the sides, the
    plan, and its power."""
    job, gate_file = planned.job, planned.gate_file
    for removal in planned.removed:
        console.print(
            f"gate.json: {removal.scenario} is not gating: {removal.reason}", markup=False
        )
    console.print(
        f"gate: baseline {job.baseline.name} vs candidate {job.candidate.name}", markup=False
    )
    if job.runs_anything:
        gated = job.gated_in_plan()
        console.print(
            f"plan: {len(job.scenarios)} scenario(s), {len(gated)} of them in {gate_file}, "
            f"x {len(job.arm_sides)} arm(s) x {job.repeat} repeat(s); the harness canary first",
            markup=False,
        )
        if not gated:
            console.print(
                f"none of the planned scenarios is a gate scenario in {gate_file}: "
                "the verdict will be INCONCLUSIVE; `proctor promote` adds proven ones",
                markup=False,
            )
    console.print(
        planned.power.text()
        if planned.power is not None
        else "power: unknown, a side has no attempt of a gate scenario",
        markup=False,
    )


@gate_options
def gate(
    baseline: Annotated[
        str,
        typer.Option(
            "--baseline",
            help="A run LABEL (or LABEL/ARM), or an arm spec: scripted, decoy:NAME, command:CMD.",
        ),
    ],
    candidate: Annotated[
        str, typer.Option("--candidate", help="The side under judgement; same forms.")
    ],
    *,
    args: GateArgs,
) -> None:
    """Judge a candidate against a baseline on the gate scenarios: GO, NO-GO or INCONCLUSIVE.

    Arm sides run together in one new run (canary first, then every scenario x
    arm x repeat, then top-ups); run labels are read as stored. Without --tier
    or --only, the gate scenarios of gate.json run. The verdict names the rule
    that fired with its numbers, and is written to gate-verdict.json in the new
    run's folder (two stored runs: gate-verdict-vs-BASELINE.json in the
    candidate run's folder).

    Exit codes: 0 GO, 1 NO-GO, 3 INCONCLUSIVE, 2 usage or setup error.
    """
    code = gate_job(baseline, candidate, args)
    if code:
        raise typer.Exit(code)


__all__ = ["GateArgs", "gate", "gate_job", "gate_options", "print_plan"]
