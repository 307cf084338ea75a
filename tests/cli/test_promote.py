"""`proctor promote` through the real CLI: the proving arm, and where gate.json is read and written.

The runs are stored attempt records (what ``proctor run`` would leave), so no browser runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import Proctor, output, probe, write_scenario
from proctor.api import SHIPPED_GATE
from proctor.compare import CANARY, GateEntry, GateFile, ScenarioInfo, load_gate, save_gate
from proctor.records import AttemptRecord
from proctor.scenario import load_catalog, load_scenario
from proctor.vocab import AttemptResult
from proctor.world import all_sites

SID = "promote-probe"


@pytest.fixture
def scenarios(tmp_path: Path) -> Path:
    folder = tmp_path / "scenarios"
    write_scenario(folder, probe(SID))
    return folder


@pytest.fixture
def sha(scenarios: Path) -> str:
    """The probe's content hash, as promote computes it."""
    return load_scenario(scenarios / f"{SID}.yaml", set(all_sites())).sha256


def store(
    results: Path,
    label: str,
    sha: str,
    arms: dict[str, tuple[str, AttemptResult]],
    n: int = 5,
    scenario: str = SID,
) -> None:
    """Run ``label``: ``n`` attempts of ``scenario`` for each arm name -> (agent, result)."""
    for i, (arm, (agent, result)) in enumerate(sorted(arms.items())):
        for repeat in range(1, n + 1):
            record = AttemptRecord(
                id=f"{scenario}/{arm}-{repeat}",
                scenario=scenario,
                scenario_sha256=sha,
                tier="local",
                category="regression",
                arm=arm,
                agent=agent,
                repeat=repeat,
                result=result,
                stop_reason="done",
                failed_checks=["answer"] if result == "failed" else [],
                started_at=float(i * n + repeat),
                seconds=1.0,
            )
            folder = results / label / "attempts" / scenario / f"{arm}-{repeat}"
            folder.mkdir(parents=True)
            (folder / "attempt.json").write_text(record.model_dump_json(), encoding="utf-8")


MIXED = {"oracle": ("scripted", "passed"), "idle": ("null", "failed")}
"""A proving arm that passed and a null arm that failed, as in a gate job's run."""


def test_a_run_with_two_arms_is_refused_without_arm(
    scenarios: Path, sha: str, results: Path, proctor: Proctor, tmp_path: Path
) -> None:
    store(results, "mixed", sha, MIXED)
    done = proctor("promote", "mixed", "--scenarios", scenarios, "--results", results)
    assert done.returncode == 2, output(done)
    assert (
        "run 'mixed' has 2 arms: idle (null), oracle (scripted); pass --arm NAME naming the "
        "proving arm"
    ) in done.stderr
    assert not (tmp_path / "gate.json").exists()


def test_an_arm_not_in_the_run_is_refused_naming_the_runs_arms(
    scenarios: Path, sha: str, results: Path, proctor: Proctor, tmp_path: Path
) -> None:
    store(results, "mixed", sha, MIXED)
    args = ["--scenarios", scenarios, "--results", results]
    done = proctor("promote", "mixed", "--arm", "oracel", *args)
    assert done.returncode == 2, output(done)
    assert (
        "--arm 'oracel': run 'mixed' has no such arm; its arms: idle (null), oracle (scripted)"
        in done.stderr
    )
    assert not (tmp_path / "gate.json").exists()


def test_only_the_named_arm_proves_or_demotes(
    scenarios: Path, sha: str, results: Path, proctor: Proctor, tmp_path: Path
) -> None:
    store(results, "mixed", sha, MIXED)
    gate = tmp_path / "mine.json"
    earlier = GateEntry(scenario=SID, sha256=sha, proven_by="earlier", attempts=5, promoted_at=0)
    save_gate(gate, GateFile(scenarios=(earlier,)))
    args = ["--gate", gate, "--scenarios", scenarios, "--results", results]

    kept = proctor("promote", "mixed", "--arm", "oracle", *args)
    assert kept.returncode == 0, output(kept)
    assert kept.stdout.splitlines() == ["gate: 1 scenarios", f"wrote {gate}"]
    assert load_gate(gate).scenarios == (earlier,)

    demoted = proctor("promote", "mixed", "--arm", "idle", *args)
    assert demoted.returncode == 0, output(demoted)
    assert demoted.stdout.splitlines()[0] == (
        f"removed {SID}: failed 5 of 5 attempts in proving run 'mixed'"
    )
    assert load_gate(gate).scenarios == ()


def test_without_gate_it_writes_local_gate_json_from_the_shipped_one(
    scenarios: Path, sha: str, results: Path, proctor: Proctor, tmp_path: Path
) -> None:
    shipped_bytes = SHIPPED_GATE.read_bytes()
    shipped = load_gate(SHIPPED_GATE)
    suite = load_catalog(sites=set(all_sites())).scenarios
    current = {sid: ScenarioInfo.of(loaded) for sid, loaded in suite.items()}
    # The harness canary under an arm of its own is not a second proving arm, whatever its name.
    store(results, "solo", sha, {"oracle": ("scripted", "passed")})
    store(results, "solo", "0" * 64, {"harness": ("scripted", "passed")}, n=1, scenario=CANARY)

    args = ["--scenarios", scenarios, "--results", results]
    first = proctor("promote", "solo", *args)
    assert first.returncode == 0, output(first)
    assert first.stdout.splitlines()[-1] == f"wrote gate.json (starting from {SHIPPED_GATE})"
    assert f"promoted {SID}" in first.stdout.splitlines()
    local = load_gate(tmp_path / "gate.json")
    assert set(local.hashes()) == set(shipped.active(current)) | {SID}
    assert SHIPPED_GATE.read_bytes() == shipped_bytes  # the package is never written

    # From now on ./gate.json is the one read and written.
    store(results, "broke", sha, {"oracle": ("scripted", "failed")})
    second = proctor("promote", "broke", *args)
    assert second.returncode == 0, output(second)
    assert second.stdout.splitlines()[0] == (
        f"removed {SID}: failed 5 of 5 attempts in proving run 'broke'"
    )
    assert second.stdout.splitlines()[-1] == "wrote gate.json"
    assert set(load_gate(tmp_path / "gate.json").hashes()) == set(shipped.active(current))
    assert SHIPPED_GATE.read_bytes() == shipped_bytes
