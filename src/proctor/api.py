"""The run API: plan, run folder, run.json, attempts, summary and reports, in one place.

Every command that runs attempts goes through it (``proctor run``, ``gate``,
``refs``, ``calibrate``), and so can a script::

    import asyncio, proctor
    picked = proctor.select_scenarios(tiers=["local"])
    outcome = asyncio.run(proctor.run(picked, ["oracle=scripted"], repeat=2, label="nightly"))
    print(outcome.folder.path, outcome.exit_code)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proctor.errors import RunError
from proctor.records import AttemptRecord, RunSummary
from proctor.report import ReportPaths, Targets, summarize, write_outputs
from proctor.runner import (
    Arm,
    PlanItem,
    ProgressHook,
    RunOptions,
    config_of,
    execute,
    make_plan,
    new_run_dir,
    parse_arm,
    run_info,
    write_run_info,
)
from proctor.scenario import LoadedScenario, load_catalog
from proctor.world import all_sites

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


def select_scenarios(
    *,
    tiers: Sequence[str] = (),
    only: Sequence[str] = (),
    folders: Sequence[Path] = (),
    shipped: bool = True,
) -> list[LoadedScenario]:
    """The shipped suite (and ``folders``), narrowed to ``tiers`` and ``only`` ids."""
    catalog = load_catalog(list(folders), sites=set(all_sites()), shipped=shipped)
    return catalog.select(tiers=list(tiers), only=list(only))


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

        Raises:
            RunError: the label exists (and ``resume`` is false) or breaks the label rule.
            StorageError: the results folder cannot be written.
        """
        label, path = new_run_dir(results, label, resume=resume)
        write_run_info(path, run_info(label, config_of(**config)))
        return cls(label, path, results)

    def finish(
        self,
        records: Sequence[AttemptRecord],
        started_at: float,
        finished_at: float,
        targets: Targets | None = None,
    ) -> Reports:
        """Write summary.json, report.md, report.html and a line of history.jsonl."""
        summary = summarize(self.label, records, started_at, finished_at, targets)
        paths = write_outputs(self.path, self.results, summary, records)
        return Reports(summary, paths)


@dataclass(frozen=True)
class RunOutcome:
    """A finished run: its records, and its summary unless reports were off."""

    folder: RunFolder
    records: list[AttemptRecord]
    started_at: float
    finished_at: float
    reports: Reports | None

    @property
    def summary(self) -> RunSummary | None:
        return self.reports.summary if self.reports else None

    @property
    def exit_code(self) -> int:
        """0, 1 (a local or model scenario failed) or 3 (nothing could be scored)."""
        rows = self.summary.rows if self.summary else []
        failed = any(r.result == "failed" and r.tier in SCORED_TIERS for r in rows)
        return exit_code(self.records, failed)


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
    ) -> Run:
        """Plan scenarios x arms x repeats, make the run folder and write run.json.

        ``arms`` are ``Arm``s or ``NAME=SPEC`` texts; ``config`` adds entries to
        run.json's config (the command's selection, say) before the plan's own.

        Raises:
            RunError: no scenario, a bad arm, repeat or label, or a label that exists.
            StorageError: the results folder cannot be written.
        """
        if not scenarios:
            raise RunError("no scenario to run; `proctor list` shows them")
        if resume and not label:
            raise RunError("--resume needs the --label of the run to continue")
        options = options or RunOptions()
        parsed = [a if isinstance(a, Arm) else parse_arm(a) for a in arms]
        plan = make_plan(scenarios, parsed, repeat)
        run_config = dict(
            **dict(config or {}),
            arms=[f"{a.name}={a.spec}" for a in parsed],
            repeat=repeat,
            scenarios=[s.scenario.id for s in scenarios],
            options=options.__dict__,
        )
        folder = RunFolder.create(results, label, run_config, resume=resume)
        return cls(folder, plan, options, resume, targets, reports)

    async def execute(self, progress: ProgressHook | None = None) -> RunOutcome:
        """Run every attempt in one worker (each written as it ends), then the reports."""
        result = await execute(
            self.plan,
            self.folder.path,
            self.folder.label,
            self.options,
            progress=progress,
            resume=self.resume,
        )
        reports = None
        if self.reports:
            reports = self.folder.finish(
                result.records, result.started_at, result.finished_at, self.targets
            )
        return RunOutcome(
            self.folder, result.records, result.started_at, result.finished_at, reports
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
    )
    return await planned.execute(progress)


__all__ = [
    "EXIT_FAILED",
    "EXIT_UNSCORED",
    "SCORED_TIERS",
    "Reports",
    "Run",
    "RunFolder",
    "RunOutcome",
    "exit_code",
    "run",
    "select_scenarios",
]
