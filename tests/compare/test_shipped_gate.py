"""The gate.json that ships: it loads, it is current, and `proctor gate` finds it on first use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from proctor.api import LOCAL_GATE, SHIPPED_GATE, Gate, RunSettings, resolve_gate
from proctor.compare import ScenarioInfo, load_gate
from proctor.scenario import SUITE_ROOT, load_catalog
from proctor.world import all_sites

PROCTOR = Path(sys.executable).parent / "proctor"


def current() -> dict[str, ScenarioInfo]:
    """The shipped suite as it is today, hashed as promote and the gate hash it."""
    suite = load_catalog(sites=set(all_sites())).scenarios
    return {sid: ScenarioInfo.of(loaded) for sid, loaded in suite.items()}


def reprove_commands(today: dict[str, ScenarioInfo]) -> str:
    """The proving run and promotion that bring the shipped gate.json up to date."""
    ids = sorted(
        sid
        for sid, info in today.items()
        if info.category == "regression"
        and info.status == "scored"
        and sid != "harness-canary"
        and (SUITE_ROOT / "local" / f"{sid}.yaml").is_file()
    )
    gate = SHIPPED_GATE.relative_to(SUITE_ROOT.parent.parent.parent)
    return (
        "re-prove the shipped gate from the repository root:\n"
        "  rm -rf /tmp/proctor-prove\n"
        f"  .venv/bin/proctor run --tier local --only {','.join(ids)} --arm scripted "
        "--repeat 5 --label prove --results /tmp/proctor-prove\n"
        f"  .venv/bin/proctor promote prove --arm scripted --gate {gate} "
        "--results /tmp/proctor-prove"
    )


def test_the_shipped_gate_is_non_empty_and_every_hash_is_current() -> None:
    gate = load_gate(SHIPPED_GATE)
    today = current()
    assert gate.scenarios, f"{SHIPPED_GATE} lists no scenario; {reprove_commands(today)}"
    stale = [
        f"{e.scenario}: gated {e.sha256[:12]}, file now "
        + (today[e.scenario].sha256[:12] if e.scenario in today else "gone")
        for e in gate.scenarios
        if e.scenario not in today or today[e.scenario].sha256 != e.sha256
    ]
    assert stale == [], (
        f"{SHIPPED_GATE}: these scenario files changed since they were proven, so the gate "
        f"skips them: {'; '.join(stale)}; {reprove_commands(today)}"
    )
    wrong = [
        e.scenario
        for e in gate.scenarios
        if (today[e.scenario].category, today[e.scenario].status) != ("regression", "scored")
    ]
    assert wrong == [], f"only scored regression scenarios gate: {wrong}"
    assert all(e.attempts >= 5 for e in gate.scenarios)


def test_the_gate_file_is_local_gate_json_when_it_exists_else_the_shipped_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve_gate(None) == SHIPPED_GATE
    (tmp_path / "gate.json").write_text('{"version": 1, "scenarios": []}\n')
    assert resolve_gate(None) == LOCAL_GATE
    assert resolve_gate(tmp_path / "other.json") == tmp_path / "other.json"


def test_first_use_plans_every_shipped_gate_scenario(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no ./gate.json here: the shipped one is read
    results = tmp_path / "results"
    planned = Gate.open("scripted", "null", settings=RunSettings(repeat=5, results=results))
    gated = sorted(e.scenario for e in load_gate(SHIPPED_GATE).scenarios)
    assert planned.gate_file == SHIPPED_GATE
    assert sorted(planned.job.gated_in_plan()) == gated
    assert sorted(s.scenario.id for s in planned.job.scenarios) == gated
    assert [s.arm.spec for s in planned.job.arm_sides] == ["scripted", "null"]
    assert planned.attempts == len(gated) * 2 * 5
    assert not results.exists()  # planning writes nothing


def test_proctor_gate_on_first_use_gets_past_no_scenario_to_run(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(PROCTOR), "gate", "--baseline", "scripted", "--candidate", "null", "--dry-run",
         "--results", str(tmp_path / "results")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False,
        env={**os.environ, "COLUMNS": "400"},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    n = len(load_gate(SHIPPED_GATE).scenarios)
    assert done.stdout.splitlines()[:2] == [
        "gate: baseline baseline (scripted) vs candidate candidate (null)",
        f"plan: {n} scenario(s), {n} of them in {SHIPPED_GATE}, x 2 arm(s) x 5 repeat(s); "
        "the harness canary first",
    ]
    assert "no scenario to run" not in done.stdout + done.stderr
