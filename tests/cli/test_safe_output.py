"""What scenarios and agents wrote reaches the terminal escaped, and the disk without secrets.

Each command runs in a subprocess, so the bytes checked are the bytes a terminal
would get. Exit codes of ``proctor run``: 1 a scored failure, 3 nothing could be
scored (infra errors only), 0 when a model arm is only skipped for its key.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from proctor.cli.run import exit_code
from proctor.records import AttemptRecord

PROCTOR = Path(sys.executable).parent / "proctor"
RUN_TIMEOUT = 120
KEY = "sk-test-abcdef123456"
ANSWER = f"\x1b]0;pwned\x07\x1b[2J[red]x[/]\u202e41 {KEY}"
TITLE = "Evil \x1b]0;pwned\x07 title \x1b[31mred\u202e [bold]b[/] [/]"
RAW = ("\x1b", "\x07", "\x9b", "\u202e")
"""Characters a terminal acts on; none may reach stdout or stderr."""

EVIL = {
    "id": "cli-evil-probe",
    "title": TITLE,
    "brief": "Open {base_url}/ and answer 42.",
    "tier": "local",
    "category": "regression",
    "limits": {"seconds": 30, "tool_calls": 10, "steps": 5},
    "world": {"browser": {"start": "{base_url}/"}},
    "checks": [{"answer": {"equals": "42"}}, {"requested": {"path": "/", "host": "127.0.0.1"}}],
    "solution": [{"op": "done", "answer": "42"}],
    "decoys": [
        {
            "name": "evil-answer",
            "steps": [{"op": "navigate", "url": "{base_url}/"}, {"op": "done", "answer": ANSWER}],
            "fails": ["answer"],
        }
    ],
}
UNREACHABLE = {
    "id": "cli-unreachable-probe",
    "title": "The start page never loads: every attempt is an infra error",
    "brief": "Answer 42.",
    "tier": "local",
    "category": "regression",
    "limits": {"seconds": 20, "tool_calls": 5, "steps": 5},
    "world": {"browser": {"start": "http://127.0.0.1:9/"}},
    "checks": [{"answer": {"equals": "42"}}],
    "solution": [{"op": "done", "answer": "42"}],
    "decoys": [{"name": "wrong", "steps": [{"op": "done", "answer": "41"}], "fails": ["answer"]}],
}


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli-evil")
    for spec in (EVIL, UNREACHABLE):
        (folder / f"{spec['id']}.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))
    return folder


def proctor(
    *args: str | Path, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    return subprocess.run(
        [str(PROCTOR), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        cwd=cwd,
        check=False,
        env={**base, "COLUMNS": "400", **(env or {})},
    )


def assert_no_raw_controls(done: subprocess.CompletedProcess[str]) -> None:
    for stream in (done.stdout, done.stderr):
        found = [c for c in RAW if c in stream]
        assert not found, (found, stream)
    assert "Traceback" not in done.stderr, done.stderr


def test_list_shows_a_title_escaped_and_not_as_markup(scenarios: Path, tmp_path: Path) -> None:
    done = proctor("list", "--scenarios", scenarios, "--tier", "local", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert_no_raw_controls(done)
    line = next(x for x in done.stdout.splitlines() if "cli-evil-probe" in x)
    assert "Evil \\x1b]0;pwned\\x07 title \\x1b[31mred\\u202e [bold]b[/] [/]" in line, line


@pytest.mark.browser
def test_run_and_diagnose_escape_an_agents_answer_and_store_no_key(
    scenarios: Path, tmp_path: Path
) -> None:
    results = tmp_path / "results"
    args = ["--scenarios", scenarios, "--only", "cli-evil-probe", "--results", results]
    done = proctor(
        "run", *args, "--arm", "d=decoy:evil-answer", "--label", "E",
        cwd=tmp_path, env={"OPENAI_API_KEY": KEY},
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert_no_raw_controls(done)
    assert "actual \\x1b]0;pwned" in done.stdout, done.stdout

    shown = proctor("diagnose", "E", "--results", results, cwd=tmp_path)
    assert shown.returncode == 0, shown.stdout + shown.stderr
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
def test_run_exits_3_when_every_attempt_is_an_infra_error(scenarios: Path, tmp_path: Path) -> None:
    done = proctor(
        "run", "--scenarios", scenarios, "--only", "cli-unreachable-probe", "--retries", "0",
        "--label", "I", "--results", tmp_path / "results", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 3, done.stdout + done.stderr
    assert "nothing could be scored: 1 of 1 attempt(s) ended in an infra error" in done.stdout
    attempt = tmp_path / "results/I/attempts/cli-unreachable-probe/oracle-1/attempt.json"
    assert json.loads(attempt.read_text())["result"] == "error"


def test_run_exits_0_when_a_model_arm_is_only_skipped(scenarios: Path, tmp_path: Path) -> None:
    done = proctor(
        "run", "--scenarios", scenarios, "--only", "cli-unreachable-probe",
        "--arm", "gpt=openai:gpt-4.1-mini", "--label", "S", "--results", tmp_path / "results",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
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
