"""`proctor gate`, `promote` and `refs` end to end, in subprocesses, on a cheap probe scenario.

The probe answers 42 on the fixture index (well under a second an attempt); the
shipped harness canary runs first in every job that runs arms.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cli_support import output, probe, run_proctor, write_scenario
from proctor.compare import GateEntry, GateFile, load_gate, save_gate
from proctor.scenario import load_scenario
from proctor.world import all_sites

pytestmark = pytest.mark.browser

SID = "gate-probe"
TIMEOUT = 240
PROBE = probe(SID)


def proctor(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The CLI with time for a gate job: the canary and up to ten attempts a side."""
    return run_proctor(*args, cwd=cwd, timeout=TIMEOUT)


def gate_listing(path: Path, scenario: Path) -> Path:
    """A gate.json listing ``scenario`` at its current hash."""
    loaded = load_scenario(scenario, set(all_sites()))
    entry = GateEntry(
        scenario=loaded.scenario.id,
        sha256=loaded.sha256,
        proven_by="test",
        attempts=5,
        promoted_at=0.0,
    )
    save_gate(path, GateFile(scenarios=(entry,)))
    return path


def attempts(run_dir: Path) -> dict[str, dict[str, Any]]:
    return {
        str(p.parent.relative_to(run_dir / "attempts")): json.loads(p.read_text())
        for p in (run_dir / "attempts").glob("*/*/attempt.json")
    }


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gate")
    write_scenario(root / "scenarios", PROBE)
    gate_listing(root / "gate.json", root / "scenarios" / f"{SID}.yaml")
    return root


def gate_args(work: Path, *extra: str) -> list[str | Path]:
    return [
        "gate", "--scenarios", work / "scenarios", "--only", SID,
        "--gate", work / "gate.json", "--results", work / "results", *extra,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def go_run(work: Path) -> subprocess.CompletedProcess[str]:
    args = gate_args(work, "--baseline", "scripted", "--candidate", "scripted")
    return proctor(*args, "--repeat", "5", "--label", "go", cwd=work)


@pytest.mark.slow
def test_two_oracle_arms_give_go_canary_first(
    work: Path, go_run: subprocess.CompletedProcess[str]
) -> None:
    assert go_run.returncode == 0, output(go_run)
    out = go_run.stdout
    assert out.index("power: 5 attempts a side with Holm over 1 gate scenario") < out.index(
        "run go"
    )
    assert "GO: no rule fired; baseline 'baseline (scripted)' vs candidate" in out
    assert "  gate-probe      5/5 100%      5/5 100%" in out

    run_dir = work / "results" / "go"
    found = attempts(run_dir)
    assert sorted(found) == sorted(
        ["harness-canary/canary-1"]
        + [f"{SID}/{arm}-{n}" for arm in ("baseline", "candidate") for n in range(1, 6)]
    )
    assert {a["result"] for a in found.values()} == {"passed"}
    assert found["harness-canary/canary-1"]["agent"] == "scripted"
    canary_end = max(a["started_at"] for k, a in found.items() if k.startswith("harness"))
    assert canary_end < min(a["started_at"] for k, a in found.items() if k.startswith(SID))
    # Arm order rotates by repeat: baseline first in repeat 1, candidate first in repeat 2.
    assert found[f"{SID}/baseline-1"]["started_at"] < found[f"{SID}/candidate-1"]["started_at"]
    assert found[f"{SID}/candidate-2"]["started_at"] < found[f"{SID}/baseline-2"]["started_at"]

    verdict = json.loads((run_dir / "gate-verdict.json").read_text())
    assert (verdict["decision"], verdict["rule"], verdict["exit_code"]) == ("GO", "go", 0)
    assert (verdict["run"], verdict["underpowered"], verdict["topped_up"]) == ("go", False, [])
    assert verdict["verdict"]["scenarios"][0]["base_passes"] == 5
    assert "harness canary: 1 of 1 attempts passed" in verdict["verdict"]["notes"]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert (summary["passed"], summary["failed"]) == (3, 0)  # scenario x arm rows
    # The canary is its own arm: in no side's row, whatever it did.
    rows = {m["arm"]: m for m in summary["metrics"]}
    assert sorted(rows) == ["baseline", "canary", "candidate"]
    assert (rows["candidate"]["scenarios"], rows["candidate"]["attempts"]) == (1, 5)
    assert (rows["canary"]["scenarios"], rows["canary"]["attempts"]) == (1, 1)
    page = (run_dir / "report.html").read_text()  # the verdict is in the run's page
    assert '<section id="gate"' in page and "GO" in page[page.index('<section id="gate"') :]
    config = json.loads((run_dir / "run.json").read_text())["config"]
    assert config["arms"] == ["baseline=scripted", "candidate=scripted"]


def test_stored_runs_gate_go_then_promote_and_edit_invalidate(
    work: Path, go_run: subprocess.CompletedProcess[str], tmp_path: Path
) -> None:
    assert go_run.returncode == 0, output(go_run)
    stored = proctor(
        *gate_args(work, "--baseline", "go/baseline", "--candidate", "go/candidate"), cwd=work
    )
    assert stored.returncode == 0, output(stored)
    assert "GO: no rule fired; baseline 'go/baseline' vs candidate 'go/candidate'" in stored.stdout
    kept = json.loads((work / "results" / "go" / "gate-verdict-vs-go-baseline.json").read_text())
    assert (kept["decision"], kept["run"]) == ("GO", None)

    fresh = tmp_path / "gate.json"
    promoted = proctor(
        "promote", "go", "--arm", "baseline", "--gate", fresh, "--scenarios", work / "scenarios",
        "--results", work / "results", cwd=work,
    )  # fmt: skip
    assert promoted.returncode == 0, output(promoted)
    assert promoted.stdout.splitlines()[:2] == [f"promoted {SID}", "gate: 1 scenarios"]
    probe = load_scenario(work / "scenarios" / f"{SID}.yaml", set(all_sites()))
    entries = load_gate(fresh).scenarios
    assert [(e.scenario, e.sha256, e.proven_by, e.attempts) for e in entries] == [
        (SID, probe.sha256, "go", 5)
    ]

    edited_dir = tmp_path / "edited"
    edited = write_scenario(edited_dir, {**PROBE, "title": "Answer 42 on the fixture index"})
    new_sha = hashlib.sha256(edited.read_bytes()).hexdigest()
    dry = proctor(
        "gate", "--scenarios", edited_dir, "--only", SID, "--gate", fresh, "--results",
        work / "results", "--baseline", "scripted", "--candidate", "scripted", "--dry-run",
        cwd=work,
    )  # fmt: skip
    assert dry.returncode == 0, output(dry)
    assert f"gate.json: {SID} is not gating: edited since it was proven" in dry.stdout
    assert "none of the planned scenarios is a gate scenario" in dry.stdout

    invalidated = proctor(
        "promote", "go", "--arm", "baseline", "--gate", fresh, "--scenarios", edited_dir,
        "--results", work / "results", cwd=work,
    )  # fmt: skip
    assert invalidated.returncode == 0, output(invalidated)
    assert (
        f"removed {SID}: edited since it was proven (hash {probe.sha256[:12]} -> {new_sha[:12]}); "
        "promote it again after a proving run"
    ) in invalidated.stdout
    assert load_gate(fresh).scenarios == ()


@pytest.mark.slow
def test_scripted_candidate_failing_ten_attempts_is_no_go_then_demoted(
    work: Path, tmp_path: Path
) -> None:
    args = gate_args(work, "--baseline", "scripted", "--candidate", "decoy:wrong-answer")
    done = proctor(*args, "--repeat", "3", "--label", "nogo", cwd=work)
    assert done.returncode == 1, output(done)
    out = done.stdout
    assert out.startswith("gate: baseline baseline (scripted) vs candidate candidate")
    assert "top-up: gate-probe +7 a side (the candidate did worse on 3 attempts a side)" in out
    assert "NO-GO: rule (a), a drop on a gate scenario" in out
    assert (
        "gate-probe dropped 100 points, 100% (10/10) -> 0% (0/10); one-sided Fisher "
        "p=5.41e-06, after Holm over 1 gate scenarios p=5.41e-06 < 0.05"
    ) in out

    run_dir = work / "results" / "nogo"
    found = attempts(run_dir)
    cand = [a for k, a in found.items() if k.startswith(f"{SID}/candidate-")]
    base = [a for k, a in found.items() if k.startswith(f"{SID}/baseline-")]
    assert sorted(a["repeat"] for a in cand) == list(range(1, 11))
    assert {a["result"] for a in cand} == {"failed"}
    assert {a["result"] for a in base} == {"passed"} and len(base) == 10
    verdict = json.loads((run_dir / "gate-verdict.json").read_text())
    assert (verdict["decision"], verdict["rule"], verdict["exit_code"]) == ("NO-GO", "a", 1)
    assert [t["scenario"] for t in verdict["topped_up"]] == [SID]

    gate = tmp_path / "gate.json"
    shutil.copy(work / "gate.json", gate)
    demoted = proctor(
        "promote", "nogo", "--arm", "candidate", "--gate", gate,
        "--scenarios", work / "scenarios", "--results", work / "results", cwd=work,
    )  # fmt: skip
    assert demoted.returncode == 0, output(demoted)
    assert f"removed {SID}: failed 10 of 10 attempts in proving run 'nogo'" in demoted.stdout
    assert load_gate(gate).scenarios == ()


def test_two_repeats_print_underpowered_before_running(work: Path) -> None:
    args = gate_args(work, "--baseline", "scripted", "--candidate", "scripted")
    done = proctor(*args, "--repeat", "2", "--dry-run", "--label", "never", cwd=work)
    assert done.returncode == 0, output(done)
    lines = done.stdout.splitlines()
    assert lines[1].startswith("plan: 1 scenario(s), 1 of them in")
    assert lines[2].startswith(
        "underpowered: 2 attempts a side with Holm over 1 gate scenario can never reach NO-GO"
    )
    assert not (work / "results" / "never").exists()


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, timeout=30
    )
    return done.stdout.strip()


@pytest.mark.slow
def test_refs_runs_each_refs_agent_from_its_worktree(tmp_path: Path, results: Path) -> None:
    repo = tmp_path / "agent"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@example.test")
    git(repo, "config", "user.name", "t")
    for word in ("ok", "no"):
        (repo / "agent.sh").write_text(f'printf {word} > "$PROCTOR_SCRATCH/out.txt"\n')
        git(repo, "add", "agent.sh")
        git(repo, "commit", "-qm", word)
    sid = "refs-probe"
    spec = probe(
        sid,
        title="Write ok into out.txt",
        brief="Write ok into out.txt in the scratch folder.",
        checks=[
            {
                "file_sha256": {
                    "path": "out.txt",
                    "sha256": hashlib.sha256(b"ok").hexdigest(),
                    "name": "wrote-ok",
                }
            }
        ],
        decoys=[{"name": "nothing", "steps": [{"op": "done"}], "fails": ["wrote-ok"]}],
    )
    scenario = write_scenario(tmp_path / "scenarios", spec)
    gate = gate_listing(tmp_path / "gate.json", scenario)
    done = proctor(
        "refs", "main~1", "main", "--repo", repo, "--agent", "sh agent.sh",
        "--scenarios", tmp_path / "scenarios", "--only", sid, "--gate", gate,
        "--results", results, "--label", "refs", "--repeat", "1", "--no-top-ups",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 3, output(done)
    base_sha = git(repo, "rev-parse", "main~1")[:12]
    assert f"gate: baseline main~1 ({base_sha}) vs candidate main (" in done.stdout
    assert "INCONCLUSIVE (underpowered): too few attempts" in done.stdout
    assert f"  {sid}      1/1 100%      0/1   0%" in done.stdout

    found = attempts(results / "refs")
    assert {k: a["result"] for k, a in found.items() if k.startswith(sid)} == {
        f"{sid}/baseline-1": "passed",
        f"{sid}/candidate-1": "failed",
    }
    assert found[f"{sid}/candidate-1"]["agent"] == "command"
    config = json.loads((results / "refs" / "run.json").read_text())["config"]
    worktree = Path(config["arms"][0].split("cd ", 1)[1].split(" && ", 1)[0])
    assert not worktree.exists()
    assert len(git(repo, "worktree", "list").splitlines()) == 1
