"""events.jsonl is appended while the attempt runs, and `proctor tail` follows it to the end."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from cli_support import PROCTOR, Proctor, output, probe, run_args

SCENARIOS = [probe("probe-live", limits={"seconds": 60, "tool_calls": 10, "steps": 5})]
SLOW = "slow=command:echo first-line; sleep 4; echo second-line"
DEADLINE = 240.0  # a bound, not a timing: a loaded CI machine may take a minute to start a run


def _events(path: Path) -> list[dict[str, object]]:
    try:
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    except (FileNotFoundError, json.JSONDecodeError):
        return []


def test_tail_follows_an_attempt_while_it_runs_then_prints_its_result(
    scenarios: Path, results: Path, proctor: Proctor, tmp_path: Path
) -> None:
    args = run_args(scenarios, "probe-live", results, "live", "--arm", SLOW)
    env = {**os.environ, "COLUMNS": "400"}
    run = subprocess.Popen(
        [str(PROCTOR), *map(str, args)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    folder = results / "live" / "attempts" / "probe-live" / "slow-1"
    try:
        # The agent's first line is in events.jsonl while the attempt still runs.
        deadline = time.monotonic() + DEADLINE
        seen: list[dict[str, object]] = []
        while time.monotonic() < deadline and run.poll() is None:
            seen = _events(folder / "events.jsonl")
            if any(e.get("line") == "first-line" for e in seen):
                break
            time.sleep(0.05)
        assert any(e.get("line") == "first-line" for e in seen), seen
        assert not (folder / "attempt.json").exists()
        assert seen[0]["kind"] == "attempt"

        followed = proctor("tail", "live", "probe-live/slow-1", "--results", results, timeout=90)
        assert followed.returncode == 0, output(followed)
        lines = followed.stdout.splitlines()
        assert any("stdout line=first-line" in line for line in lines), followed.stdout
        assert any("stdout line=second-line" in line for line in lines), followed.stdout
        assert lines[-1].startswith("── failed (stop: exited"), followed.stdout
        assert (folder / "attempt.json").is_file()  # tail ended when the attempt did
        run.communicate(timeout=90)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate(timeout=30)
    assert run.returncode == 1

    # The live lines are the recorded ones: the record phase rewrote the same trace.
    recorded = _events(folder / "events.jsonl")
    assert [e["kind"] for e in recorded][:1] == ["attempt"]
    assert sum(e.get("line") in ("first-line", "second-line") for e in recorded) == 2

    as_json = proctor("tail", "live/probe-live/slow-1", "--json", "--results", results)
    rows = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert {r["attempt"] for r in rows} == {"probe-live/slow-1"}
    assert rows[-1] == {
        "attempt": "probe-live/slow-1",
        "kind": "finished",
        "result": "failed",
        "stop_reason": "exited",
        "seconds": rows[-1]["seconds"],
    }
    idle = proctor("tail", "live", "--results", results)
    assert idle.returncode == 0, output(idle)
    assert "no attempt of run live is in flight (the run has ended)" in idle.stdout
    missing = proctor("tail", "live", "probe-live/other-1", "--results", results)
    assert missing.returncode == 2
    assert "run 'live' has no attempt 'probe-live/other-1'" in output(missing)


def _scratch(trace: Path) -> str:
    """The scratch folder the command agent printed (``scratch=...``), or "" before it has."""
    for event in _events(trace):
        line = event.get("line")
        if isinstance(line, str) and line.startswith("scratch="):
            return line.removeprefix("scratch=")
    return ""


def _wait_for(found: Callable[[], bool], *running: subprocess.Popen[str]) -> bool:
    """Whether ``found()`` came true before the deadline, while every process in ``running`` ran."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline and all(p.poll() is None for p in running):
        if found():
            return True
        time.sleep(0.05)
    return found()


def test_tail_follows_a_gate_run_until_its_driver_ends(
    scenarios: Path, results: Path, proctor: Proctor, tmp_path: Path
) -> None:
    # The candidate waits (bounded) for the test's word, so tail starts while it runs. The
    # word is a file in its scratch folder: the jail shows the agent no other folder of ours.
    agent = (
        'command:echo first-line; echo "scratch=$PROCTOR_SCRATCH"; for i in $(seq 600); do '
        '[ -e "$PROCTOR_SCRATCH/release" ] && break; sleep 0.1; done; echo second-line'
    )
    args: list[str | Path] = [
        "gate", "--scenarios", scenarios, "--only", "probe-live", "--results", results,
        "--label", "g", "--baseline", "scripted", "--candidate", agent,
        "--repeat", "1", "--no-top-ups",
    ]  # fmt: skip
    env = {**os.environ, "COLUMNS": "400"}
    run = subprocess.Popen(
        [str(PROCTOR), *map(str, args)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    run_dir = results / "g"
    trace = run_dir / "attempts" / "probe-live" / "candidate-1" / "events.jsonl"
    tailed = tmp_path / "tail.out"
    tail: subprocess.Popen[str] | None = None
    try:
        assert _wait_for(lambda: any(e.get("line") == "first-line" for e in _events(trace)), run)
        assert _wait_for(lambda: bool(_scratch(trace)), run), _events(trace)
        release = Path(_scratch(trace)) / "release"
        # The gate's driver holds its run as `proctor run` does: an open leg, an owner mark.
        legs = json.loads((run_dir / "run.json").read_text())["legs"]
        assert [(leg["pid"], leg["ended_at"]) for leg in legs] == [(run.pid, None)]
        assert (run_dir / ".pids" / f"{run.pid}.json").is_file()

        with tailed.open("w") as out:
            tail = subprocess.Popen(
                [str(PROCTOR), "tail", "g", "--results", str(results)],
                cwd=tmp_path,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
            )
        assert _wait_for(lambda: "line=first-line" in tailed.read_text(), tail), tailed.read_text()
        release.touch()
        assert tail.wait(timeout=90) == 0, tailed.read_text()
        run.communicate(timeout=90)
    finally:
        for process in (run, tail):
            if process is not None and process.poll() is None:
                process.kill()
                process.communicate(timeout=30)
    text = tailed.read_text()
    mine = [line for line in text.splitlines() if line.startswith("probe-live/candidate-1 ")]
    assert any("stdout line=second-line" in line for line in mine), text
    assert any("── failed (stop: exited" in line for line in mine), text
    assert "did not finish" not in text
    legs = json.loads((run_dir / "run.json").read_text())["legs"]
    assert len(legs) == 1 and legs[0]["pid"] == run.pid and legs[0]["ended_at"] is not None
    assert not (run_dir / ".pids").exists()
