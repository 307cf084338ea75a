"""A run: plan -> attempts -> summary, report and history, under results/<label>/."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

import proctor
from proctor.errors import RunError, StorageError
from proctor.records import AttemptRecord, RunInfo, check_label, make_dirs, write_model_atomic
from proctor.runner._attempt import run_attempt
from proctor.runner._plan import PlanItem
from proctor.runner._record import attempt_folder, skipped_record
from proctor.runner._worker import RunOptions, SealState, Worker

ProgressHook = Callable[[PlanItem, AttemptRecord | None], None]
"""Called before (record None) and after each attempt."""


def default_label() -> str:
    return dt.datetime.now().strftime("%Y%m%d-%H%M%S")


def new_run_dir(results: Path, label: str | None, *, resume: bool = False) -> tuple[str, Path]:
    """The run folder for ``label``; a label is never overwritten unless resumed.

    Raises:
        RunError: when the label exists and ``resume`` is false, or it breaks ``LABEL_RULE``.
        StorageError: when the results folder is a file or cannot be written.
    """
    label = check_label(label or default_label())
    if results.exists() and not results.is_dir():
        raise StorageError(
            f"--results {results} is a file, not a folder; move it or pass --results another folder"
        )
    run_dir = results / label
    if run_dir.exists() and not resume:
        raise RunError(
            f"results/{label} already exists and a label is never overwritten; "
            "choose another --label, or --resume it"
        )
    if resume and not run_dir.is_dir():
        raise RunError(f"--resume {label}: there is no results/{label} to resume")
    make_dirs(run_dir)
    return label, run_dir


def _git(*args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
            cwd=Path(proctor.__file__).resolve().parent,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def run_info(label: str, config: dict[str, Any]) -> RunInfo:
    from importlib.metadata import PackageNotFoundError, version

    from proctor.computer.browser import chromium_version

    try:
        pw_version: str | None = version("playwright")
    except PackageNotFoundError:
        pw_version = None
    commit = _git("rev-parse", "HEAD")
    status = _git("status", "--porcelain")
    return RunInfo(
        label=label,
        started_at=time.time(),
        command=list(sys.argv),
        config=config,
        proctor_version=proctor.__version__,
        python=sys.version.split()[0],
        platform=platform.platform(),
        chromium=chromium_version(),
        playwright=pw_version,
        git_commit=commit,
        git_dirty=(bool(status) if status is not None else None),
        machine={"cpus": os.cpu_count(), "machine": platform.machine()},
    )


def load_done(run_dir: Path, item: PlanItem) -> AttemptRecord | None:
    """A complete attempt.json already on disk (for --resume), else None."""
    path = attempt_folder(run_dir, item) / "attempt.json"
    if not path.is_file():
        return None
    try:
        record = AttemptRecord.model_validate_json(path.read_bytes())
    except (ValidationError, OSError):
        return None
    if record.scenario_sha256 != item.scenario.sha256 or record.result in ("error", "skipped"):
        return None
    return record


@dataclass(frozen=True)
class RunResult:
    label: str
    run_dir: Path
    records: list[AttemptRecord]
    started_at: float
    finished_at: float


async def execute(
    plan: Sequence[PlanItem],
    run_dir: Path,
    label: str,
    options: RunOptions,
    *,
    progress: ProgressHook | None = None,
    resume: bool = False,
) -> RunResult:
    """Run every attempt of the plan in one worker; each attempt is written as it ends."""
    started = time.time()
    records: list[AttemptRecord] = []
    todo: list[PlanItem] = []
    for item in plan:
        done = load_done(run_dir, item) if resume else None
        if done is None and item.arm.skip:
            done = skipped_record(run_dir, item, item.arm.skip)  # needs no browser
        if done is not None:
            records.append(done)
            if progress:
                progress(item, done)
        else:
            todo.append(item)
    if todo:
        async with Worker(run_dir, options) as worker:
            note_seal(run_dir, worker.seal)
            for item in todo:
                if progress:
                    progress(item, None)
                record = await run_attempt(worker, item)
                records.append(record)
                if progress:
                    progress(item, record)
    scratch_root = run_dir / "scratch"
    if scratch_root.is_dir() and not any(scratch_root.iterdir()):
        scratch_root.rmdir()
    order = {item.attempt_id: i for i, item in enumerate(plan)}
    records.sort(key=lambda r: order.get(r.id, 0))
    return RunResult(label, run_dir, records, started, time.time())


def note_seal(run_dir: Path, seal: SealState) -> None:
    """Add the worker's seal to run.json (written before the worker started)."""
    path = run_dir / "run.json"
    try:
        info = RunInfo.model_validate_json(path.read_bytes())
    except (OSError, ValidationError):
        return  # no run.json (a programmatic run): nothing to annotate
    seal_facts = {"level": seal.level, "detail": seal.detail}
    write_model_atomic(path, info.model_copy(update={"seal": seal_facts}))


def write_run_info(run_dir: Path, info: RunInfo) -> None:
    write_model_atomic(run_dir / "run.json", info)


def config_of(**values: Any) -> dict[str, Any]:
    """JSON-able run configuration for run.json."""
    config: dict[str, Any] = json.loads(json.dumps(values, default=str))
    return config
