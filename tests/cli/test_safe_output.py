"""What scenarios and agents wrote reaches the terminal escaped, and the disk without secrets.

Each command runs in a subprocess, so the bytes checked are the bytes a terminal
would get. Exit codes of ``proctor run``: 1 a scored failure, 3 nothing could be
scored (infra errors only), 0 when a model arm is only skipped for its key.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cli_support import Proctor, output, probe, run_args
from proctor.api import exit_code
from proctor.records import AttemptRecord

KEY = "sk-test-abcdef123456"
ANSWER = f"\x1b]0;pwned\x07\x1b[2J[red]x[/]\u202e41 {KEY}"
TITLE = "Evil \x1b]0;pwned\x07 title \x1b[31mred\u202e [bold]b[/] [/]"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")
"""Characters a terminal acts on; none may reach stdout or stderr."""

EVIL = probe(
    "cli-evil-probe",
    title=TITLE,
    checks=[{"answer": {"equals": "42"}}, {"requested": {"path": "/", "host": "127.0.0.1"}}],
    decoys=[
        {
            "name": "evil-answer",
            "steps": [{"op": "navigate", "url": "{base_url}/"}, {"op": "done", "answer": ANSWER}],
            "fails": ["answer"],
        }
    ],
)
UNREACHABLE = probe(
    "cli-unreachable-probe",
    title="The start page never loads: every attempt is an infra error",
    brief="Answer 42.",
    limits={"seconds": 20, "tool_calls": 5, "steps": 5},
    world={"browser": {"start": "http://127.0.0.1:9/"}},
    checks=[{"answer": {"equals": "42"}}],
    decoys=[{"name": "wrong", "steps": [{"op": "done", "answer": "41"}], "fails": ["answer"]}],
)
SCENARIOS = (EVIL, UNREACHABLE)


def assert_no_raw_controls(done: subprocess.CompletedProcess[str]) -> None:
    for stream in (done.stdout, done.stderr):
        found = [c for c in RAW if c in stream]
        assert not found, (found, stream)
    assert "Traceback" not in done.stderr, done.stderr


def test_list_shows_a_title_escaped_and_not_as_markup(scenarios: Path, proctor: Proctor) -> None:
    done = proctor("list", "--scenarios", scenarios, "--tier", "local")
    assert done.returncode == 0, output(done)
    assert_no_raw_controls(done)
    line = next(x for x in done.stdout.splitlines() if "cli-evil-probe" in x)
    assert "Evil \\x1b]0;pwned\\x07 title \\x1b[31mred\\u202e [bold]b[/] [/]" in line, line


@pytest.mark.browser
def test_run_and_diagnose_escape_an_agents_answer_and_store_no_key(
    scenarios: Path, results: Path, proctor: Proctor
) -> None:
    args = run_args(scenarios, "cli-evil-probe", results, "E", "--arm", "d=decoy:evil-answer")
    done = proctor(*args, env={"OPENAI_API_KEY": KEY})
    assert done.returncode == 1, output(done)
    assert_no_raw_controls(done)
    assert "actual \\x1b]0;pwned" in done.stdout, done.stdout

    shown = proctor("diagnose", "E", "--results", results)
    assert shown.returncode == 0, output(shown)
    assert_no_raw_controls(shown)
    assert "actual \\x1b]0;pwned" in shown.stdout, shown.stdout

    stored = {p.name: p.read_bytes() for p in results.rglob("*") if p.is_file()}
    assert {"attempt.json", "events.jsonl", "summary.json", "report.md", "report.html"} <= set(
        stored
    )
    leaking = [name for name, data in stored.items() if KEY.encode() in data]
    assert not leaking
    attempt = json.loads(stored["attempt.json"])
    assert attempt["answer"] == ANSWER.replace(KEY, "[redacted:OPENAI_API_KEY]")


@pytest.mark.browser
def test_run_exits_3_when_every_attempt_is_an_infra_error(
    scenarios: Path, results: Path, proctor: Proctor
) -> None:
    done = proctor(*run_args(scenarios, "cli-unreachable-probe", results, "I", "--retries", "0"))
    assert done.returncode == 3, output(done)
    assert "nothing could be scored: 1 of 1 attempt(s) ended in an infra error" in done.stdout
    attempt = results / "I/attempts/cli-unreachable-probe/oracle-1/attempt.json"
    assert json.loads(attempt.read_text())["result"] == "error"


def test_run_exits_0_when_a_model_arm_is_only_skipped(
    scenarios: Path, results: Path, proctor: Proctor
) -> None:
    arm = ("--arm", "gpt=openai:gpt-4.1-mini")
    done = proctor(*run_args(scenarios, "cli-unreachable-probe", results, "S", *arm))
    assert done.returncode == 0, output(done)
    assert "skipped arm gpt: no OPENAI_API_KEY" in done.stdout, done.stdout


def rec(result: str, **extra: Any) -> AttemptRecord:
    return AttemptRecord.model_validate(
        {
            "id": f"s/a-{result}",
            "scenario": "s",
            "scenario_sha256": "0" * 64,
            "tier": "local",
            "category": "regression",
            "arm": "a",
            "agent": "scripted",
            "repeat": 1,
            "result": result,
            "stop_reason": {"error": "infra", "skipped": "skipped"}.get(result, "done"),
            "started_at": 0.0,
            "seconds": 0.0,
            **extra,
        }
    )


@pytest.mark.parametrize(
    ("results", "failed", "code"),
    [
        (["passed"], False, 0),
        (["failed"], True, 1),
        (["error"], False, 3),
        (["error", "error"], False, 3),
        (["error", "skipped"], False, 3),
        (["skipped"], False, 0),  # a model arm without its key: documented exit 0
        (["error", "passed"], False, 0),  # something was scored; the errors are shown apart
        (["error", "failed"], True, 1),
        ([], False, 0),
    ],
)
def test_exit_code(results: list[str], failed: bool, code: int) -> None:
    assert exit_code([rec(r) for r in results], failed) == code
