"""``--resume``: what is done, what to redo, and refusing a different plan.

An attempt is done only when its attempt.json exists (written last, after its
artifacts, events.jsonl and web.jsonl lines), parses, matches the scenario file
as planned, and (for a run attempt) has its events.jsonl beside it. Anything
less is redone. Before redoing, the web.jsonl lines of attempts that are not
done are dropped, so a redone attempt's requests are never there twice, and
temp files of writes a kill cut short are removed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from proctor.errors import RunError
from proctor.records import AttemptRecord, TryId, WebRequest, write_bytes_atomic
from proctor.runner._plan import PlanItem
from proctor.runner._record import attempt_folder

PLAN_KEYS = ("scenarios", "arms", "repeat")
"""run.json config entries that define the plan: a resume must not change them."""
ROLE_KEYS = ("persona", "judge")
"""run.json options naming a model beside the agent: the simulated user answers and the
judge grades, so attempts under another one are not the same measurement."""


def load_done(run_dir: Path, item: PlanItem) -> AttemptRecord | None:
    """A complete attempt already on disk (for --resume), else None (redo it)."""
    folder = attempt_folder(run_dir, item)
    path = folder / "attempt.json"
    if not path.is_file():
        return None
    try:
        record = AttemptRecord.model_validate_json(path.read_bytes())
    except (ValidationError, OSError):
        return None
    if record.scenario_sha256 != item.scenario.sha256 or record.result in ("error", "skipped"):
        return None
    if record.id != item.attempt_id or not (folder / "events.jsonl").is_file():
        return None
    return record


def check_same_plan(stored: Mapping[str, Any], wanted: Mapping[str, Any], label: str) -> None:
    """Refuse a resume whose scenarios, arms, repeats, time scale, persona or judge differ
    from the run's.

    Raises:
        RunError: naming each entry that differs, with both values.
    """
    had = {key: stored.get(key) for key in PLAN_KEYS}
    has = {key: wanted.get(key) for key in PLAN_KEYS}
    # Attempts under another wall limit are not the same measurement.
    had["time_scale"], has["time_scale"] = _time_scale(stored), _time_scale(wanted)
    for key in ROLE_KEYS:
        had[key], has[key] = _option(stored, key), _option(wanted, key)
    differ = [key for key in had if had[key] != has[key]]
    if not differ:
        return
    lines = "; ".join(
        f"{key}: the run has {had[key]!r}, this command {has[key]!r}" for key in differ
    )
    raise RunError(
        f"--resume {label}: the plan would change ({lines}). A resumed run keeps its "
        "scenarios, arms, repeats, time scale, persona and judge; repeat the original "
        "command with --resume, "
        "or start a new --label"
    )


def _time_scale(config: Mapping[str, Any]) -> float:
    value = _option(config, "time_scale")
    return float(value) if isinstance(value, int | float) else 1.0


def _option(config: Mapping[str, Any], key: str) -> Any:
    options = config.get("options")
    return options.get(key) if isinstance(options, Mapping) else None


def tidy(run_dir: Path, done: Sequence[str]) -> None:
    """Drop web.jsonl lines of attempts not done, temp files and control files left by a kill."""
    _prune_web_log(run_dir / "web.jsonl", set(done))
    drop_temps(run_dir)
    drop_controls(run_dir)


def drop_temps(run_dir: Path) -> None:
    """Remove the atomic writes' temp files that a kill or an interrupt cut short."""
    attempts = run_dir / "attempts"
    if attempts.is_dir():
        for tmp in attempts.rglob(".*.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()
    for tmp in run_dir.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            tmp.unlink()


def drop_controls(run_dir: Path) -> None:
    """Remove every control-<pid>.json of the run: no worker of it serves a lease now.

    Called when a leg has no worker up: before a resumed leg starts its own, and
    after a leg's executor closed. A file left by a killed leg names a worker
    that is dead, or an orphan of that leg still ending (a Ray actor outlives its
    driver for a while): revoking through it would reach nothing of this run.
    """
    for control in run_dir.glob("control-*.json"):
        with contextlib.suppress(OSError):
            control.unlink()


def _prune_web_log(path: Path, done: set[str]) -> None:
    if not path.is_file():
        return
    kept: list[bytes] = []
    dropped = 0
    for line in path.read_bytes().splitlines():
        if not line.strip():
            continue
        try:
            attempt = WebRequest.model_validate_json(line).attempt
        except ValidationError:
            dropped += 1  # a line a kill cut short
            continue
        if attempt is not None and TryId.attempt_of(attempt) in done:
            kept.append(line)
        else:
            dropped += 1
    if dropped:
        write_bytes_atomic(path, b"".join(line + b"\n" for line in kept))
