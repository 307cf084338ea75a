"""gate.json: which scenarios decide the gate, each pinned to its content hash.

A scenario enters by promotion: a calibrated (status ``scored``) regression
scenario that passed every attempt of a run with at least five repeats. It
leaves when a later proving run sees it fail, or when its file changes: the
stored hash then no longer matches, and only a new proving run brings it back.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from proctor.compare._rules import CANARY
from proctor.compare._tally import by_scenario, is_scored
from proctor.errors import RunError
from proctor.records import AttemptRecord, write_text_atomic
from proctor.scenario import LoadedScenario
from proctor.vocab import Category, ScenarioStatus

GATE_VERSION = 1
MIN_PROVING_REPEATS = 5


class GateEntry(BaseModel):
    """One gate scenario."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scenario: str = Field(description="Scenario id.")
    sha256: str = Field(description="Content hash of the scenario file that was proven.")
    proven_by: str = Field(description="Label of the run that promoted it.")
    attempts: int = Field(description="Attempts that passed in that run.")
    promoted_at: float = Field(description="Unix time of the promotion.")


class GateFile(BaseModel):
    """gate.json."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = GATE_VERSION
    scenarios: tuple[GateEntry, ...] = Field(default=(), description="Sorted by scenario id.")

    def hashes(self) -> dict[str, str]:
        """Scenario id -> gated content hash, the form ``gate_verdict`` takes."""
        return {e.scenario: e.sha256 for e in self.scenarios}

    def active(self, current: Mapping[str, ScenarioInfo]) -> dict[str, str]:
        """Hashes of the entries whose scenario exists today with the gated content."""
        return {
            e.scenario: e.sha256
            for e in self.scenarios
            if e.scenario in current and current[e.scenario].sha256 == e.sha256
        }


@dataclass(frozen=True)
class ScenarioInfo:
    """What promotion needs to know of a scenario as it is today."""

    id: str
    sha256: str
    category: Category
    status: ScenarioStatus

    @classmethod
    def of(cls, loaded: LoadedScenario) -> ScenarioInfo:
        spec = loaded.scenario
        return cls(spec.id, loaded.sha256, spec.category, spec.status)


@dataclass(frozen=True)
class Removal:
    """A scenario taken out of the gate, and why."""

    scenario: str
    reason: str


@dataclass(frozen=True)
class Refusal:
    """A scenario of the run that was not promoted, and why."""

    scenario: str
    reason: str


@dataclass(frozen=True)
class GateChange:
    """The gate after an update, and what changed."""

    gate: GateFile
    added: tuple[str, ...] = ()
    removed: tuple[Removal, ...] = ()
    refused: tuple[Refusal, ...] = ()

    def text(self) -> str:
        """What changed, one line per scenario."""
        lines = [f"promoted {s}" for s in self.added]
        lines += [f"removed {r.scenario}: {r.reason}" for r in self.removed]
        lines += [f"not promoted {r.scenario}: {r.reason}" for r in self.refused]
        lines.append(f"gate: {len(self.gate.scenarios)} scenarios")
        return "\n".join(lines)


def _with(entries: Sequence[GateEntry]) -> GateFile:
    return GateFile(scenarios=tuple(sorted(entries, key=lambda e: e.scenario)))


def load_gate(path: Path) -> GateFile:
    """Read gate.json; a missing file is an empty gate.

    Raises:
        RunError: the file is unreadable or not a gate file, naming it and the fix.
    """
    if not path.exists():
        return GateFile()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(
            f"{path}: cannot read the gate file ({exc}); restore it from git or delete it "
            "and promote again"
        ) from exc
    if isinstance(data, dict) and data.get("version", GATE_VERSION) != GATE_VERSION:
        raise RunError(
            f"{path}: gate file version {data.get('version')!r}, this proctor reads "
            f"version {GATE_VERSION}; upgrade proctor or promote again"
        )
    try:
        gate = GateFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top level)"
        raise RunError(
            f"{path}: {where}: {first['msg']}; fix the field, or delete the file and promote again"
        ) from exc
    seen = [e.scenario for e in gate.scenarios]
    if len(set(seen)) != len(seen):
        dup = sorted({s for s in seen if seen.count(s) > 1})
        raise RunError(f"{path}: scenarios listed twice: {', '.join(dup)}; keep one entry each")
    return _with(gate.scenarios)


def save_gate(path: Path, gate: GateFile) -> None:
    """Write gate.json atomically, entries sorted by scenario id."""
    write_text_atomic(path, _with(gate.scenarios).model_dump_json(indent=2) + "\n")


def invalidate_edited(gate: GateFile, current: Mapping[str, ScenarioInfo]) -> GateChange:
    """Remove entries whose scenario is gone or whose file no longer has the gated hash."""
    kept, removed = [], []
    for entry in gate.scenarios:
        info = current.get(entry.scenario)
        if info is None:
            removed.append(Removal(entry.scenario, "the scenario no longer exists"))
        elif info.sha256 != entry.sha256:
            removed.append(
                Removal(
                    entry.scenario,
                    f"edited since it was proven (hash {entry.sha256[:12]} -> "
                    f"{info.sha256[:12]}); promote it again after a proving run",
                )
            )
        else:
            kept.append(entry)
    return GateChange(_with(kept), removed=tuple(removed))


def _of_arm(records: Sequence[AttemptRecord], arm: str | None) -> list[AttemptRecord]:
    return [r for r in records if arm is None or r.arm == arm]


def prove(
    gate: GateFile, records: Sequence[AttemptRecord], label: str, *, arm: str | None = None
) -> GateChange:
    """Demote every gate scenario that failed in this proving run.

    Only attempts of the gated version count; with ``arm``, only that arm's.
    """
    groups = by_scenario(_of_arm(records, arm))
    kept, removed = [], []
    for entry in gate.scenarios:
        same = [r for r in groups.get(entry.scenario, []) if r.scenario_sha256 == entry.sha256]
        scored = [r for r in same if is_scored(r)]
        failed = [r for r in scored if r.result == "failed"]
        if failed:
            reason = f"failed {len(failed)} of {len(scored)} attempts in proving run {label!r}"
            removed.append(Removal(entry.scenario, reason))
        else:
            kept.append(entry)
    return GateChange(_with(kept), removed=tuple(removed))


def _refusal(
    scenario: str,
    runs: Sequence[AttemptRecord],
    info: ScenarioInfo | None,
    min_repeats: int,
) -> str | None:
    if scenario == CANARY:
        return "the harness canary guards the harness and is never a gate scenario"
    if info is None:
        return "not in the current suite"
    if info.category != "regression":
        return f"category {info.category}; only regression scenarios gate"
    if info.status != "scored":
        return f"status {info.status}; only calibrated (scored) scenarios gate"
    if any(r.scenario_sha256 != info.sha256 for r in runs):
        return "the file changed since this run; run it again to prove the current version"
    not_passed = [r for r in runs if r.result != "passed"]
    if not_passed:
        results = ", ".join(sorted({r.result for r in not_passed}))
        return f"{len(not_passed)} of {len(runs)} attempts did not pass ({results})"
    per_arm: dict[str, int] = {}
    for r in runs:
        per_arm[r.arm] = per_arm.get(r.arm, 0) + 1
    most = max(per_arm.values())
    if most < min_repeats:
        return f"{most} repeats; a proving run needs at least {min_repeats}"
    return None


def promote(
    gate: GateFile,
    records: Sequence[AttemptRecord],
    current: Mapping[str, ScenarioInfo],
    label: str,
    *,
    arm: str | None = None,
    min_repeats: int = MIN_PROVING_REPEATS,
    now: float | None = None,
) -> GateChange:
    """Update the gate from a proving run: drop edited and failing entries, add proven ones.

    Args:
        gate: the gate as it is.
        records: the run's attempt records.
        current: the suite as it is today, by scenario id.
        label: the run's label, stored as ``proven_by``.
        arm: only this arm's attempts prove anything; all arms when None.
        min_repeats: attempts an arm needs, all passed, to prove a scenario.
        now: promotion time; the current time when None.
    """
    edited = invalidate_edited(gate, current)
    failing = prove(edited.gate, records, label, arm=arm)
    entries = {e.scenario: e for e in failing.gate.scenarios}
    removed = {r.scenario for r in (*edited.removed, *failing.removed)}
    stamp = time.time() if now is None else now
    added, refused = [], []
    for scenario, runs in sorted(by_scenario(_of_arm(records, arm)).items()):
        if scenario in entries:
            continue
        reason = _refusal(scenario, runs, current.get(scenario), min_repeats)
        if reason is not None:
            if scenario not in removed:
                refused.append(Refusal(scenario, reason))
            continue
        info = current[scenario]
        entries[scenario] = GateEntry(
            scenario=scenario,
            sha256=info.sha256,
            proven_by=label,
            attempts=len(runs),
            promoted_at=stamp,
        )
        added.append(scenario)
    return GateChange(
        _with(list(entries.values())),
        added=tuple(added),
        removed=tuple(r for r in (*edited.removed, *failing.removed) if r.scenario not in added),
        refused=tuple(refused),
    )
