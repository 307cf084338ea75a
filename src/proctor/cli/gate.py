"""proctor gate: GO / NO-GO / INCONCLUSIVE for a candidate against a baseline.

Exit codes: 0 GO, 1 NO-GO, 3 INCONCLUSIVE, 2 a usage or setup error.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, get_type_hints

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.api import RunFolder
from proctor.cli._common import (
    CapabilityOpt,
    OnlyOpt,
    ResultsOpt,
    ScenariosOpt,
    TierOpt,
    catalog,
    split_only,
)
from proctor.cli._scale import default_retry_delays
from proctor.records import AttemptRecord, check_label
from proctor.report import load_targets
from proctor.runner import PlanItem, RunOptions
from proctor.scenario import SUITE_ROOT, Catalog, load_catalog, scenario_files
from proctor.world import all_sites

if TYPE_CHECKING:
    from proctor.runner.gate import GateJob, GateOutcome, SideSpec

SHIPPED_GATE = SUITE_ROOT / "gate.json"
"""The gate file that ships with proctor: the suite's regression scenarios, proven."""
LOCAL_GATE = Path("gate.json")
"""The working folder's gate file, which ``proctor promote`` writes."""

GateOpt = Annotated[
    Path | None,
    typer.Option(
        "--gate",
        help="The gate file: which scenarios decide, with their hashes (default: ./gate.json "
        "when it exists, else the gate.json shipped with proctor).",
        show_default=False,
    ),
]


def resolve_gate(given: Path | None) -> Path:
    """The gate file to read: ``given``, else ./gate.json when it exists, else the shipped one.

    Resolved when a command runs, so a ./gate.json made by ``proctor promote``
    wins over the shipped file from then on.
    """
    if given is not None:
        return given
    return LOCAL_GATE if LOCAL_GATE.exists() else SHIPPED_GATE


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


def _console() -> Console:
    return safe_console(highlight=False, soft_wrap=True)


def catalog_for(scenarios: list[Path] | None, ids: Collection[str] | None) -> Catalog:
    """The catalog, loading only the files of ``ids`` (a scenario's id is its file name).

    Loading every file parses the whole suite; a gate names its scenarios, so it
    reads just those. ``ids`` None loads everything (e.g. for ``--tier``).
    """
    if ids is None:
        return catalog(scenarios)
    files = [f for f in scenario_files(scenarios or []) if f.stem in ids]
    return load_catalog(files, sites=set(all_sites()), shipped=False)


@dataclass(frozen=True)
class GateArgs:
    """The options ``proctor gate`` and ``proctor refs`` share, as their commands got them."""

    tier: list[str] | None
    only: str | None
    scenarios: list[Path] | None
    repeat: int
    gate_file: Path | None
    """None: ``resolve_gate`` picks ./gate.json or the shipped file."""
    results: Path
    label: str | None
    top_ups: bool
    retries: int
    dry_run: bool = False
    require_power: bool = False
    capability: list[str] | None = None


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


def gate_job(baseline: SideSpec, candidate: SideSpec, args: GateArgs) -> int:
    """Plan, print the power, run what must run, print and store the verdict; the exit code."""
    # Imported here: the statistics load scipy, which every other command can do without.
    from proctor.compare import (
        CANARY,
        SEED_RULES,
        ScenarioInfo,
        invalidate_edited,
        keep_scenarios,
        load_gate,
        render_verdict,
    )
    from proctor.runner.gate import (
        GateJob,
        RunSide,
        planned_power,
        run_gate,
        write_verdict,
    )

    tier, only, scenarios, repeat = args.tier, args.only, args.scenarios, args.repeat
    gate_path, results, label = resolve_gate(args.gate_file), args.results, args.label
    top_ups = args.top_ups
    retries, dry_run = args.retries, args.dry_run
    if label is not None:
        check_label(label)
    console = _console()
    gate = load_gate(gate_path)
    capability = args.capability or []
    wanted = None if tier or capability else {CANARY, *gate.hashes(), *split_only(only)}
    cat = catalog_for(scenarios, wanted)
    if not set(split_only(only)) <= cat.scenarios.keys():
        cat = catalog(scenarios)  # the whole suite, so --only's error can suggest ids
    current = {sid: ScenarioInfo.of(loaded) for sid, loaded in cat.scenarios.items()}
    for removal in invalidate_edited(gate, current).removed:
        console.print(
            f"gate.json: {removal.scenario} is not gating: {removal.reason}", markup=False
        )
    chosen = bool(tier or only or capability)
    if chosen:
        picked = cat.select(tiers=tier or [], only=split_only(only), capabilities=capability)
    else:
        picked = [cat.scenarios[sid] for sid in sorted(gate.active(current))]
    planned = [p for p in picked if p.scenario.id != CANARY]
    ids = {p.scenario.id for p in planned} if chosen else None
    sides = [
        dataclasses.replace(s, records=tuple(keep_scenarios(s.records, ids)))
        if isinstance(s, RunSide)
        else s
        for s in (baseline, candidate)
    ]
    job = GateJob(
        baseline=sides[0],
        candidate=sides[1],
        scenarios=planned,
        canary=cat.scenarios.get(CANARY),
        gate=gate.hashes(),
        repeat=repeat,
        top_ups=top_ups,
        rules=dataclasses.replace(SEED_RULES, require_power=args.require_power),
    )
    job.check()
    console.print(
        f"gate: baseline {job.baseline.name} vs candidate {job.candidate.name}", markup=False
    )
    if job.runs_anything:
        gated = job.gated_in_plan()
        console.print(
            f"plan: {len(planned)} scenario(s), {len(gated)} of them in {gate_path}, "
            f"x {len(job.arm_sides)} arm(s) x {repeat} repeat(s); the harness canary first",
            markup=False,
        )
        if not gated:
            console.print(
                f"none of the planned scenarios is a gate scenario in {gate_path}: "
                "the verdict will be INCONCLUSIVE; `proctor promote` adds proven ones",
                markup=False,
            )
    power = planned_power(job)
    console.print(
        power.text()
        if power is not None
        else "power: unknown, a side has no attempt of a gate scenario",
        markup=False,
    )
    if dry_run:
        return 0
    options = RunOptions(infra_retries=retries, retry_delays=default_retry_delays())
    run_label: str | None = None
    if job.runs_anything:
        run_folder = RunFolder.create(results, label, dict(
            command="gate", baseline=job.baseline.name, candidate=job.candidate.name,
            arms=[f"{s.arm.name}={s.arm.spec}" for s in job.arm_sides], repeat=repeat,
            scenarios=[p.scenario.id for p in planned], gate=str(gate_path), top_ups=top_ups,
            tiers=tier or [], only=split_only(only), options=options.__dict__,
        ))  # fmt: skip
        run_label = run_folder.label
        console.print(f"run [bold]{markup(run_label)}[/]", highlight=False)
        # A leg as `proctor run` has: `tail`, `runs` and `cleanup` see the driver at work.
        run_folder.begin_leg("inline", 1)
        try:
            outcome = _run_with_progress(job, run_folder.path, options, console)
        finally:
            run_folder.end_leg()
        # The verdict first: report.html shows it (its gate block) from the run folder.
        path = write_verdict(run_folder.path, outcome.file(job, run_label, gate_path))
        run_folder.finish(
            outcome.records,
            outcome.started_at,
            outcome.finished_at,
            load_targets(None),
            time_scale=options.time_scale,
        )
    else:
        outcome = asyncio.run(run_gate(job, None, options))
        cand = job.candidate
        assert isinstance(cand, RunSide)
        # The candidate run's own gate-verdict.json (if a gate job made it) stays as it was.
        name = f"gate-verdict-vs-{job.baseline.name.replace('/', '-')}.json"
        path = write_verdict(results / cand.label, outcome.file(job, run_label, gate_path), name)
    console.print(render_verdict(outcome.verdict), markup=False)
    console.print(f"verdict: {path} (exit {outcome.exit_code})", markup=False)
    return outcome.exit_code


def _run_with_progress(
    job: GateJob, run_dir: Path, options: RunOptions, console: Console
) -> GateOutcome:
    from proctor.runner.gate import run_gate

    total = len(job.scenarios) * len(job.arm_sides) * job.repeat
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("starting", total=total)

        def hook(item: PlanItem, record: AttemptRecord | None) -> None:
            if record is None:
                progress.update(task, description=item.attempt_id)
            else:
                progress.advance(task)
                done = progress.tasks[0].completed
                if done > (progress.tasks[0].total or 0):
                    progress.update(task, total=done)

        def say(line: str) -> None:
            console.print(line, markup=False)

        return asyncio.run(run_gate(job, run_dir, options, progress=hook, say=say))


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
    from proctor.runner.gate import resolve_side

    code = gate_job(
        resolve_side("baseline", baseline, args.results),
        resolve_side("candidate", candidate, args.results),
        args,
    )
    if code:
        raise typer.Exit(code)


__all__ = [
    "LOCAL_GATE",
    "SHIPPED_GATE",
    "GateArgs",
    "gate",
    "gate_job",
    "gate_options",
    "resolve_gate",
]
