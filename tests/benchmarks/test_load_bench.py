"""The load bench (``python -m bench.load``): its figures from records, its load generator
that leaves nothing behind, and a tiny end-to-end run.

No test here checks how fast anything was: the figures are checked against the records
they are read from.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from bench import _burn, _noise

from proctor.records import AttemptRecord

ROOT = Path(__file__).resolve().parents[2]
GONE_SECONDS = 10.0


def _step(index: int, op: str, ms: float, status: str = "ok", error: str | None = None) -> Any:
    return {
        "index": index,
        "op": op,
        "status": status,
        "error": error,
        "started_at": 1.0 + index,
        "latency_ms": ms,
    }


def _record(aid: str, result: str = "passed", **fields: Any) -> AttemptRecord:
    data: dict[str, Any] = {
        "id": aid,
        "scenario": aid.split("/")[0],
        "scenario_sha256": "0" * 64,
        "tier": "local",
        "category": "regression",
        "arm": "oracle",
        "agent": "scripted",
        "repeat": 1,
        "result": result,
        "stop_reason": "done",
        "started_at": 1.0,
        "seconds": 4.0,
        "agent_seconds": 2.0,
        "timings": {"setup": 1.0, "agent": 2.0},
    }
    data.update(fields)
    return AttemptRecord.model_validate(data)


def _attempt(record: AttemptRecord, mode: str = "after") -> _noise.Attempt:
    return _noise.Attempt(mode, f"leg-{mode}", record)


def test_latency_compares_first_actions_with_later_ones_of_the_same_attempts() -> None:
    attempts = [
        # wait and done are left out: the first action is the click at 300 ms
        _attempt(
            _record(
                "a/oracle-1",
                steps=[
                    _step(0, "wait", 5000),
                    _step(1, "click", 300),
                    _step(2, "fill", 100),
                    _step(3, "done", 0.1),
                ],
            )
        ),
        _attempt(
            _record(
                "b/oracle-1",
                steps=[_step(0, "click", 500), _step(1, "fill", 200), _step(2, "click", 400)],
            )
        ),
        # one action only: no later action to compare with, so left out on both sides
        _attempt(_record("c/oracle-1", steps=[_step(0, "click", 9000), _step(1, "done", 0)])),
        # not graded: left out
        _attempt(_record("d/oracle-1", "error", steps=[_step(0, "click", 9000)] * 2)),
    ]
    lat = _noise.latency(attempts)
    assert lat == _noise.Latency(attempts=2, first_ms=400.0, later_ms=200.0)
    # like for like: clicks first (300, 500) against the later click (400); fill only later
    assert _noise.by_op(attempts) == {"click": (400.0, 400.0)}
    assert lat.ratio == 2.0
    assert _noise.latency(attempts[2:]) is None


def test_false_failures_name_the_attempt_the_failed_checks_and_the_step() -> None:
    failed = _record(
        "form/oracle-2",
        "failed",
        stop_reason="step_failed",
        steps=[_step(0, "click", 4100, "error", "Timeout 4000ms exceeded.\ncall log")],
        checks=[
            {"name": "submitted", "kind": "submitted", "passed": False, "detail": "0 of 1"},
            {"name": "requested", "kind": "requested", "passed": True},
        ],
        failed_checks=["submitted"],
    )
    found = _noise.false_failures([_attempt(_record("ok/oracle-1")), _attempt(failed)])
    assert found == [
        _noise.FalseFailure(
            "leg-after",
            "form/oracle-2",
            ["submitted: 0 of 1"],
            "step_failed at step 0 (click): Timeout 4000ms exceeded.",
        )
    ]


def test_faults_count_retried_tries_by_kind_and_attempts_that_ended_in_error() -> None:
    fault = {"try_number": 1, "kind": "browser", "message": "crashed"}
    stall = {"try_number": 2, "kind": "setup", "message": "stalled"}
    attempts = [
        _attempt(_record("a/oracle-1", infra_faults=[fault, stall])),
        _attempt(_record("b/oracle-1", infra_faults=[fault])),
        _attempt(
            _record(
                "c/oracle-1",
                "error",
                stop_reason="infra",
                error="the browser crashed\nthen more",
                infra_faults=[fault, fault, fault],
            )
        ),
        _attempt(_record("d/oracle-1")),
    ]
    found = _noise.faults(attempts)
    assert found == _noise.Faults(
        tries=6,
        attempts=3,
        kinds={"browser": 5, "setup": 1},
        errors=["leg-after/c/oracle-1: the browser crashed"],
    )


def test_the_report_gives_ratios_and_counts_per_mode_and_against_the_first_mode() -> None:
    def mode(name: str, first: float, attempt_s: float) -> _noise.ModeFigures:
        steps = [_step(0, "click", first), _step(1, "fill", 100.0), _step(2, "click", 100.0)]
        records = [
            _record("a/oracle-1", steps=steps, seconds=attempt_s),
            _record("b/oracle-1", "failed", steps=steps, seconds=attempt_s),
            _record("c/oracle-1", "skipped", stop_reason="skipped"),
        ]
        return _noise.figures(name, [_attempt(r, name) for r in records], wall_s=30.0)

    base, other = mode("agent", 250.0, 5.0), mode("after", 110.0, 4.0)
    lines = _noise.render_mode(other)
    assert lines[0] == "mode after: 2 oracle attempts graded, 1 skipped"
    assert lines[1] == "  false failures: 1 of 2 (goal 0 in >= 300: not met)"
    assert lines[2] == "    leg-after/b/oracle-1: done"
    assert "  first/later action (browser): 1.10 (goal <= 1.20: met;" in "\n".join(lines)
    assert "  first/later action (desktop): n/a" in "\n".join(lines)
    assert lines[-1] == "  first/later action by op (browser): click 1.10"
    assert "(goal <= 1.20: not met;" in "\n".join(_noise.render_mode(base))
    ab = _noise.render_ab([base, other])
    assert ab[1] == (
        "  after/agent: attempt 0.80, setup 1.00, agent 1.00, run wall per attempt 1.00"
    )


def _burners() -> set[int]:
    """Pids of live (not zombie) burners of any bench on this machine, from /proc."""
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if _burn.MARK.encode() in argv and state != "Z":
            found.add(int(entry.name))
    return found


def _wait_gone(pids: set[int]) -> set[int]:
    deadline = time.monotonic() + GONE_SECONDS
    while (left := pids & _burners()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def test_burn_runs_n_busy_processes_and_reaps_them() -> None:
    with _burn.Burn(2, 60) as burn:
        pids = set(burn.pids)
        assert len(pids) == 2
        assert pids <= _burners()
    assert not pids & _burners()
    with _burn.Burn(0, 60) as idle:
        assert idle.pids == []


def test_burners_die_with_the_bench_when_it_is_killed() -> None:
    code = "from bench._burn import Burn; b = Burn(2, 60).__enter__(); print(*b.pids, flush=True)"
    child = subprocess.Popen(
        [sys.executable, "-c", code + "; import time; time.sleep(60)"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{ROOT}:{ROOT / 'src'}"},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        pids = {int(p) for p in child.stdout.readline().split()}
        assert len(pids) == 2 and pids <= _burners()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    assert _wait_gone(pids) == set()


def test_burners_stop_at_their_deadline() -> None:
    burn = _burn.Burn(1, 0.5).__enter__()
    try:
        pids = set(burn.pids)
        assert burn.procs[0].wait(timeout=GONE_SECONDS) == 0
    finally:
        burn.close()
    assert not pids & _burners()


@pytest.mark.browser
def test_load_bench_runs_an_oracle_under_load_and_reports_it(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.load",
            "--load",
            "1",
            "--rounds",
            "1",
            "--only",
            "select-label-value",
            "--modes",
            "after",
            "--results",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = done.stdout
    assert report.startswith("load bench: 1 busy processes on ")
    assert f"results: {tmp_path}" in report
    records = [
        AttemptRecord.model_validate_json(p.read_bytes())
        for p in tmp_path.glob("*/attempts/*/*/attempt.json")
    ]
    assert [r.id for r in records] == ["select-label-value/oracle-1"]
    graded = sum(r.result in ("passed", "failed") for r in records)
    failed = sum(r.result == "failed" for r in records)
    assert f"mode after: {graded} oracle attempts graded, 0 skipped" in report
    assert f"  false failures: {failed} of {graded} (goal 0 in >= 300: not met)" in report
    lat = _noise.latency([_noise.Attempt("after", "x", r) for r in records])
    assert lat is not None
    assert f"  first/later action (browser): {lat.ratio:.2f} " in report
    # The load ran, and none of its burners is left.
    pids = {int(p) for p in re.findall(r"^load: 1 busy processes, pids (\d+)$", done.stderr, re.M)}
    assert len(pids) == 1
    assert not pids & _burners()
