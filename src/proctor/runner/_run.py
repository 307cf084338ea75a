"""A run: plan -> attempts -> summary, report and history, under results/<label>/."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

import proctor
from proctor.errors import ProctorError, RunError, StorageError
from proctor.records import AttemptRecord, RunInfo, check_label, make_dirs, write_model_atomic
from proctor.runner._budget import Budget
from proctor.runner._executor import Executor
from proctor.runner._inline import InlineExecutor
from proctor.runner._leftovers import claim, clean, find_leftovers, release
from proctor.runner._plan import PlanItem
from proctor.runner._record import AttemptOutput, attempt_folder, skipped_record, write_attempt
from proctor.runner._resume import drop_controls, drop_temps, load_done, tidy
from proctor.runner._schedule import drive
from proctor.runner._worker import RunOptions, SealState

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


@contextlib.asynccontextmanager
async def driving(run_dir: Path, *, keep_scratch: bool = False) -> AsyncIterator[None]:
    """This process drives ``run_dir``'s workers for the block: its owner mark in ``.pids/``.

    First what dead runs under the same results folder left running (a kill -9)
    ends. On the way out, once the block closed its workers, the mark goes, and
    so do control files (a killed worker's or an older leg's) and temp files (a
    write an interrupt cut short), and the scratch root unless ``keep_scratch``: a try
    that ended removed its own folder, and one an interrupt cancelled (its worker
    killed mid-try) is redone from a fresh folder. ``proctor run``, ``models`` and ``gate`` all
    drive through it, so ``cleanup`` and ``tail`` see every kind of run alike.

    Raises:
        StorageError: the run folder or the pid file cannot be written.
    """
    make_dirs(run_dir)
    with contextlib.suppress(ProctorError):  # never a reason not to run
        await asyncio.to_thread(clean, find_leftovers(run_dir.parent))
    claim(run_dir, "driver")
    try:
        yield
    finally:
        release(run_dir)
        drop_controls(run_dir)
        drop_temps(run_dir)
        if not keep_scratch:
            await asyncio.to_thread(shutil.rmtree, run_dir / "scratch", ignore_errors=True)


@dataclass(frozen=True)
class RunResult:
    label: str
    run_dir: Path
    records: list[AttemptRecord]
    started_at: float
    finished_at: float
    ran: int = 0
    """Attempts this leg ran: none when a resume found every attempt done."""


async def execute(
    plan: Sequence[PlanItem],
    run_dir: Path,
    label: str,
    options: RunOptions,
    *,
    progress: ProgressHook | None = None,
    resume: bool = False,
    executor: Executor | None = None,
    budget: Budget | None = None,
) -> RunResult:
    """Run every attempt of the plan on ``executor`` (inline by default).

    Each attempt is written by this process as it ends, its attempt.json last.
    With ``resume``, complete attempts are kept and the rest is redone.
    """
    started = time.time()
    records: list[AttemptRecord] = []
    todo: list[PlanItem] = []
    done_ids: list[str] = []
    for item in plan:
        done = load_done(run_dir, item) if resume else None
        if done is not None:
            done_ids.append(item.attempt_id)
        if done is None and item.skip:
            done = skipped_record(run_dir, item, item.skip)  # needs no browser
        if done is not None:
            records.append(done)
            if budget is not None:
                budget.spent(done)
            if progress:
                progress(item, done)
        else:
            todo.append(item)
    if resume:
        tidy(run_dir, done_ids)
    if todo:
        executor = executor or InlineExecutor()
        clock = options.clock or dt.datetime.now(dt.UTC).replace(microsecond=0)

        def sink(item: PlanItem, output: AttemptOutput) -> None:
            write_attempt(run_dir, attempt_folder(run_dir, item), output)
            records.append(output.record)
            if progress:
                progress(item, output.record)

        def begun(item: PlanItem) -> None:
            if progress:
                progress(item, None)

        async with driving(run_dir, keep_scratch=options.keep_scratch):
            try:
                slots = await executor.open(run_dir, options, clock)
                seal = executor.seal()
                if seal is not None:
                    note_seal(run_dir, seal)
                await drive(todo, slots, options, sink, budget=budget, started=begun)
            finally:
                await executor.close()
    order = {item.attempt_id: i for i, item in enumerate(plan)}
    records.sort(key=lambda r: order.get(r.id, 0))
    return RunResult(label, run_dir, records, started, time.time(), len(todo))


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
