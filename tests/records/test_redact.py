"""No secret of the environment reaches a results file, whichever writer wrote it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proctor.records import (
    AttemptRecord,
    EndState,
    Redactor,
    WebRequest,
    append_jsonl,
    is_secret,
    redact_secrets,
    write_jsonl_atomic,
    write_model_atomic,
    write_text_atomic,
)

KEY = "sk-test-abcdef123456"


def record(answer: str) -> AttemptRecord:
    return AttemptRecord(
        id="s/gpt-1",
        scenario="s",
        scenario_sha256="0" * 64,
        tier="model",
        category="capability",
        arm="gpt",
        agent="openai:gpt-4.1-mini",
        repeat=1,
        result="failed",
        stop_reason="done",
        answer=answer,
        error=f"provider said: Incorrect API key provided: {KEY}",
        started_at=1.0,
        seconds=2.0,
        end_state=EndState(answer=answer, page_text=f"key={KEY}"),
    )


def test_a_key_in_an_answer_and_an_event_never_reaches_the_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    attempt = tmp_path / "attempt.json"
    events = tmp_path / "events.jsonl"
    web = tmp_path / "web.jsonl"
    report = tmp_path / "report.md"
    write_model_atomic(attempt, record(f"my key is {KEY}."))
    write_jsonl_atomic(events, [{"kind": "reply", "text": f"use {KEY}"}, {"kind": "done"}])
    request = WebRequest(
        seq=1, time=1.0, attempt="s/gpt-1#1", method="GET", host="h", path=f"/?k={KEY}", status=200
    )
    append_jsonl(web, request)
    append_jsonl(web, {"note": KEY})
    write_text_atomic(report, f"| answer | {KEY} |\n")

    for path in (attempt, events, web, report):
        text = path.read_text(encoding="utf-8")
        assert KEY not in text, path.name
        assert "[redacted:OPENAI_API_KEY]" in text, path.name
    stored = json.loads(attempt.read_text(encoding="utf-8"))
    assert stored["answer"] == "my key is [redacted:OPENAI_API_KEY]."
    assert stored["end_state"]["page_text"] == "key=[redacted:OPENAI_API_KEY]"
    assert [json.loads(line) for line in events.read_text().splitlines()] == [
        {"kind": "reply", "text": "use [redacted:OPENAI_API_KEY]"},
        {"kind": "done"},
    ]
    assert json.loads(web.read_text().splitlines()[1]) == {"note": "[redacted:OPENAI_API_KEY]"}


def test_the_redactor_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROCTOR_TEST_TOKEN", raising=False)
    assert redact_secrets("t0k3n-value-one") == "t0k3n-value-one"
    monkeypatch.setenv("PROCTOR_TEST_TOKEN", "t0k3n-value-one")
    assert redact_secrets("a t0k3n-value-one b") == "a [redacted:PROCTOR_TEST_TOKEN] b"
    monkeypatch.setenv("PROCTOR_TEST_TOKEN", "t0k3n-value-two")
    assert redact_secrets("t0k3n-value-one t0k3n-value-two") == (
        "t0k3n-value-one [redacted:PROCTOR_TEST_TOKEN]"
    )
    monkeypatch.delenv("PROCTOR_TEST_TOKEN")
    assert redact_secrets("t0k3n-value-two") == "t0k3n-value-two"


@pytest.mark.parametrize(
    ("name", "value", "secret"),
    [
        ("OPENAI_API_KEY", KEY, True),
        ("ANTHROPIC_API_KEY", "sk-ant-api03-abcdefghijklmnop", True),
        ("GITHUB_TOKEN", "ghp_abcdefghijklmnopqrstuvwxyz0123", True),
        ("STRIPE_SECRET", "whsec-12ab34cd", True),
        ("DB_PASSWORD", "hunter2hunter2", True),
        ("MY_LLM", "sk-or-v1-0123456789abcdef0123", True),  # a key's shape, whatever its name
        ("SESSION_KEY", "a1b2c3d4e5", True),
        ("X_KEY", "1", False),  # short
        ("FEATURE_TOKEN", "enabled", False),  # short
        ("SORT_KEY", "12345678901", False),  # digits only: amounts, ids, phone numbers
        ("SSH_KEY", "/root/.ssh/id_ed25519", False),  # a path
        ("SIGNING_KEY", "not a key at all", False),  # whitespace: prose, not a key
        ("HOME", "/home/somebody", False),
        ("EDITOR", "sk-short", False),
        ("TOKENIZERS_PARALLELISM", "false-false", False),  # TOKEN only as a prefix
    ],
)
def test_what_counts_as_a_secret(name: str, value: str, secret: bool) -> None:
    assert is_secret(name, value) is secret


def test_a_secret_is_found_in_its_json_escaped_form_and_the_longest_wins() -> None:
    redact = Redactor.of(
        {"DB_PASSWORD": 'pa"ss\\wörd-123', "A_TOKEN": "abcdefgh", "B_TOKEN": "abcdefgh-longer"}
    )
    dumped = json.dumps({"v": 'pa"ss\\wörd-123', "w": "abcdefgh-longer abcdefgh"})
    assert json.loads(redact(dumped)) == {
        "v": "[redacted:DB_PASSWORD]",
        "w": "[redacted:B_TOKEN] [redacted:A_TOKEN]",
    }
    ascii_dumped = json.dumps({"v": 'pa"ss\\wörd-123'}, ensure_ascii=True)
    assert json.loads(redact(ascii_dumped)) == {"v": "[redacted:DB_PASSWORD]"}


def test_text_without_a_secret_is_returned_as_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    text = "nothing to hide " * 1000
    assert redact_secrets(text) is text
