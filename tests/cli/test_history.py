"""results/history.jsonl holds one line per run: a resume puts its line in place of the old one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_support import Proctor, output, probe, run_args

SID = "history-probe"
SCENARIOS = (probe(SID),)


def _lines(results: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (results / "history.jsonl").read_text().splitlines()]


@pytest.mark.browser
def test_a_resume_updates_the_runs_line_in_place(
    scenarios: Path, results: Path, proctor: Proctor
) -> None:
    ran = proctor(*run_args(scenarios, SID, results, "L", "--repeat", "2"))
    assert ran.returncode == 0, output(ran)
    (first,) = _lines(results)
    assert (first["label"], first["passed"]) == ("L", 1)
    other = {"label": "other", "started_at": 1.0, "finished_at": 2.0, "passed": 0, "failed": 1}
    with (results / "history.jsonl").open("a") as fh:
        fh.write(json.dumps(other) + "\n")

    # Nothing left to run: the same line, its finish time kept, not restamped.
    again = proctor(*run_args(scenarios, SID, results, "L", "--repeat", "2", "--resume"))
    assert again.returncode == 0, output(again)
    assert _lines(results) == [first, other]
    summary = json.loads((results / "L" / "summary.json").read_text())
    assert summary["finished_at"] == first["finished_at"]

    # An attempt to redo: the run's line is replaced where it was, and no line is added.
    (results / "L" / "attempts" / SID / "oracle-2" / "attempt.json").unlink()
    redone = proctor(*run_args(scenarios, SID, results, "L", "--repeat", "2", "--resume"))
    assert redone.returncode == 0, output(redone)
    lines = _lines(results)
    assert [line["label"] for line in lines] == ["L", "other"]
    assert lines[1] == other
    summary = json.loads((results / "L" / "summary.json").read_text())
    assert lines[0]["finished_at"] == summary["finished_at"]
    assert (lines[0]["started_at"], lines[0]["passed"]) == (first["started_at"], 1)
    assert lines[0]["rows"][0]["attempts"] == 2
