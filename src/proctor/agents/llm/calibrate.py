"""The calibration instrument: how far each prompt variant gets along the expected actions.

For each variant (a folder of prompt files) the scenario runs N times with the
same model. Each run is scored by the longest prefix of the scenario's
expected action sequence (its oracle ``solution``) that the model's decisions
match in order, beside the run's outcome: a change that improves the plan
shows up even when no run finishes.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from proctor.computer.actions import Action
from proctor.errors import RunError
from proctor.records import AttemptRecord, TraceEvent, write_model_atomic
from proctor.scenario import LoadedScenario, resolve
from proctor.vocab import StopReason

_SPACE = re.compile(r"\s+")
COMPARED = ("url", "value", "label", "key", "text", "checked", "direction", "kind", "action")
"""Action fields compared besides the target (absent ones are not compared)."""


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        return _SPACE.sub(" ", value).strip().casefold().rstrip("/")
    return value


def matches(expected: Action, taken: dict[str, Any], resolved: dict[str, str] | None) -> bool:
    """Whether a decision (its action dump and the ref's role/name) does the expected action.

    The target is compared when the expected step names a role and a name; a
    selector or point target cannot be compared with a ref, so only the op and
    the values are.
    """
    want = expected.model_dump(exclude_none=True)
    if taken.get("op") != want["op"]:
        return False
    if want.get("role") is not None and want.get("name") is not None:
        role = taken.get("role") or (resolved or {}).get("role")
        name = taken.get("name") or (resolved or {}).get("name")
        if _norm(role) != _norm(want["role"]) or _norm(name) != _norm(want["name"]):
            return False
    for key in COMPARED:
        if key in want and _norm(taken.get(key)) != _norm(want[key]):
            return False
    return not (
        want["op"] == "done"
        and "answer" in want
        and _norm(taken.get("answer")) != _norm(want["answer"])
    )


def correct_prefix(
    expected: Sequence[Action], decisions: Sequence[tuple[dict[str, Any], dict[str, str] | None]]
) -> int:
    """The longest prefix of ``expected`` that ``decisions`` match, in order."""
    n = 0
    for want, (taken, resolved) in zip(expected, decisions, strict=False):
        if not matches(want, taken, resolved):
            break
        n += 1
    return n


def decisions_of(
    events: Sequence[dict[str, Any]],
) -> list[tuple[dict[str, Any], dict[str, str] | None]]:
    """The model's chosen actions, in order, from an attempt's trace."""
    return [
        (e["action"], e.get("resolved"))
        for e in events
        if e.get("kind") == "planner_call" and isinstance(e.get("action"), dict)
    ]


class CalibrationRun(BaseModel):
    """One run of one variant."""

    model_config = ConfigDict(extra="forbid")

    variant: str
    repeat: int
    prefix: int = Field(description="Expected actions matched in order from the start.")
    expected: int = Field(description="Length of the expected action sequence.")
    result: str
    stop_reason: StopReason
    planner_calls: int
    cost_usd: float | None
    attempt: str = Field(description="The attempt folder, relative to the run folder.")


class CalibrationVariant(BaseModel):
    """One variant over its runs."""

    model_config = ConfigDict(extra="forbid")

    variant: str
    folder: str
    runs: int
    passed: int
    median_prefix: float | None
    best_prefix: int
    expected: int


class Calibration(BaseModel):
    """calibration.json: per variant, the correct prefix and the outcome of each run."""

    model_config = ConfigDict(extra="forbid")

    version: int = 1
    scenario: str
    model: str
    recording: bool = Field(description="A replay provider answered: not a model result.")
    variants: list[CalibrationVariant]
    runs: list[CalibrationRun]


@dataclass(frozen=True)
class Variant:
    name: str
    folder: Path


def variants_in(folder: Path) -> list[Variant]:
    """Each sub-folder of ``folder`` is a variant; without any, the folder itself is one.

    Raises:
        RunError: when the folder does not exist or a variant's name is unusable.
    """
    if not folder.is_dir():
        raise RunError(f"--variants {folder}: no such folder; give a folder of prompt variants")
    subs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    found = [Variant(p.name, p) for p in subs] or [Variant(folder.name, folder)]
    for v in found:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", v.name):
            raise RunError(f"--variants: variant folder {v.folder} needs a name of letters/digits")
    return found


def prompt_specs(spec: str, variants: Sequence[Variant]) -> list[str]:
    """One arm text per variant: ``NAME=SPEC+prompts=FOLDER``.

    Raises:
        RunError: when ``spec`` already sets the prompts.
    """
    if "+prompts=" in spec:
        raise RunError(f"--arm {spec}: calibrate sets the prompts per variant; drop +prompts=")
    return [f"{v.name}={spec}+prompts={v.folder.resolve()}" for v in variants]


def calibrate(
    loaded: LoadedScenario,
    variants: Sequence[Variant],
    spec: str,
    records: Sequence[AttemptRecord],
    run_dir: Path,
) -> Calibration:
    """Score each run's correct prefix and outcome; write calibration.json into ``run_dir``.

    ``records`` are the attempts of one run of the variants' arms (named after
    the variants), in plan order; each one's events are read from its folder.
    """
    rows = [_score(loaded, record, run_dir) for record in records]
    summaries = []
    for v in variants:
        mine = [r for r in rows if r.variant == v.name]
        prefixes = [r.prefix for r in mine if r.result in ("passed", "failed")]
        summaries.append(
            CalibrationVariant(
                variant=v.name,
                folder=str(v.folder),
                runs=len(mine),
                passed=sum(r.result == "passed" for r in mine),
                median_prefix=float(statistics.median(prefixes)) if prefixes else None,
                best_prefix=max(prefixes, default=0),
                expected=len(loaded.scenario.solution),
            )
        )
    calibration = Calibration(
        scenario=loaded.scenario.id,
        model=spec.split("+")[0],
        recording=any(c.recorded for r in records for c in r.planner),
        variants=summaries,
        runs=rows,
    )
    write_model_atomic(run_dir / "calibration.json", calibration)
    return calibration


def _score(loaded: LoadedScenario, record: AttemptRecord, run_dir: Path) -> CalibrationRun:
    folder = run_dir / "attempts" / record.id  # <scenario>/<arm>-<n>, as the runner writes it
    events: list[dict[str, Any]] = []
    path = folder / "events.jsonl"
    if path.is_file():
        lines = path.read_text().splitlines()
        events = [TraceEvent.model_validate_json(line).model_dump() for line in lines if line]
    expected = list(resolve(loaded.scenario.solution, record.end_state.placeholders))
    return CalibrationRun(
        variant=record.arm,
        repeat=record.repeat,
        prefix=correct_prefix(expected, decisions_of(events)),
        expected=len(expected),
        result=record.result,
        stop_reason=record.stop_reason,
        planner_calls=record.planner_calls,
        cost_usd=record.cost_usd,
        attempt=str(folder.relative_to(run_dir)),
    )
