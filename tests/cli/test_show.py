"""proctor show: one stored attempt for a terminal, escaped, or as JSON; unknown ids exit 2.

Each command runs in a subprocess, so the bytes checked are the bytes a terminal gets.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_support import Proctor, output
from proctor.records import AttemptRecord, write_model_atomic

REPLY = "Opening the form.\nThen I click \x1b[31mSend[/red] [red]x[/red] \u202e"
STDERR = "Traceback (most recent call last):\nRuntimeError: agent died \x1b]0;pwned\x07\n"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def _call(index: int, **extra: Any) -> dict[str, Any]:
    return {
        "index": index,
        "started_at": 1700000000.0 + index,
        "latency_ms": 1234.0,
        "retries": 0,
        "tokens": {"input": 1500, "output": 42, "cached": 300},
        "cost_usd": 0.0021,
        "model": "gpt-4.1-mini",
        "tool": "click",
        **extra,
    }


def _record(arm: str, **extra: Any) -> AttemptRecord:
    return AttemptRecord.model_validate(
        {
            "id": f"contact/{arm}-1",
            "scenario": "contact",
            "scenario_sha256": "0" * 64,
            "tier": "local",
            "category": "regression",
            "arm": arm,
            "agent": "command",
            "repeat": 1,
            "result": "failed",
            "stop_reason": "exited",
            "started_at": 1700000000.0,
            "seconds": 2.0,
            **extra,
        }
    )


@pytest.fixture
def stored(results: Path) -> Path:
    """Run ``r1``: a command agent that crashed after two planner calls, and an oracle."""
    run_dir = results / "r1"
    crashed = _record(
        "cmd",
        exit_code=-9,
        stderr_tail=STDERR,
        answer="41 [bold]no[/bold]",
        planner_calls=2,
        planner=[
            _call(1, reply_text=REPLY, prompt_estimate=1395, parsed_from_text=True),
            _call(2, status="no_tool", tool=None, retries=2, error="reply called no tool"),
        ],
        checks=[
            {
                "name": "answer",
                "kind": "answer",
                "passed": False,
                "expected": "42",
                "actual": "41",
                "detail": "answer '41' is not '42'",
            }
        ],
        failed_checks=["answer"],
        steps=[
            {
                "index": 0,
                "op": "navigate",
                "target": "url /contact",
                "status": "error",
                "error": "net::ERR_ABORTED",
                "started_at": 1700000000.5,
                "latency_ms": 87.0,
            }
        ],
    )
    oracle = _record("oracle", agent="scripted", result="passed", stop_reason="done")
    for record in (crashed, oracle):
        write_model_atomic(run_dir / "attempts" / record.id / "attempt.json", record)
    return run_dir


def _no_raw(text: str) -> None:
    assert [c for c in RAW if c in text] == [], text


def test_show_prints_the_crash_the_calls_and_the_text_escaped(
    stored: Path, results: Path, proctor: Proctor
) -> None:
    done = proctor("show", "r1/contact/cmd-1", "--results", results)
    assert done.returncode == 0, output(done)
    out = done.stdout
    _no_raw(out + done.stderr)
    lines = out.splitlines()
    assert "attempt    r1/contact/cmd-1" in lines
    assert "result     failed" in lines
    assert "exit code  -9 (killed by signal 9)" in lines
    assert "cause      agent crashed: the command exited without calling done" in out
    # stderr, each line kept, its controls shown escaped.
    assert "  Traceback (most recent call last):" in lines
    assert "  RuntimeError: agent died \\x1b]0;pwned\\x07" in lines
    # The answer's markup is text, not style.
    assert "answer     41 [bold]no[/bold]" in lines
    assert "  answer (answer): answer '41' is not '42'" in lines
    step = next(line for line in lines if "navigate" in line)
    assert "url /contact" in step and "error" in step and "87 ms" in step, step
    assert "net::ERR_ABORTED" in step
    # The first decision's prompt: proctor's estimate and the provider's count.
    assert "first call ~1,395 prompt tokens estimated, 1,500 counted by the provider" in lines
    # The per-call table: one row per call, tokens as in/out/cached.
    rows = [line for line in lines if "1500/42/300" in line]
    assert len(rows) == 2, out
    assert "click (text)" in rows[0] and "1234 ms" in rows[0] and "$0.0021" in rows[0]
    assert "no_tool" in rows[1] and "reply called no tool" in rows[1]
    # The model's text turn, escaped: markup shown as typed, ESC and the bidi override visible.
    at = lines.index("model text, call 1")
    assert lines[at + 1 : at + 3] == [
        "  Opening the form.",
        "  Then I click \\x1b[31mSend[/red] [red]x[/red] \\u202e",
    ]
    assert "model text, call 2" not in out  # a reply without text has no turn


def test_show_json_is_the_attempt_view(stored: Path, results: Path, proctor: Proctor) -> None:
    done = proctor("show", "r1/contact/cmd-1", "--results", results, "--json")
    assert done.returncode == 0, output(done)
    assert "\x1b" not in done.stdout  # JSON escapes it as \u001b
    data = json.loads(done.stdout)
    assert data["label"] == "r1"
    assert data["id"] == "contact/cmd-1"
    assert data["exit_code"] == -9
    assert data["stderr_tail"] == STDERR
    assert data["cause"] == "agent crashed"
    assert [c["index"] for c in data["planner"]] == [1, 2]
    assert data["planner"][1]["error"] == "reply called no tool"
    assert data["text_turns"] == [{"call": 1, "text": REPLY}]
    assert data["first_request"] == {"prompt_estimate": 1395, "input_tokens": 1500}
    assert data["failed_checks"][0]["path"] == "answer"
    assert data["steps"][0]["error"] == "net::ERR_ABORTED"


def test_show_of_a_passed_attempt_has_no_crash_block(
    stored: Path, results: Path, proctor: Proctor
) -> None:
    done = proctor("show", "r1/contact/oracle-1", "--results", results)
    assert done.returncode == 0, output(done)
    assert "result     passed" in done.stdout.splitlines()
    assert "exit code" not in done.stdout
    assert "planner calls" not in done.stdout


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("r1/contact/gpt-1", "no attempt 'contact/gpt-1' in run 'r1'"),
        ("r9/contact/cmd-1", "no run 'r9' under"),
        ("contact-cmd-1", "'contact-cmd-1' is not LABEL/SCENARIO/ARM-N"),
    ],
)
def test_show_of_an_unknown_attempt_exits_2_saying_how_to_find_ids(
    stored: Path, results: Path, proctor: Proctor, given: str, said: str
) -> None:
    done = proctor("show", given, "--results", results)
    assert done.returncode == 2, output(done)
    assert said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    if given.startswith("r1/"):
        # The ids of that scenario, and where to list them.
        assert "contact/cmd-1, contact/oracle-1" in done.stderr
        assert "`proctor diagnose r1`" in done.stderr
