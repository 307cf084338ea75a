"""The run API: plan, run folder, run.json, attempts, summary and reports, in one place.

``proctor run``, ``models`` and ``calibrate`` go through it, and so can a script::

    import asyncio, proctor
    picked = proctor.select_scenarios(tiers=["local"])
    settings = proctor.RunSettings(repeat=2, label="nightly")
    outcome = asyncio.run(proctor.run(picked, ["oracle=scripted"], settings))
    print(outcome.folder.path, outcome.exit_code)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from proctor.api._arms import Preflight, build_arms, preflight, with_models
from proctor.api._clock import run_clock
from proctor.api._exit import exit_code, scored_tiers
from proctor.api._folder import Reports, RunFolder, stored_finish, stored_info
from proctor.api._settings import RunSettings
from proctor.errors import RunError
from proctor.records import SPEND_LEDGER, AttemptRecord, RunSummary
from proctor.runner import (
    Arm,
    Budget,
    PlanItem,
    ProgressHook,
    check_portable,
    execute,
    live_skip,
    make_executor,
    make_plan,
)
from proctor.scenario import (
    MINIWOB_VERSION,
    LoadedScenario,
    load_catalog,
    miniwob_version,
    task_sha256,
)
from proctor.world import all_sites


def peer_facts(scenarios: Sequence[LoadedScenario]) -> dict[str, Any]:
    """What a run of peer-suite scenarios ran against: the package version and the SHA-256
    of each task file (kept in run.json's config)."""
    tasks = sorted({s.scenario.world.miniwob.task for s in scenarios if s.scenario.world.miniwob})
    if not tasks:
        return {}
    return {
        "miniwob": {
            "version": miniwob_version(),
            "pinned": MINIWOB_VERSION,
            "tasks": {task: task_sha256(task) for task in tasks},
        }
    }


def select_scenarios(
    *,
    tiers: Sequence[str] = (),
    only: Sequence[str] = (),
    capabilities: Sequence[str] = (),
    folders: Sequence[Path] = (),
    shipped: bool = True,
) -> list[LoadedScenario]:
    """The shipped suite (and ``folders``), narrowed to ``tiers``, ``only`` ids and
    scenarios listing every one of ``capabilities``."""
    catalog = load_catalog(list(folders), sites=set(all_sites()), shipped=shipped)
    return catalog.select(tiers=list(tiers), only=list(only), capabilities=list(capabilities))


@dataclass(frozen=True)
class RunOutcome:
    """A finished run: its records, and its summary unless reports were off."""

    folder: RunFolder
    records: list[AttemptRecord]
    started_at: float
    finished_at: float
    reports: Reports | None
    strict: bool = False
    """Live-tier failures fail the run too (``--strict``)."""
    notes: tuple[str, ...] = ()
    """What the run found wrong and went past, one line each: spend ledger lines a kill
    cut short (``Budget.problems``)."""

    @property
    def summary(self) -> RunSummary | None:
        return self.reports.summary if self.reports else None

    @property
    def exit_code(self) -> int:
        """0, 1 (a local, model or desktop scenario failed; under ``strict``, a live one too)
        or 3 (nothing could be scored)."""
        rows = self.summary.rows if self.summary else []
        tiers = scored_tiers(self.strict)
        failed = any(r.result == "failed" and r.tier in tiers for r in rows)
        return exit_code(self.records, failed, strict=self.strict)


@dataclass(frozen=True)
class Run:
    """A planned run with its folder made; ``await run.execute()`` runs and reports it."""

    folder: RunFolder
    plan: list[PlanItem]
    settings: RunSettings = field(default_factory=RunSettings)
    """As given, with ``results`` absolute and ``options`` as the run uses them (its
    clock set, its judge and persona built)."""
    arms: tuple[Arm, ...] = ()
    scenarios: tuple[LoadedScenario, ...] = ()
    preflight: Preflight = field(default_factory=Preflight)
    """The arms and scenarios the run skips, and the arms' warnings."""

    @classmethod
    def open(
        cls,
        scenarios: Sequence[LoadedScenario],
        arms: Sequence[Arm | str],
        settings: RunSettings | None = None,
    ) -> Run:
        """Plan scenarios x arms x repeats, make the run folder and write run.json.

        ``arms`` are ``Arm``s or ``NAME=SPEC`` texts (the settings' ``vision`` and
        ``prices`` added to model specs). Arms and scenarios that cannot run here are
        skipped (``Run.preflight``) or, under ``settings.strict``, refused; the judge
        and persona specs are built. Live scenarios' hosts are probed now
        (``runner.live_skip``): those that did not answer are skipped, with the reason,
        and kept in run.json's config (``live``).

        Raises:
            RunError: no scenario, a bad arm, repeat, label, executor or budget, a
                label that exists, a resume that would change the plan, a judge or
                persona that is an arm's model, or (``strict``) a skip.
            StorageError: the results folder cannot be written.
        """
        settings = settings or RunSettings()
        if not scenarios:
            raise RunError("no scenario to run; `proctor list` shows them")
        if settings.resume and not settings.label:
            raise RunError("--resume needs the --label of the run to continue")
        parsed = build_arms(arms, vision=settings.vision, prices=settings.prices)
        found = preflight(parsed, scenarios, strict=settings.strict)
        # Once, here: every path derived from it (scratch, placeholders, the jail's
        # covers, what agents and apps are told) is absolute, whatever the cwd later is.
        results = settings.results.absolute()
        options = with_models(settings.options, settings.judge, settings.persona, parsed)
        clock = run_clock(options, results, settings.label, settings.resume)
        options = replace(options, clock=clock)
        plan = make_plan(scenarios, parsed, settings.repeat)
        executor, workers = settings.executor, settings.workers
        make_executor(executor, workers=workers, ray_address=settings.ray_address)  # refuse now
        if executor != "inline":
            check_portable(plan, options, executor)
        budget = settings.budget_usd
        if budget is not None and not budget >= 0:
            raise RunError(f"--budget must be a number of dollars, at least 0; got {budget}")
        run_config = dict(
            **dict(settings.config),
            clock=clock.isoformat(),
            arms=[f"{a.name}={a.spec}" for a in parsed],
            repeat=settings.repeat,
            scenarios=[s.scenario.id for s in scenarios],
            options=options.__dict__,
            executor=executor,
            workers=workers,
            budget_usd=budget,
            strict=settings.strict,
        )
        live = {s.scenario.id: live_skip(s.scenario) for s in scenarios if s.scenario.world.live}
        if live:
            run_config["live"] = live
        peers = peer_facts(scenarios)
        if peers:
            run_config["peers"] = peers
        folder = RunFolder.create(results, settings.label, run_config, resume=settings.resume)
        settings = replace(settings, results=results, options=options)
        return cls(folder, plan, settings, tuple(parsed), tuple(scenarios), found)

    async def execute(self, progress: ProgressHook | None = None) -> RunOutcome:
        """Run every attempt on the executor (each written as it ends), then the reports."""
        settings = self.settings
        executor = make_executor(
            settings.executor, workers=settings.workers, ray_address=settings.ray_address
        )
        budget = (
            Budget(settings.budget_usd, ledger=self.folder.path / SPEND_LEDGER)
            if settings.budget_usd is not None
            else None
        )
        self.folder.begin_leg(settings.executor, settings.workers)
        try:
            result = await execute(
                self.plan,
                self.folder.path,
                self.folder.label,
                settings.options,
                progress=progress,
                resume=settings.resume,
                executor=executor,
                budget=budget,
            )
        finally:
            self.folder.end_leg()
        # A resumed run started when its first leg did (run.json keeps every leg).
        stored = stored_info(self.folder.path)
        started_at = stored.started_at if stored is not None else result.started_at
        finished_at = result.finished_at
        if settings.resume and not result.ran:
            # Nothing ran: the run finished when its summary said, not now.
            finished_at = stored_finish(self.folder.path) or finished_at
        reports = None
        if settings.reports:
            reports = self.folder.finish(
                result.records,
                started_at,
                finished_at,
                settings.targets,
                settings.budget_usd,
                settings.options.time_scale,
            )
        return RunOutcome(
            self.folder,
            result.records,
            started_at,
            finished_at,
            reports,
            settings.strict,
            notes=tuple(budget.problems) if budget is not None else (),
        )


async def run(
    scenarios: Sequence[LoadedScenario],
    arms: Sequence[Arm | str],
    settings: RunSettings | None = None,
    *,
    progress: ProgressHook | None = None,
) -> RunOutcome:
    """Plan, make ``results/<label>/``, run every attempt, and write the summary and reports.

    ``Run.open`` then ``Run.execute``: see them for what is refused. ``progress`` is
    called as each attempt starts (record None) and ends.
    """
    return await Run.open(scenarios, arms, settings).execute(progress)
