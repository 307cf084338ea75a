"""The run API writes the same results tree as `proctor run`, and phases add up exactly."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
import yaml

import proctor
from proctor.errors import RunError
from proctor.runner import Phases, seconds_to_ticks
from proctor.scenario import load_scenario

SCENARIO = {
    "id": "api-probe",
    "title": "Open the fixture index and answer 42",
    "brief": "Open {base_url}/ and answer 42.",
    "tier": "local",
    "category": "regression",
    "limits": {"seconds": 30, "tool_calls": 10, "steps": 5},
    "world": {"browser": {"start": "{base_url}/"}},
    "checks": [{"answer": {"equals": "42"}}],
    "solution": [{"op": "done", "answer": "42"}],
    "decoys": [{"name": "wrong", "steps": [{"op": "done", "answer": "41"}], "fails": ["answer"]}],
}


@pytest.mark.browser
async def test_run_writes_the_results_tree_and_its_exit_code(tmp_path: Path) -> None:
    path = tmp_path / "api-probe.yaml"
    path.write_text(yaml.safe_dump(SCENARIO, sort_keys=False), encoding="utf-8")
    results = tmp_path / "results"
    settings = proctor.RunSettings(results=results, label="L")
    outcome = await proctor.run(
        [load_scenario(path)], ["oracle=scripted", "bad=decoy:wrong"], settings
    )
    run_dir = results / "L"
    assert outcome.folder.path == run_dir and outcome.folder.label == "L"
    assert [r.id for r in outcome.records] == ["api-probe/oracle-1", "api-probe/bad-1"]
    assert [r.result for r in outcome.records] == ["passed", "failed"]
    assert outcome.exit_code == 1  # a local scenario failed (the decoy arm)
    for name in ("run.json", "summary.json", "report.md", "report.html", "web.jsonl"):
        assert (run_dir / name).is_file(), name
    # every result file is the owner's alone (web.jsonl, appended line by line, was 0644)
    modes = {
        str(f.relative_to(results)): oct(stat.S_IMODE(f.stat().st_mode))
        for f in results.rglob("*")
        if f.is_file()
    }
    assert modes["L/web.jsonl"] == oct(0o600)
    assert set(modes.values()) == {oct(0o600)}, modes
    info = json.loads((run_dir / "run.json").read_text())
    assert info["config"]["arms"] == ["oracle=scripted", "bad=decoy:wrong"]
    assert info["config"]["scenarios"] == ["api-probe"]
    assert info["seal"]["level"] in ("sealed", "partial")
    history = (results / "history.jsonl").read_text().splitlines()
    assert len(history) == 1 and json.loads(history[0])["label"] == "L"
    for record in outcome.records:
        assert (run_dir / "attempts" / record.id / "attempt.json").is_file()
        ticks = seconds_to_ticks(record.seconds) - sum(
            seconds_to_ticks(s) for s in record.timings.values()
        )
        assert ticks >= 0, record.timings  # the phases never add up to more than the total
        assert record.agent_seconds == record.timings["agent"]
    with pytest.raises(RunError, match="never overwritten"):
        await proctor.run([load_scenario(path)], ["oracle=scripted"], settings)


def test_phases_never_overlap_and_add_up_to_at_most_the_total() -> None:
    phases = Phases()
    with phases.phase("setup"):
        pass
    refused = pytest.raises(RunError, match="inside phase 'agent'")
    with refused, phases.phase("agent"), phases.phase("grade"):
        pass
    with phases.phase("setup"):
        sum(range(10_000))
    timing = phases.done()
    assert set(timing.phases) == {"setup", "agent"}  # grade never started
    total = seconds_to_ticks(timing.seconds)
    assert sum(seconds_to_ticks(s) for s in timing.phases.values()) <= total
    assert all(seconds_to_ticks(s) / 10_000 == s for s in (timing.seconds, *timing.phases.values()))
