"""`proctor run` end to end, in a subprocess: the results tree, labels, exit codes."""

from __future__ import annotations

import json
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.browser

PROCTOR = Path(sys.executable).parent / "proctor"
SID = "cli-run-probe"
RUN_TIMEOUT = 120

# Uses no fixture site (only the loopback index), so it holds whatever sites ship.
SCENARIO = {
    "id": SID,
    "title": "Open the fixture index and answer 42",
    "brief": "Open {base_url}/ and answer 42.",
    "tier": "local",
    "category": "regression",
    "limits": {"seconds": 30, "tool_calls": 10, "steps": 5},
    "world": {"browser": {"start": "{base_url}/"}},
    "checks": [
        {"requested": {"path": "/", "host": "127.0.0.1", "count": 1}},
        {"answer": {"equals": "42"}},
    ],
    "solution": [{"op": "done", "answer": "42"}],
    "decoys": [
        {"name": "wrong-answer", "steps": [{"op": "done", "answer": "41"}], "fails": ["answer"]}
    ],
}


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli-scenarios")
    (folder / f"{SID}.yaml").write_text(yaml.safe_dump(SCENARIO, sort_keys=False))
    return folder


def proctor(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(PROCTOR), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        cwd=cwd,
        check=False,
    )


def run_args(scenarios: Path, results: Path, label: str, *extra: str) -> list[str | Path]:
    return [
        "run", "--scenarios", scenarios, "--only", SID,
        "--label", label, "--results", results, *extra,
    ]  # fmt: skip


def test_run_writes_the_results_tree_and_never_overwrites_a_label(
    scenarios: Path, tmp_path: Path
) -> None:
    results = tmp_path / "results"
    done = proctor(*run_args(scenarios, results, "L"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr

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

    again = proctor(*run_args(scenarios, results, "L"), cwd=tmp_path)
    assert again.returncode == 2
    assert "results/L already exists and a label is never overwritten" in again.stderr
    assert "Traceback" not in again.stderr
    assert len((results / "history.jsonl").read_text().splitlines()) == 1


def test_a_failing_scenario_exits_1(scenarios: Path, tmp_path: Path) -> None:
    results = tmp_path / "results"
    failed = proctor(
        *run_args(scenarios, results, "D", "--arm", "d=decoy:wrong-answer"), cwd=tmp_path
    )
    assert failed.returncode == 1, failed.stdout + failed.stderr
    attempt = json.loads((results / "D" / "attempts" / SID / "d-1" / "attempt.json").read_text())
    assert (attempt["result"], attempt["failed_checks"]) == ("failed", ["answer"])
