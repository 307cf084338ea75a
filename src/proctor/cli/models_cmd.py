"""proctor models: two or more model arms in one run, side by side, then paired by scenario.

Exit codes are ``proctor run``'s: 0 no scored scenario failed, 1 a local, model or
desktop scenario failed, 2 a usage or setup error (a spec that names no model), 3
nothing could be scored because of infra errors.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.agents.llm import is_model_spec, parse_model_spec
from proctor.api import EXIT_UNSCORED, Run, RunOutcome
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
    check_arms,
    check_scenarios,
    model_specs,
    persona_for,
)
from proctor.cli._scale import (
    BudgetOpt,
    ExecutorOpt,
    WorkersOpt,
    default_retry_delays,
    executor_kind,
)
from proctor.cli.report import print_paths
from proctor.compare import CANARY_ARM, compare_models, models_page
from proctor.errors import RunError
from proctor.records import AttemptRecord, check_label
from proctor.report import ComparePaths, TablesPage, print_diagnose, write_tables
from proctor.runner import PlanItem, RunOptions, parse_arm

__all__ = ["arm_names", "models"]

DEFAULT_TIER = "model"
"""The tier run when neither --tier nor --only is given."""
NAME_MAX = 90
"""Characters of a derived arm name before its -2, -3 (a label holds 100)."""

_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def _derived(spec: str) -> str:
    """``gpt-4.1-mini`` for ``openai:gpt-4.1-mini``; ``-plan``/``-vision``/``-computer`` for
    those options."""
    config = parse_model_spec(spec)
    base = _NOT_IN_NAME.sub("-", config.model).strip("-._")[:NAME_MAX] or config.provider
    return (
        base
        + ("-plan" if config.planning else "")
        + ("-vision" if config.vision else "")
        + ("-computer" if config.computer else "")
    )


def arm_names(texts: Sequence[str]) -> list[tuple[str, str]]:
    """(name, spec) for each ``SPEC`` or ``NAME=SPEC``, in order.

    A ``NAME=`` is kept as given; otherwise the name is the spec's model id with what
    a label cannot hold as ``-`` (``qwen/qwen3`` -> ``qwen-qwen3``), then ``-plan``
    and ``-vision`` for those options, then ``-2``, ``-3`` for the second and third
    arm that would share it.

    Raises:
        RunError: a spec that names no model (naming it), an invalid model spec, or a
            name given twice.
    """
    given: list[tuple[str | None, str]] = []
    for text in texts:
        name, sep, spec = text.partition("=")
        if not sep or ":" in name:  # the "=" belongs to the spec (openai:m+temperature=0)
            name, spec = "", text
        spec = spec.strip()
        if not is_model_spec(spec):
            raise RunError(
                f"proctor models: {text!r} is not a model arm spec; give openai:MODEL, "
                "openai-compatible:MODEL@URL or anthropic:MODEL (options after +, NAME=SPEC "
                "to name the arm); other agents run with proctor run --arm"
            )
        parse_model_spec(spec)  # an invalid spec is refused here, naming it
        given.append((name.strip() or None, spec))
    explicit = [name for name, _ in given if name]
    twice = sorted({name for name in explicit if explicit.count(name) > 1})
    if twice:
        raise RunError(f"proctor models: arm name(s) {', '.join(twice)} given twice")
    taken = {*explicit, CANARY_ARM}
    out: list[tuple[str, str]] = []
    for named, spec in given:
        name = named or _derived(spec)
        if named is None:
            base, n = name, 1
            while name in taken:
                n += 1
                name = f"{base}-{n}"
            taken.add(name)
        out.append((name, spec))
    return out


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


def _execute(planned: Run, console: Console) -> RunOutcome:
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("starting", total=len(planned.plan))

        def hook(item: PlanItem, record: AttemptRecord | None) -> None:
            if record is None:
                progress.update(task, description=item.attempt_id)
            else:
                progress.advance(task)

        return asyncio.run(planned.execute(progress=hook))


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
    named = arm_names(specs)
    if len(named) < 2:
        raise RunError(
            f"proctor models needs at least two model arms, got {len(named)}; "
            "e.g. proctor models openai:gpt-4.1-mini anthropic:claude-sonnet-4-5"
        )
    tiers = tier or ([] if only or capability else [DEFAULT_TIER])
    picked = catalog(scenarios).select(
        tiers=tiers, only=split_only(only), capabilities=capability or []
    )
    if not picked:
        raise RunError(
            "no scenario matches --tier/--only/--capability (without them: the model tier); "
            "`proctor list` shows them"
        )
    texts = model_specs([f"{name}={spec}" for name, spec in named], vision=vision, prices=prices)
    arms = [parse_arm(text) for text in texts]
    console = safe_console()
    check_arms(arms, strict=strict, console=console)
    check_scenarios(picked, strict=strict, console=console)
    the_persona = persona_for(persona, arms)
    kind, count = executor_kind(executor, workers)
    options = RunOptions(
        infra_retries=retries,
        retry_delays=default_retry_delays(),
        time_scale=time_scale,
        persona=the_persona,
    )
    planned = Run.open(
        picked, arms, repeat=repeat, options=options, results=results, label=label,
        config={"command": "models", "tiers": tiers, "only": split_only(only)},
        executor=kind, workers=count, budget_usd=budget, strict=strict,
    )  # fmt: skip
    where = f" on {kind} x {count}" if kind != "inline" else ""
    console.print(
        f"run [bold]{markup(planned.folder.label)}[/]: {len(picked)} scenario(s) x "
        f"{len(arms)} model arm(s) x {repeat}{where}",
        highlight=False,
    )
    outcome = _execute(planned, console)
    comparison = compare_models(
        outcome.folder.label, outcome.records, {a.name: a.spec for a in arms}, repeat
    )
    page = models_page(comparison)
    paths = write_tables(outcome.folder.path, page)
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
