"""Regrade: the current checks over stored end states, with no agent, into a new label."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proctor.errors import GradingError, RunError
from proctor.grading import grade
from proctor.records import SCHEMA_VERSION, AttemptRecord, write_model_atomic
from proctor.report._load import StoredRun
from proctor.scenario import LoadedScenario, Scenario, resolve

COPIED = ("events.jsonl", "before.png", "after.png")

Fallback = Callable[[AttemptRecord, Scenario], dict[str, str]]
"""Placeholder values for a record written before end states stored them."""


@dataclass(frozen=True)
class Regraded:
    """One attempt's verdict before and after regrading."""

    before: AttemptRecord
    after: AttemptRecord

    @property
    def changed(self) -> bool:
        return (self.before.result, self.before.failed_checks) != (
            self.after.result,
            self.after.failed_checks,
        )


def regrade_record(
    record: AttemptRecord, loaded: LoadedScenario, fallback: Fallback | None = None
) -> AttemptRecord:
    """The record graded by the scenario's current checks; unscored records stay as they are.

    A regraded record is of this schema version: its checks carry today's fields
    (e.g. ``safety``), whatever version the stored record was.
    """
    if record.result not in ("passed", "failed"):
        return record
    values = dict(fallback(record, loaded.scenario)) if fallback else {}
    values.update(record.end_state.placeholders)
    scenario: Scenario = resolve(loaded.scenario, values)
    checks = grade(scenario.checks, record.end_state)
    return record.model_copy(
        update={
            "checks": checks,
            "failed_checks": [c.name for c in checks if not c.passed],
            "result": "passed" if all(c.passed for c in checks) else "failed",
            "scenario_sha256": loaded.sha256,
            "version": SCHEMA_VERSION,
        }
    )


def regrade_run(
    run: StoredRun, scenarios: Mapping[str, LoadedScenario], fallback: Fallback | None = None
) -> list[Regraded]:
    """Regrade every attempt of ``run`` with the scenarios as they are now.

    Raises:
        GradingError: naming every scenario of the run that is no longer in the catalog.
    """
    missing: dict[str, list[str]] = {}
    for record in run.records:
        if record.scenario not in scenarios:
            missing.setdefault(record.scenario, []).append(record.id)
    if missing:
        names = "; ".join(f"{sid} ({len(ids)} attempt(s))" for sid, ids in missing.items())
        raise GradingError(
            f"cannot regrade {run.label}: scenario(s) no longer in the catalog: {names}; "
            "restore the file(s), or pass --scenarios DIR holding them"
        )
    return [Regraded(r, regrade_record(r, scenarios[r.scenario], fallback)) for r in run.records]


def free_label(results: Path, base: str) -> str:
    """``base``, or ``base-2``, ``base-3``... whichever does not exist yet."""
    label, n = base, 1
    while (results / label).exists():
        n += 1
        label = f"{base}-{n}"
    return label


def write_regraded(
    results: Path,
    run: StoredRun,
    label: str,
    regraded: Sequence[Regraded],
    *,
    provenance: Mapping[str, Any] | None = None,
) -> Path:
    """A new run folder ``label`` holding the regraded records and the original artefacts.

    ``provenance`` is added to run.json's config (default: ``regraded_from`` and
    ``regraded_at``); ``proctor rejudge`` writes its own there.

    Raises:
        RunError: when ``label`` exists (a label is never overwritten) or is malformed.
    """
    if not label or any(c in label for c in "/\\") or label.startswith("."):
        raise RunError(f"--label {label!r}: use letters, digits, '-', '_' and no slashes")
    run_dir = results / label
    try:
        run_dir.mkdir(parents=True, exist_ok=False)
    except FileExistsError as exc:
        raise RunError(
            f"{run_dir} already exists and a label is never overwritten; choose another --label"
        ) from exc
    for item in regraded:
        source = run.run_dir / "attempts" / item.after.id
        target = run_dir / "attempts" / item.after.id
        write_model_atomic(target / "attempt.json", item.after)
        for name in COPIED:
            if (source / name).is_file():
                shutil.copy2(source / name, target / name)
    if (run.run_dir / "web.jsonl").is_file():
        shutil.copy2(run.run_dir / "web.jsonl", run_dir / "web.jsonl")
    if run.info is not None:
        info = run.info.model_copy(
            update={
                "label": label,
                "command": list(sys.argv),
                "config": {
                    **run.info.config,
                    **(
                        provenance
                        if provenance is not None
                        else {"regraded_from": run.label, "regraded_at": time.time()}
                    ),
                },
            }
        )
        write_model_atomic(run_dir / "run.json", info)
    return run_dir
