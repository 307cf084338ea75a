"""run_gate in process with a real worker: a broken harness canary stops the job."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from proctor.runner import RunOptions, parse_arm
from proctor.runner.gate import ArmSide, GateJob, run_gate
from proctor.scenario import LoadedScenario, load_scenario
from proctor.world import all_sites

pytestmark = pytest.mark.browser


def scenario(folder: Path, sid: str, answer: str) -> LoadedScenario:
    spec = {
        "id": sid,
        "title": "Answer 42 on the fixture index",
        "brief": "Open {base_url}/ and answer 42.",
        "tier": "local",
        "category": "regression",
        "world": {"browser": {"start": "{base_url}/"}},
        "checks": [{"answer": {"equals": "42"}}],
        "solution": [{"op": "done", "answer": answer}],
        "decoys": [{"name": "wrong", "steps": [{"op": "done"}], "fails": ["answer"]}],
    }
    path = folder / f"{sid}.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    return load_scenario(path, set(all_sites()))


async def test_a_canary_failing_twice_scores_nothing_and_runs_nothing_else(
    tmp_path: Path,
) -> None:
    broken = scenario(tmp_path, "harness-canary", "41")  # its oracle fails: a broken harness
    probe = scenario(tmp_path, "probe", "42")
    job = GateJob(
        baseline=ArmSide("baseline", parse_arm("baseline=scripted")),
        candidate=ArmSide("candidate", parse_arm("candidate=decoy:wrong")),
        scenarios=[probe],
        canary=broken,
        gate={"probe": probe.sha256},
        repeat=3,
    )
    said: list[str] = []
    outcome = await run_gate(
        job, tmp_path / "run", RunOptions(screenshots=False, retry_delays=(0.0,)), say=said.append
    )
    assert sorted(r.id for r in outcome.records) == [
        "harness-canary/canary-1",
        "harness-canary/canary-2",
    ]
    assert {r.agent for r in outcome.records} == {"scripted"}
    assert {r.result for r in outcome.records} == {"failed"}
    assert said == [
        "harness canary failed on harness-canary/canary-1; running it once more",
        "the harness canary failed twice; nothing else runs or is scored",
    ]
    verdict = outcome.verdict
    assert (verdict.decision, verdict.rule, outcome.exit_code) == ("INCONCLUSIVE", "canary", 3)
    assert verdict.findings[0].text.startswith("the harness canary failed 2 times (")
    assert verdict.scenarios == ()


async def test_a_harness_that_cannot_start_is_a_failed_run_not_a_regression(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROCTOR_CHROMIUM", str(tmp_path / "no-such-chromium"))
    probe = scenario(tmp_path, "probe", "42")
    job = GateJob(
        baseline=ArmSide("baseline", parse_arm("baseline=scripted")),
        candidate=ArmSide("candidate", parse_arm("candidate=decoy:wrong")),
        scenarios=[probe],
        canary=None,
        gate={"probe": probe.sha256},
        repeat=3,
    )
    outcome = await run_gate(
        job, tmp_path / "run", RunOptions(screenshots=False, retry_delays=(0.0,))
    )
    verdict = outcome.verdict
    assert (verdict.decision, verdict.rule, outcome.exit_code) == ("INCONCLUSIVE", "run-failed", 3)
    assert outcome.records == []
    assert [f.text.split(": ", 1)[0] for f in verdict.findings] == [
        "the baseline run 'baseline (scripted)' failed",
        "the candidate run 'candidate (decoy:wrong)' failed",
        "no gate scenario ran",
    ]
    assert "ComputerError: Chromium (" in verdict.findings[0].text
