"""``results/<label>/`` on disk: run.json with its legs, and the summary and reports a
finished run writes."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proctor.records import AttemptRecord, Leg, RunInfo, RunSummary, write_model_atomic
from proctor.report import ReportPaths, Targets, summarize, write_outputs
from proctor.runner import check_same_plan, config_of, new_run_dir, run_info, write_run_info
from proctor.vocab import ExecutorKind


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
        stored = stored_info(path) if resume else None
        if stored is not None:
            check_same_plan(stored.config, fresh.config, label)
            fresh = stored.model_copy(update={"command": fresh.command})
        write_run_info(path, fresh)
        return cls(label, path, results)

    def begin_leg(self, executor: ExecutorKind, workers: int) -> None:
        """Add this leg (the first start or a resume) to run.json."""
        info = stored_info(self.path)
        if info is None:
            return
        leg = Leg(started_at=time.time(), executor=executor, workers=workers, pid=os.getpid())
        write_model_atomic(
            self.path / "run.json", info.model_copy(update={"legs": [*info.legs, leg]})
        )

    def end_leg(self) -> None:
        """Mark this process's open leg ended in run.json."""
        info = stored_info(self.path)
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


def stored_info(path: Path) -> RunInfo | None:
    """The run.json of the run folder ``path``; None without a readable one."""
    try:
        return RunInfo.model_validate_json((path / "run.json").read_bytes())
    except (OSError, ValueError):
        return None


def stored_finish(path: Path) -> float | None:
    """When the run's stored summary.json says it finished; None without a readable one."""
    try:
        return RunSummary.model_validate_json((path / "summary.json").read_bytes()).finished_at
    except (OSError, ValueError):
        return None
