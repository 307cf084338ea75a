"""Read a stored run back: its run.json, attempt records and summary, by label."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from proctor.errors import RunError
from proctor.records import SCHEMA_VERSION, AttemptRecord, RunInfo, RunSummary

M = TypeVar("M", AttemptRecord, RunInfo, RunSummary)


@dataclass(frozen=True)
class StoredRun:
    """A run folder read from disk."""

    label: str
    run_dir: Path
    info: RunInfo | None
    records: list[AttemptRecord]

    @property
    def started_at(self) -> float:
        if self.info is not None:
            return self.info.started_at
        return min((r.started_at for r in self.records), default=0.0)

    @property
    def time_scale(self) -> float:
        """run.json's ``--time-scale`` (1 for a run made before it existed)."""
        options = self.info.config.get("options") if self.info is not None else None
        value = options.get("time_scale") if isinstance(options, dict) else None
        return float(value) if isinstance(value, int | float) else 1.0

    @property
    def budget_usd(self) -> float | None:
        return self.info.budget_usd if self.info is not None else None

    @property
    def finished_at(self) -> float:
        ends = [r.started_at + r.seconds for r in self.records]
        return max(ends, default=self.started_at)


def labels(results: Path) -> list[str]:
    """Run labels under ``results``: folders holding run.json or attempts/."""
    if not results.is_dir():
        return []
    return sorted(
        p.name
        for p in results.iterdir()
        if p.is_dir() and ((p / "run.json").is_file() or (p / "attempts").is_dir())
    )


def run_dir_of(results: Path, label: str) -> Path:
    """The folder of run ``label``.

    Raises:
        RunError: naming the label, the results folder and the labels that exist.
    """
    run_dir = results / label
    if label and "/" not in label and (run_dir / "attempts").is_dir():
        return run_dir
    known = labels(results)
    hint = f"labels there: {', '.join(known[-8:])}" if known else "there are no runs there"
    raise RunError(
        f"no run {label!r} under {results}/ ({hint}); `proctor runs` lists them, "
        "--results names another folder"
    )


def _read_model(path: Path, model: type[M]) -> M:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RunError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        version = json.loads(raw).get("version", SCHEMA_VERSION)
    except (ValueError, AttributeError) as exc:
        raise RunError(f"{path} is not a JSON object; the run folder is damaged") from exc
    if isinstance(version, int) and version > SCHEMA_VERSION:
        raise RunError(
            f"{path} has schema version {version}, newer than this proctor's {SCHEMA_VERSION}; "
            "upgrade proctor to read it"
        )
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RunError(f"{path}: {where}: {first['msg']}; the file is damaged or foreign") from exc


def load_records(run_dir: Path) -> list[AttemptRecord]:
    """Every complete attempt.json under ``run_dir/attempts``, in the order they started."""
    records = [
        _read_model(path, AttemptRecord)
        for path in sorted((run_dir / "attempts").glob("*/*/attempt.json"))
    ]
    records.sort(key=lambda r: (r.started_at, r.id))
    return records


def load_info(run_dir: Path) -> RunInfo | None:
    path = run_dir / "run.json"
    return _read_model(path, RunInfo) if path.is_file() else None


def load_summary(run_dir: Path) -> RunSummary | None:
    path = run_dir / "summary.json"
    return _read_model(path, RunSummary) if path.is_file() else None


def load_run(results: Path, label: str) -> StoredRun:
    """Run ``label`` with its attempt records.

    Raises:
        RunError: when the run does not exist, holds no attempt, or a record is damaged.
    """
    run_dir = run_dir_of(results, label)
    records = load_records(run_dir)
    if not records:
        raise RunError(
            f"run {label!r} ({run_dir}) holds no attempt.json yet; "
            f"finish it with `proctor run --label {label} --resume`"
        )
    return StoredRun(label, run_dir, load_info(run_dir), records)


def unfinished(run: StoredRun) -> str | None:
    """Why run ``run`` is not finished, or None when every attempt it planned is recorded.

    A run is unfinished when its last leg never ended (it runs now, or was killed), an
    attempt folder holds no attempt.json (an attempt in flight, or cut off by Ctrl-C), or
    an attempt its run.json plans (scenarios x arms x repeats) has no folder at all.
    """
    info = run.info
    if info is not None and info.legs and info.legs[-1].ended_at is None:
        leg = info.legs[-1]
        return f"its last leg (pid {leg.pid}) has not ended: it is still running, or was killed"
    done = {r.id for r in run.records}
    cut = sorted(
        f"{p.parent.name}/{p.name}"
        for p in (run.run_dir / "attempts").glob("*/*")
        if p.is_dir() and not (p / "attempt.json").is_file()
    )
    if cut:
        return f"{len(cut)} attempt(s) never wrote attempt.json ({_some(cut)})"
    config = info.config if info is not None else {}
    arms, scenarios, repeat = config.get("arms"), config.get("scenarios"), config.get("repeat")
    if config.get("command") == "gate":
        return None  # top-ups and sides made of stored runs: its plan is not arms x repeats
    if isinstance(arms, list) and isinstance(scenarios, list) and isinstance(repeat, int):
        names = [str(a).partition("=")[0] for a in arms]
        planned = {f"{s}/{a}-{n}" for s in scenarios for a in names for n in range(1, repeat + 1)}
        missing = sorted(planned - done)
        if missing:
            return f"{len(missing)} planned attempt(s) never ran ({_some(missing)})"
    return None


def _some(ids: list[str], shown: int = 3) -> str:
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


def load_finished_run(results: Path, label: str, command: str) -> StoredRun:
    """Run ``label``, refused unless it finished.

    Raises:
        RunError: the run does not exist or holds no attempt (``load_run``), or is
            unfinished, saying why and how to finish it.
    """
    run = load_run(results, label)
    why = unfinished(run)
    if why is not None:
        raise RunError(
            f"{command} {label}: the run is unfinished: {why}; wait for it to end, or "
            f"finish it with `proctor run --label {label} --resume`, then {command} it"
        )
    return run
