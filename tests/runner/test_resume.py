"""--resume: a changed plan is refused, a half-written attempt is redone, legs are kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import proctor
from cli_support import probe, write_scenario
from proctor.api import RunSettings
from proctor.errors import RunError
from proctor.records import WebRequest
from proctor.runner import RunOptions, check_same_plan
from proctor.scenario import load_scenario


def options() -> RunOptions:
    return RunOptions(screenshots=False, retry_delays=(0.0,))


def test_a_resume_that_would_change_the_plan_is_refused(tmp_path: Path) -> None:
    loaded = load_scenario(write_scenario(tmp_path / "s", probe("probe-a")))
    results = tmp_path / "results"
    proctor.Run.open(
        [loaded], ["oracle=scripted"], RunSettings(repeat=3, results=results, label="L")
    )
    before = (results / "L" / "run.json").read_bytes()
    with pytest.raises(RunError) as info:
        proctor.Run.open(
            [loaded],
            ["oracle=scripted", "null"],
            RunSettings(repeat=2, results=results, label="L", resume=True),
        )
    message = str(info.value)
    assert "--resume L: the plan would change" in message
    assert "repeat: the run has 3, this command 2" in message
    assert "arms: the run has ['oracle=scripted']" in message
    assert (results / "L" / "run.json").read_bytes() == before  # nothing was rewritten


def test_a_resume_under_another_persona_or_judge_is_refused() -> None:
    roles = {"persona": None, "judge": "openai:judge-a"}
    stored = {"scenarios": ["a"], "arms": ["m=x"], "repeat": 1, "options": roles}
    check_same_plan(stored, json.loads(json.dumps(stored)), "L")  # the same: taken
    wanted = {**stored, "options": {"persona": "openai:user-b", "judge": "openai:judge-b"}}
    with pytest.raises(RunError) as info:
        check_same_plan(stored, wanted, "L")
    message = str(info.value)
    assert "persona: the run has None, this command 'openai:user-b'" in message
    assert "judge: the run has 'openai:judge-a', this command 'openai:judge-b'" in message


def test_a_decoy_some_scenario_lacks_is_refused_while_planning(tmp_path: Path) -> None:
    a = load_scenario(write_scenario(tmp_path / "s", probe("probe-a")))
    other = [{"name": "other", "steps": [{"op": "done", "answer": "7"}], "fails": ["answer"]}]
    b = load_scenario(write_scenario(tmp_path / "s", probe("probe-b", decoys=other)))
    with pytest.raises(RunError) as info:
        proctor.Run.open([a, b], ["decoy:wrong-answer"], RunSettings(results=tmp_path / "results"))
    assert "no decoy 'wrong-answer' in probe-b (probe-b's decoys: other)" in str(info.value)
    assert not (tmp_path / "results").exists()  # refused before any folder was made


@pytest.mark.browser
async def test_a_half_written_attempt_is_redone_and_its_requests_are_not_doubled(
    tmp_path: Path,
) -> None:
    loaded = [
        load_scenario(write_scenario(tmp_path / "s", probe(sid))) for sid in ("probe-a", "probe-b")
    ]
    results = tmp_path / "results"
    first = await proctor.run(
        loaded, ["oracle=scripted"], RunSettings(options=options(), results=results, label="L")
    )
    assert first.exit_code == 0
    run_dir = first.folder.path
    web = run_dir / "web.jsonl"
    lines = web.read_text().splitlines()
    # A kill after probe-b's events and web lines, before its attempt.json (written last):
    folder = run_dir / "attempts" / "probe-b" / "oracle-1"
    (folder / "attempt.json").unlink()
    (folder / ".attempt.json.abcd1234.tmp").write_text("{")
    web.write_text("\n".join(lines) + '\n{"seq": 1, "attempt": "probe-b/ora')  # a cut line
    kept = (run_dir / "attempts" / "probe-a" / "oracle-1" / "attempt.json").read_bytes()

    again = await proctor.run(
        loaded,
        ["oracle=scripted"],
        RunSettings(options=options(), results=results, label="L", resume=True),
    )
    assert [r.result for r in again.records] == ["passed", "passed"]
    assert (run_dir / "attempts" / "probe-a" / "oracle-1" / "attempt.json").read_bytes() == kept
    assert (folder / "attempt.json").is_file() and not list(folder.glob("*.tmp"))
    rows = [WebRequest.model_validate_json(line) for line in web.read_text().splitlines()]
    per_attempt = sorted((r.attempt or "").split("#")[0] for r in rows)
    assert per_attempt == ["probe-a/oracle-1", "probe-b/oracle-1"]
    info = json.loads((run_dir / "run.json").read_text())
    assert len(info["legs"]) == 2 and all(leg["ended_at"] for leg in info["legs"])
    assert info["started_at"] == first.started_at
    assert again.summary is not None and again.summary.started_at == first.started_at


def test_a_killed_legs_control_files_go_even_when_its_orphan_still_runs(tmp_path: Path) -> None:
    """A Ray actor outlives its killed driver for a while: its file must not outlive the leg."""
    import os

    from proctor.runner._resume import drop_controls, tidy

    run_dir = tmp_path / "r"
    run_dir.mkdir()
    live = run_dir / f"control-{os.getpid()}.json"  # a pid that is alive: the orphan
    dead = run_dir / "control-4194999.json"  # above pid_max: gone
    for path in (live, dead):
        path.write_text("{}")
    (run_dir / "keep.json").write_text("{}")
    tidy(run_dir, [])
    assert sorted(p.name for p in run_dir.iterdir()) == ["keep.json"]
    live.write_text("{}")
    drop_controls(run_dir)  # the end of a leg, its executor closed
    assert not live.exists()
