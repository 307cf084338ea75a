"""`proctor run` end to end, in a subprocess: the results tree, labels, exit codes."""

from __future__ import annotations

import json
import platform
import re
from pathlib import Path

import pytest

from cli_support import Proctor, output, probe, run_args

pytestmark = pytest.mark.browser

SID = "cli-run-probe"
SCENARIOS = (probe(SID),)


def test_run_writes_the_results_tree_and_never_overwrites_a_label(
    scenarios: Path, results: Path, proctor: Proctor
) -> None:
    done = proctor(*run_args(scenarios, SID, results, "L"))
    assert done.returncode == 0, output(done)

    run_dir = results / "L"
    info = json.loads((run_dir / "run.json").read_text())
    assert info["label"] == "L"
    assert re.fullmatch(r"[0-9a-f]{40}", info["git_commit"] or ""), info["git_commit"]
    assert isinstance(info["git_dirty"], bool)
    assert (info["chromium"] or "").startswith("Chromium "), info["chromium"]
    assert info["python"] == platform.python_version()
    assert info["config"]["scenarios"] == [SID]

    folder = run_dir / "attempts" / SID / "oracle-1"
    for name in ("attempt.json", "events.jsonl", "before.png", "after.png"):
        assert (folder / name).is_file(), name
    for name in ("before.png", "after.png"):
        assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    attempt = json.loads((folder / "attempt.json").read_text())
    assert (attempt["id"], attempt["result"], attempt["answer"]) == (
        f"{SID}/oracle-1",
        "passed",
        "42",
    )
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    assert events[0]["kind"] == "attempt"

    web = [json.loads(line) for line in (run_dir / "web.jsonl").read_text().splitlines()]
    assert [(w["host"], w["path"], w["attempt"]) for w in web] == [
        ("127.0.0.1", "/", f"{SID}/oracle-1#1")
    ]
    summary = json.loads((run_dir / "summary.json").read_text())
    assert (summary["label"], summary["passed"], summary["failed"]) == ("L", 1, 0)
    assert SID in (run_dir / "report.md").read_text()
    history = (results / "history.jsonl").read_text().splitlines()
    assert len(history) == 1
    assert json.loads(history[0])["label"] == "L"

    again = proctor(*run_args(scenarios, SID, results, "L"))
    assert again.returncode == 2
    assert "results/L already exists and a label is never overwritten" in again.stderr
    assert "Traceback" not in again.stderr
    assert len((results / "history.jsonl").read_text().splitlines()) == 1


def test_a_failing_scenario_exits_1(scenarios: Path, results: Path, proctor: Proctor) -> None:
    failed = proctor(*run_args(scenarios, SID, results, "D", "--arm", "d=decoy:wrong-answer"))
    assert failed.returncode == 1, output(failed)
    attempt = json.loads((results / "D" / "attempts" / SID / "d-1" / "attempt.json").read_text())
    assert (attempt["result"], attempt["failed_checks"]) == ("failed", ["answer"])
