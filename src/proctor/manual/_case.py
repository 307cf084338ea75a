"""One case folder: prepared, begun, counted and finished by the operator.

The folder holds the fixtures (their original hashes in ``case.json``), an empty
``output/``, and one file per thing the operator recorded, each written
atomically: ``case.json`` (prepare), ``begin.json`` (begin), ``events.jsonl``
(each event), ``finish.json`` (finish); ``serve`` adds ``site-state.json`` and,
for a revocation, ``operator-revocation.json``; ``grade`` writes ``grade.json``.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from proctor.errors import ManualError, WorldError
from proctor.manual._manifest import Boundary, Limits, Manifest, manifest_hash, scenario_of
from proctor.manual._plan import check_arm
from proctor.records import append_jsonl, write_model_atomic
from proctor.vocab import ManualCaseKind, ManualStop
from proctor.world import seed_scratch

CASE = "case.json"
BEGIN = "begin.json"
EVENTS = "events.jsonl"
FINISH = "finish.json"
SITE_STATE = "site-state.json"
REVOCATION = "operator-revocation.json"
GRADE = "grade.json"
HARNESS_FILES = (CASE, BEGIN, EVENTS, FINISH, SITE_STATE, REVOCATION, GRADE)
"""The files proctor writes in a case folder (never the candidate's outputs)."""

Stop = ManualStop


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class CaseFile(_Record):
    """What ``prepare`` fixed for one case (case.json)."""

    version: int = 1
    arm: str
    task: str
    repetition: int
    kind: ManualCaseKind
    scenario: str
    manifest_sha256: str
    brief: str = Field(description="The brief, its {site.X} filled by serve with the URLs.")
    limits: Limits
    expected_stop: str | None = Field(default=None, description="A boundary's stop.")
    originals: dict[str, str] = Field(description="SHA-256 of each fixture file written.")
    created_at: float


class Begin(_Record):
    begun_at: float


class Counts(_Record):
    """Counts one event adds; None: the arm hides that count (kept None, never 0)."""

    tool_calls: int | None = Field(default=None, alias="toolCalls", ge=0)
    model_calls: int | None = Field(default=None, alias="modelCalls", ge=0)
    primitive_inputs: int | None = Field(default=None, alias="primitiveInputs", ge=0)

    @field_validator("primitive_inputs", mode="before")
    @classmethod
    def _batch(cls, value: Any) -> Any:
        """An input batch given as its members counts each member."""
        return len(value) if isinstance(value, list) else value


class Event(_Record):
    at: float
    counts: Counts


class Intervention(_Record):
    what: str = Field(min_length=1, description="What the operator did.")
    rescued: bool = Field(default=False, description="Whether it saved the task.")


class Finish(_Record):
    """How the case ended (finish.json)."""

    stop: Stop
    interventions: list[Intervention] = Field(default_factory=list)
    startup_seconds: float | None = Field(default=None, alias="startupSeconds", ge=0)
    cost_usd: float | None = Field(
        default=None, alias="costUsd", ge=0, description="Only when measured; else null."
    )
    finished_at: float = Field(default=0.0)


def _parse(model: type[_Record], text: str, what: str) -> Any:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ManualError(f"{what}: not JSON ({exc.msg} at column {exc.colno})") from exc
    if not isinstance(value, dict):
        raise ManualError(f'{what}: give a JSON object, e.g. {{"toolCalls": 3}}')
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'value'}: {e['msg']}" for e in exc.errors()
        )
        raise ManualError(f"{what}: {problems}") from exc


def read_case(folder: Path) -> CaseFile:
    """The case of ``folder``, refused when it was prepared from another manifest.

    Raises:
        ManualError: no case.json there, or it is not valid, or its manifest hash differs.
    """
    path = folder / CASE
    if not path.is_file():
        raise ManualError(f"{folder} is not a prepared case (no {CASE}); run prepare first")
    case: CaseFile = _parse(CaseFile, path.read_text(encoding="utf-8"), str(path))
    if case.manifest_sha256 != manifest_hash():
        raise ManualError(
            f"{path} was prepared from manifest {case.manifest_sha256[:12]}, not the pinned "
            f"{manifest_hash()[:12]}: prepare the case again"
        )
    return case


def prepare(manifest: Manifest, folder: Path, arm: str, task: str, repetition: int) -> CaseFile:
    """A new private case folder: the fixtures, an empty output/, and case.json.

    Raises:
        ManualError: the folder is not empty, the arm, task or repetition is not valid.
    """
    check_arm(arm)
    case = manifest.case(task)
    if not 1 <= repetition <= manifest.repetitions:
        raise ManualError(
            f"repetition {repetition} is outside the manifest's 1 to {manifest.repetitions}"
        )
    if folder.exists():
        if not folder.is_dir() or any(folder.iterdir()):
            raise ManualError(f"{folder} is not empty: a case needs a new, empty folder")
        folder.rmdir()
    loaded = scenario_of(case)
    seeds = [*manifest.fixtures, *loaded.scenario.world.files]
    try:
        originals = seed_scratch(folder, seeds, loaded.scenario.world.dirs)
    except WorldError as exc:
        raise ManualError(f"prepare {folder}: {exc}") from exc
    folder.chmod(0o700)
    record = CaseFile(
        arm=arm,
        task=task,
        repetition=repetition,
        kind="boundary" if isinstance(case, Boundary) else "task",
        scenario=case.scenario,
        manifest_sha256=manifest_hash(),
        brief=loaded.scenario.brief.replace("{scratch}", str(folder)),
        limits=manifest.limits,
        expected_stop=case.stop if isinstance(case, Boundary) else None,
        originals=originals,
        created_at=time.time(),
    )
    write_model_atomic(folder / CASE, record)
    return record


def read_begin(folder: Path) -> Begin | None:
    path = folder / BEGIN
    if not path.is_file():
        return None
    begun: Begin = _parse(Begin, path.read_text(encoding="utf-8"), str(path))
    return begun


def begin(folder: Path) -> Begin:
    """Start the case's clock (once).

    Raises:
        ManualError: not prepared, not served yet, already begun, or finished.
    """
    read_case(folder)
    if read_begin(folder) is not None:
        raise ManualError(f"{folder} has begun already; a case's clock starts once")
    if not (folder / SITE_STATE).is_file():
        raise ManualError(
            f"{folder} is not being served: start `proctor manual serve {folder}` first, "
            "so the site is reset before the clock starts"
        )
    record = Begin(begun_at=time.time())
    write_model_atomic(folder / BEGIN, record)
    return record


def _running(folder: Path) -> None:
    read_case(folder)
    if read_begin(folder) is None:
        raise ManualError(f"{folder} has not begun: run `proctor manual begin {folder}` first")
    if (folder / FINISH).is_file():
        raise ManualError(f"{folder} is finished; nothing more is recorded in it")


def event(folder: Path, text: str) -> Event:
    """Add counts to a running case.

    Raises:
        ManualError: the case is not running, or the JSON is not valid counts.
    """
    _running(folder)
    counts: Counts = _parse(Counts, text, "event")
    record = Event(at=time.time(), counts=counts)
    append_jsonl(folder / EVENTS, record.model_dump(mode="json", by_alias=True))
    return record


def events(folder: Path) -> list[Event]:
    path = folder / EVENTS
    if not path.is_file():
        return []
    out = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            out.append(_parse(Event, line, f"{path}:{i}"))
    return out


def totals(found: list[Event]) -> dict[str, int | None]:
    """Each count summed over the events; None when any event hid it (never invented)."""
    out: dict[str, int | None] = {}
    for key in ("tool_calls", "model_calls", "primitive_inputs"):
        values = [getattr(e.counts, key) for e in found]
        out[key] = None if not values or any(v is None for v in values) else sum(values)
    return out


def finish(folder: Path, text: str) -> Finish:
    """Record how a running case ended.

    Raises:
        ManualError: the case is not running, or the JSON is not a valid finish.
    """
    _running(folder)
    given: Finish = _parse(Finish, text, "finish")
    record = given.model_copy(update={"finished_at": time.time()})
    write_model_atomic(folder / FINISH, record)
    return record


def read_finish(folder: Path) -> Finish | None:
    path = folder / FINISH
    if not path.is_file():
        return None
    done: Finish = _parse(Finish, path.read_text(encoding="utf-8"), str(path))
    return done


def stamp(at: float) -> str:
    return dt.datetime.fromtimestamp(at, dt.UTC).isoformat(timespec="seconds")
