"""`diagnose --json` and `verify --json`: one JSON document on stdout, as docs/results.md says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_support import Proctor, output, probe

pytestmark = pytest.mark.browser

SID = "json-probe"
RIGHT = [{"op": "done", "answer": "42"}]
WRONG = [{"op": "done", "answer": "41"}]
SCENARIOS = [
    probe(
        SID,
        decoys=[
            {"name": "wrong-answer", "steps": WRONG, "fails": ["answer"]},
            # Answers like the oracle, so it cannot fail as it claims: a violation.
            {"name": "also-right", "steps": RIGHT, "fails": ["answer"]},
        ],
    )
]


@pytest.mark.slow
def test_verify_json_lists_every_obligation_and_exits_1_on_a_violation(
    scenarios: Path, proctor: Proctor
) -> None:
    done = proctor("verify", "--scenarios", scenarios, "--only", SID, "--json")
    assert done.returncode == 1, output(done)
    found = json.loads(done.stdout)  # the whole of stdout is the one document
    assert found == {
        "obligations": [
            {
                "scenario": SID, "role": "oracle", "label": "oracle",
                "expected": "passes", "actual": "passed", "ok": True, "why": [],
            },
            {
                "scenario": SID, "role": "decoy", "label": "decoy:wrong-answer",
                "expected": "fails on answer", "actual": "failed on answer", "ok": True,
                "why": [],
            },
            {
                "scenario": SID, "role": "decoy", "label": "decoy:also-right",
                "expected": "fails on answer", "actual": "passed", "ok": False,
                "why": ["stopped: done"],
            },
            {
                "scenario": SID, "role": "null", "label": "null",
                "expected": "fails", "actual": "failed", "ok": True, "why": [],
            },
        ],
        "count": 4,
        "held": 3,
        "violated": 1,
        "skipped": [],
    }  # fmt: skip


DETAILS = {
    "idle": "stop reason null, no action taken",
    "wrong": "stop reason done, no action taken",
}


@pytest.mark.slow
def test_diagnose_json_groups_failed_attempts_with_their_folders(
    scenarios: Path, results: Path, proctor: Proctor
) -> None:
    ran = proctor(
        "run", "--scenarios", scenarios, "--only", SID, "--arm", "idle=null",
        "--arm", "wrong=decoy:wrong-answer", "--results", results, "--label", "diag",
    )  # fmt: skip
    assert ran.returncode == 1, output(ran)
    done = proctor("diagnose", "diag", "--results", results, "--json")
    assert done.returncode == 0, output(done)
    found = json.loads(done.stdout)
    run_dir = str(results / "diag")
    # Neither arm acted on the page (the decoy only answers 41): one cause, two attempts.
    assert found == {
        "run": "diag",
        "run_dir": run_dir,
        "failed": 2,
        "causes": [
            {
                "cause": "no_actions", "label": "no computer actions", "guard": None,
                "counted": True, "count": 2,
                "attempts": [
                    {"attempt": f"{SID}/{arm}-1", "path": f"{run_dir}/attempts/{SID}/{arm}-1",
                     "detail": detail}
                    for arm, detail in sorted(DETAILS.items())
                ],
            }
        ],
    }  # fmt: skip
    for attempt in found["causes"][0]["attempts"]:
        assert (Path(attempt["path"]) / "attempt.json").is_file()
    text = proctor("diagnose", "diag", "--results", results)
    assert text.stdout.splitlines()[0] == "2 failed attempt(s) by cause:"
