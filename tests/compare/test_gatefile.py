"""gate.json: promote, demote, edit invalidation, and the file itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gate_records import record, runs, sha_of

from proctor.compare import (
    CANARY,
    GateEntry,
    GateFile,
    ScenarioInfo,
    gate_verdict,
    invalidate_edited,
    load_gate,
    promote,
    prove,
    save_gate,
)
from proctor.compare import Side as GateSide
from proctor.errors import RunError
from proctor.records import AttemptRecord
from proctor.scenario import load_scenario
from proctor.vocab import Category, ScenarioStatus


def info(
    scenario: str,
    *,
    sha: str | None = None,
    category: Category = "regression",
    status: ScenarioStatus = "scored",
) -> ScenarioInfo:
    return ScenarioInfo(scenario, sha or sha_of(scenario), category, status)


def entry(scenario: str, sha: str | None = None) -> GateEntry:
    return GateEntry(
        scenario=scenario,
        sha256=sha or sha_of(scenario),
        proven_by="old",
        attempts=5,
        promoted_at=1.0,
    )


def test_promote_adds_a_calibrated_regression_scenario_that_passed_five_of_five() -> None:
    change = promote(GateFile(), runs("s1", 5, 5), {"s1": info("s1")}, "proof", now=42.0)
    assert change.added == ("s1",) and change.removed == () and change.refused == ()
    assert change.gate.scenarios == (
        GateEntry(
            scenario="s1", sha256=sha_of("s1"), proven_by="proof", attempts=5, promoted_at=42.0
        ),
    )
    assert change.gate.hashes() == {"s1": sha_of("s1")}


@pytest.mark.parametrize(
    ("records", "current", "reason"),
    [
        (runs("s1", 4, 4), info("s1"), "4 repeats; a proving run needs at least 5"),
        (runs("s1", 5, 6), info("s1"), "1 of 6 attempts did not pass (failed)"),
        (
            [*runs("s1", 5, 5), record("s1", 6, "error")],
            info("s1"),
            "1 of 6 attempts did not pass (error)",
        ),
        (
            runs("s1", 5, 5),
            info("s1", category="capability"),
            "category capability; only regression scenarios gate",
        ),
        (
            runs("s1", 5, 5),
            info("s1", status="calibrating"),
            "status calibrating; only calibrated (scored) scenarios gate",
        ),
        (
            runs("s1", 5, 5),
            info("s1", sha="f" * 64),
            "the file changed since this run; run it again to prove the current version",
        ),
        (runs("s1", 5, 5), None, "not in the current suite"),
    ],
)
def test_promote_refuses_what_is_not_proven(
    records: list[AttemptRecord], current: ScenarioInfo | None, reason: str
) -> None:
    suite = {"s1": current} if current is not None else {}
    change = promote(GateFile(), records, suite, "proof")
    assert change.added == ()
    assert [(r.scenario, r.reason) for r in change.refused] == [("s1", reason)]
    assert change.gate.scenarios == ()


def test_promote_never_gates_the_canary() -> None:
    change = promote(GateFile(), runs(CANARY, 5, 5), {CANARY: info(CANARY)}, "proof")
    assert change.added == () and change.refused[0].reason.startswith("the harness canary")


def test_promote_with_an_arm_counts_only_that_arm() -> None:
    records = runs("s1", 5, 5, arm="oracle") + runs("s1", 0, 5, arm="null")
    assert promote(GateFile(), records, {"s1": info("s1")}, "p").added == ()
    assert promote(GateFile(), records, {"s1": info("s1")}, "p", arm="oracle").added == ("s1",)


def test_a_later_proving_run_that_fails_demotes() -> None:
    gate = GateFile(scenarios=(entry("s1"), entry("s2")))
    change = prove(gate, runs("s1", 9, 10) + runs("s2", 10, 10), "nightly")
    assert [e.scenario for e in change.gate.scenarios] == ["s2"]
    assert [(r.scenario, r.reason) for r in change.removed] == [
        ("s1", "failed 1 of 10 attempts in proving run 'nightly'")
    ]


def test_proving_run_of_another_version_does_not_demote() -> None:
    gate = GateFile(scenarios=(entry("s1"),))
    change = prove(gate, runs("s1", 0, 10, sha="e" * 64), "nightly")
    assert change.removed == () and change.gate == gate


def test_promote_also_demotes_failures_in_its_run() -> None:
    gate = GateFile(scenarios=(entry("s1"),))
    change = promote(gate, runs("s1", 4, 5), {"s1": info("s1")}, "proof")
    assert change.gate.scenarios == ()
    assert change.removed[0].reason == "failed 1 of 5 attempts in proving run 'proof'"
    assert change.refused == ()


def test_editing_removes_until_proven_again() -> None:
    gate = GateFile(scenarios=(entry("s1"), entry("s2")))
    edited = {"s1": info("s1", sha="e" * 64), "s2": info("s2")}
    change = invalidate_edited(gate, edited)
    assert [e.scenario for e in change.gate.scenarios] == ["s2"]
    assert change.removed[0].scenario == "s1"
    assert change.removed[0].reason.startswith("edited since it was proven")
    assert gate.active(edited) == {"s2": sha_of("s2")}
    # A stored run of the old version proves nothing about the new one.
    stale = promote(gate, runs("s1", 5, 5), edited, "old-run")
    assert "s1" not in stale.gate.hashes()
    assert stale.refused == ()  # its removal already says why
    # A proving run of the edited file brings it back with the new hash.
    again = promote(gate, runs("s1", 5, 5, sha="e" * 64), edited, "proof")
    assert again.added == ("s1",)
    assert again.gate.hashes() == {"s1": "e" * 64, "s2": sha_of("s2")}


def test_deleted_scenario_leaves_the_gate() -> None:
    change = invalidate_edited(GateFile(scenarios=(entry("gone"),)), {})
    assert change.gate.scenarios == ()
    assert change.removed[0].reason == "the scenario no longer exists"


def test_edited_gate_scenario_no_longer_decides_the_verdict() -> None:
    gate = GateFile(scenarios=(entry("s1"),))
    edited = runs("s1", 10, 10, sha="e" * 64)
    verdict = gate_verdict(
        GateSide("b", edited), GateSide("c", runs("s1", 0, 10, sha="e" * 64)), gate.hashes()
    )
    assert verdict.decision == "INCONCLUSIVE" and verdict.rule == "no-gate"


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "gate.json"
    gate = GateFile(scenarios=(entry("zeta"), entry("alpha")))
    save_gate(path, gate)
    data = json.loads(path.read_text())
    assert data["version"] == 1
    assert [e["scenario"] for e in data["scenarios"]] == ["alpha", "zeta"]
    assert load_gate(path).hashes() == {"alpha": sha_of("alpha"), "zeta": sha_of("zeta")}
    assert [p.name for p in tmp_path.iterdir()] == ["gate.json"]  # no temp file left


def test_missing_gate_file_is_empty(tmp_path: Path) -> None:
    assert load_gate(tmp_path / "gate.json") == GateFile()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "cannot read the gate file"),
        ('{"version": 9, "scenarios": []}', "gate file version 9"),
        ('{"version": 1, "scenarios": [{"scenario": "a"}]}', "scenarios.0.sha256: Field required"),
        (
            json.dumps({"scenarios": [entry("a").model_dump(), entry("a").model_dump()]}),
            "scenarios listed twice: a",
        ),
    ],
)
def test_malformed_gate_file_names_the_file_and_the_fix(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "gate.json"
    path.write_text(text)
    with pytest.raises(RunError, match=message) as caught:
        load_gate(path)
    assert str(path) in str(caught.value)


def test_scenario_info_of_a_loaded_scenario() -> None:
    from proctor.scenario import SUITE_ROOT

    loaded = load_scenario(SUITE_ROOT / "local" / "manual-selectors.yaml")
    got = ScenarioInfo.of(loaded)
    assert got == ScenarioInfo(
        loaded.scenario.id, loaded.sha256, loaded.scenario.category, loaded.scenario.status
    )
    assert len(got.sha256) == 64
