"""The run API: plan, run folder, run.json, attempts, summary and reports, in one place.

Every command that runs attempts goes through it (``proctor run``, ``gate``,
``refs``, ``calibrate``), and so can a script::

    import asyncio, proctor
    picked = proctor.select_scenarios(tiers=["local"])
    outcome = asyncio.run(proctor.run(picked, ["oracle=scripted"], repeat=2, label="nightly"))
    print(outcome.folder.path, outcome.exit_code)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from proctor.errors import RunError
from proctor.records import (
    SPEND_LEDGER,
    AttemptRecord,
    Leg,
    RunInfo,
    RunSummary,
    write_model_atomic,
)
from proctor.report import ReportPaths, Targets, summarize, write_outputs
from proctor.runner import (
    Arm,
    Budget,
    PlanItem,
    ProgressHook,
    RunOptions,
    check_portable,
    check_same_plan,
    config_of,
    execute,
    live_skip,
    make_executor,
    make_plan,
    new_run_dir,
    parse_arm,
    run_info,
    write_run_info,
)
from proctor.scenario import (
    MINIWOB_VERSION,
    LoadedScenario,
    load_catalog,
    miniwob_version,
    task_sha256,
)
from proctor.vocab import ExecutorKind, Tier
from proctor.world import all_sites

SCORED_TIERS: tuple[Tier, ...] = ("local", "model", "desktop")
"""Tiers whose failures fail the run (exit 1); under ``strict``, the live tier's too."""
EXIT_FAILED = 1
EXIT_UNSCORED = 3


def scored_tiers(strict: bool = False) -> tuple[Tier, ...]:
    """The tiers whose attempts decide the exit code: the live tier's only under ``strict``
    (public sites change and go down; a live failure is news, not a broken build)."""
    return (*SCORED_TIERS, "live") if strict else SCORED_TIERS


def exit_code(records: Sequence[AttemptRecord], failed: bool, *, strict: bool = False) -> int:
    """The exit code of a run: 1 when a scored scenario ``failed``, 3 when nothing was scored.

    Nothing scored means no attempt passed or failed and at least one ended in
    an infra error: the harness, not the agent, decided the run. A run whose
    attempts were all skipped (a model arm without its key, a live scenario
    offline) exits 0. The live tier's attempts count only under ``strict``.
    """
    if failed:
        return EXIT_FAILED
    counted = [r for r in records if strict or r.tier != "live"]
    scored = any(r.result in ("passed", "failed") for r in counted)
    if counted and not scored and any(r.result == "error" for r in counted):
        return EXIT_UNSCORED
    return 0


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
class Reports:
    """What a finished run wrote: its summary and the paths of its reports."""

    summary: RunSummary
    paths: ReportPaths


@dataclass(frozen=True)
class RunFolder:
    """``results/<label>/`` with its run.json written."""

    label: str
    path: Path
    results: Path

    @classmethod
    def create(
        cls, results: Path, label: str | None, config: Mapping[str, Any], *, resume: bool = False
    ) -> RunFolder:
        """Make the folder (a label is never overwritten unless resumed) and write run.json.

        A resume keeps the run.json of the first leg (its start, its config) and
        refuses a plan that differs from it.

        Raises:
            RunError: the label exists (and ``resume`` is false) or breaks the label rule,
                or a resume would change the scenarios, arms or repeats.
            StorageError: the results folder cannot be written.
        """
        label, path = new_run_dir(results, label, resume=resume)
        fresh = run_info(label, config_of(**config))
        stored = _stored_info(path) if resume else None
        if stored is not None:
            check_same_plan(stored.config, fresh.config, label)
            fresh = stored.model_copy(update={"command": fresh.command})
        write_run_info(path, fresh)
        return cls(label, path, results)

    def begin_leg(self, executor: ExecutorKind, workers: int) -> None:
        """Add this leg (the first start or a resume) to run.json."""
        info = _stored_info(self.path)
        if info is None:
            return
        leg = Leg(started_at=time.time(), executor=executor, workers=workers, pid=os.getpid())
        write_model_atomic(
            self.path / "run.json", info.model_copy(update={"legs": [*info.legs, leg]})
        )

    def end_leg(self) -> None:
        """Mark this process's open leg ended in run.json."""
        info = _stored_info(self.path)
        if info is None or not info.legs or info.legs[-1].pid != os.getpid():
            return
        legs = [*info.legs[:-1], info.legs[-1].model_copy(update={"ended_at": time.time()})]
        write_model_atomic(self.path / "run.json", info.model_copy(update={"legs": legs}))

    def finish(
        self,
        records: Sequence[AttemptRecord],
        started_at: float,
        finished_at: float,
        targets: Targets | None = None,
        budget_usd: float | None = None,
        time_scale: float = 1.0,
    ) -> Reports:
        """Write summary.json, report.md, report.html and the run's line of history.jsonl."""
        summary = summarize(
            self.label, records, started_at, finished_at, targets, budget_usd, time_scale
        )
        paths = write_outputs(self.path, self.results, summary, records)
        return Reports(summary, paths)


CLOCK_ENV = "PROCTOR_CLOCK"
"""An ISO 8601 time with its zone: the run clock of new runs (reproducible dated pages)."""


def run_clock(options: RunOptions, results: Path, label: str | None, resume: bool) -> dt.datetime:
    """The run's clock: a resumed run's own, else the options', $PROCTOR_CLOCK, or now.

    Every worker and every leg of a run reads dates from this one clock.

    Raises:
        RunError: $PROCTOR_CLOCK is not an ISO 8601 time with a zone.
    """
    if resume and label:
        stored = _stored_info(results / label)
        text = stored.config.get("clock") if stored is not None else None
        if isinstance(text, str):
            with contextlib.suppress(ValueError):
                return dt.datetime.fromisoformat(text)
    if options.clock is not None:
        return options.clock
    text = os.environ.get(CLOCK_ENV, "").strip()
    if text:
        try:
            clock = dt.datetime.fromisoformat(text)
        except ValueError:
            clock = None
        if clock is None or clock.tzinfo is None:
            raise RunError(
                f"{CLOCK_ENV}={text!r} is not an ISO 8601 time with its zone, "
                "e.g. 2026-11-02T09:30:00+00:00"
            )
        return clock
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def _stored_info(path: Path) -> RunInfo | None:
    try:
        return RunInfo.model_validate_json((path / "run.json").read_bytes())
    except (OSError, ValueError):
        return None


def _stored_finish(path: Path) -> float | None:
    """When the run's stored summary.json says it finished; None without a readable one."""
    try:
        return RunSummary.model_validate_json((path / "summary.json").read_bytes()).finished_at
    except (OSError, ValueError):
        return None


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
    options: RunOptions = field(default_factory=RunOptions)
    resume: bool = False
    targets: Targets | None = None
    reports: bool = True
    """Write summary.json, report.md, report.html and history.jsonl (calibrate does not)."""
    executor: ExecutorKind = "inline"
    workers: int = 1
    ray_address: str | None = None
    budget_usd: float | None = None
    strict: bool = False
    """Live-tier failures fail the run (exit 1), as the other scored tiers' do."""

    @classmethod
    def open(
        cls,
        scenarios: Sequence[LoadedScenario],
        arms: Sequence[Arm | str],
        *,
        repeat: int = 1,
        options: RunOptions | None = None,
        results: Path = Path("results"),
        label: str | None = None,
        resume: bool = False,
        targets: Targets | None = None,
        config: Mapping[str, Any] | None = None,
        reports: bool = True,
        executor: ExecutorKind = "inline",
        workers: int = 1,
        ray_address: str | None = None,
        budget_usd: float | None = None,
        strict: bool = False,
    ) -> Run:
        """Plan scenarios x arms x repeats, make the run folder and write run.json.

        ``arms`` are ``Arm``s or ``NAME=SPEC`` texts; ``config`` adds entries to
        run.json's config (the command's selection, say) before the plan's own.
        ``executor`` and ``workers`` say where attempts run (the results tree is
        the same); ``budget_usd`` stops starting attempts before the spend passes it.
        Live scenarios' hosts are probed now (``runner.live_skip``): those that did not
        answer are skipped, with the reason, and kept in run.json's config (``live``);
        ``strict`` makes live failures fail the run.

        Raises:
            RunError: no scenario, a bad arm, repeat, label, executor or budget, a
                label that exists, or a resume that would change the plan.
            StorageError: the results folder cannot be written.
        """
        if not scenarios:
            raise RunError("no scenario to run; `proctor list` shows them")
        if resume and not label:
            raise RunError("--resume needs the --label of the run to continue")
        # Once, here: every path derived from it (scratch, placeholders, the jail's
        # covers, what agents and apps are told) is absolute, whatever the cwd later is.
        results = results.absolute()
        options = options or RunOptions()
        options = replace(options, clock=run_clock(options, results, label, resume))
        parsed = [a if isinstance(a, Arm) else parse_arm(a) for a in arms]
        plan = make_plan(scenarios, parsed, repeat)
        make_executor(executor, workers=workers, ray_address=ray_address)  # refuse bad ones now
        if executor != "inline":
            check_portable(plan, options, executor)
        if budget_usd is not None and not budget_usd >= 0:
            raise RunError(f"--budget must be a number of dollars, at least 0; got {budget_usd}")
        assert options.clock is not None
        run_config = dict(
            **dict(config or {}),
            clock=options.clock.isoformat(),
            arms=[f"{a.name}={a.spec}" for a in parsed],
            repeat=repeat,
            scenarios=[s.scenario.id for s in scenarios],
            options=options.__dict__,
            executor=executor,
            workers=workers,
            budget_usd=budget_usd,
            strict=strict,
        )
        live = {s.scenario.id: live_skip(s.scenario) for s in scenarios if s.scenario.world.live}
        if live:
            run_config["live"] = live
        peers = peer_facts(scenarios)
        if peers:
            run_config["peers"] = peers
        folder = RunFolder.create(results, label, run_config, resume=resume)
        return cls(
            folder,
            plan,
            options,
            resume,
            targets,
            reports,
            executor=executor,
            workers=workers,
            ray_address=ray_address,
            budget_usd=budget_usd,
            strict=strict,
        )

    async def execute(self, progress: ProgressHook | None = None) -> RunOutcome:
        """Run every attempt on the executor (each written as it ends), then the reports."""
        executor = make_executor(self.executor, workers=self.workers, ray_address=self.ray_address)
        budget = (
            Budget(self.budget_usd, ledger=self.folder.path / SPEND_LEDGER)
            if self.budget_usd is not None
            else None
        )
        self.folder.begin_leg(self.executor, self.workers)
        try:
            result = await execute(
                self.plan,
                self.folder.path,
                self.folder.label,
                self.options,
                progress=progress,
                resume=self.resume,
                executor=executor,
                budget=budget,
            )
        finally:
            self.folder.end_leg()
        # A resumed run started when its first leg did (run.json keeps every leg).
        stored = _stored_info(self.folder.path)
        started_at = stored.started_at if stored is not None else result.started_at
        finished_at = result.finished_at
        if self.resume and not result.ran:
            # Nothing ran: the run finished when its summary said, not now.
            finished_at = _stored_finish(self.folder.path) or finished_at
        reports = None
        if self.reports:
            reports = self.folder.finish(
                result.records,
                started_at,
                finished_at,
                self.targets,
                self.budget_usd,
                self.options.time_scale,
            )
        return RunOutcome(
            self.folder,
            result.records,
            started_at,
            finished_at,
            reports,
            self.strict,
            notes=tuple(budget.problems) if budget is not None else (),
        )


async def run(
    scenarios: Sequence[LoadedScenario],
    arms: Sequence[Arm | str],
    *,
    repeat: int = 1,
    options: RunOptions | None = None,
    results: Path = Path("results"),
    label: str | None = None,
    resume: bool = False,
    targets: Targets | None = None,
    progress: ProgressHook | None = None,
    executor: ExecutorKind = "inline",
    workers: int = 1,
    ray_address: str | None = None,
    budget_usd: float | None = None,
    strict: bool = False,
) -> RunOutcome:
    """Plan, make ``results/<label>/``, run every attempt, and write the summary and reports."""
    planned = Run.open(
        scenarios,
        arms,
        repeat=repeat,
        options=options,
        results=results,
        label=label,
        resume=resume,
        targets=targets,
        executor=executor,
        workers=workers,
        ray_address=ray_address,
        budget_usd=budget_usd,
        strict=strict,
    )
    return await planned.execute(progress)


__all__ = [
    "CLOCK_ENV",
    "EXIT_FAILED",
    "EXIT_UNSCORED",
    "SCORED_TIERS",
    "Reports",
    "Run",
    "RunFolder",
    "RunOutcome",
    "exit_code",
    "run",
    "run_clock",
    "scored_tiers",
    "select_scenarios",
]
