"""Records hold only words of proctor.vocab; version 1 records still load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from proctor.records import SCHEMA_VERSION, AttemptRecord, CheckResult, InfraFault, WebRequest
from proctor.report import load_records


def attempt(**extra: Any) -> dict[str, Any]:
    """An attempt.json's content as version 1 wrote it (no safety on its checks)."""
    data: dict[str, Any] = {
        "version": 1,
        "id": "injection/agent-1",
        "scenario": "injection",
        "scenario_sha256": "ab" * 32,
        "tier": "local",
        "category": "regression",
        "arm": "agent",
        "agent": "command",
        "repeat": 1,
        "result": "failed",
        "stop_reason": "done",
        "checks": [{"name": "crossings", "kind": "crossings", "passed": False}],
        "started_at": 1700000000.0,
        "seconds": 1.0,
        "end_state": {"stop_reason": "done"},
    }
    data.update(extra)
    return data


def test_a_version_1_record_loads_with_its_words_mapped(tmp_path: Path) -> None:
    stored = attempt(stop_reason="wall_limit", end_state={"stop_reason": "wall_limit"})
    path = tmp_path / "attempts" / "injection" / "agent-1" / "attempt.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(stored), encoding="utf-8")
    (record,) = load_records(tmp_path)
    assert (record.version, record.stop_reason, record.end_state.stop_reason) == (
        1,
        "unknown",
        "unknown",
    )
    assert (
        record.stop_detail == "stored stop reason 'wall_limit' is not in this version's vocabulary"
    )
    assert record.checks[0].safety is False


def test_version_1_words_in_the_vocabulary_are_kept_and_an_empty_end_reason_is_none() -> None:
    record = AttemptRecord.model_validate(
        attempt(stop_reason="exited", stop_detail="gone", end_state={"stop_reason": ""})
    )
    assert (record.stop_reason, record.stop_detail, record.end_state.stop_reason) == (
        "exited",
        "gone",
        None,
    )


def test_a_current_record_is_read_strictly() -> None:
    with pytest.raises(ValidationError, match="stop_reason"):
        AttemptRecord.model_validate(attempt(version=SCHEMA_VERSION, stop_reason="wall_limit"))
    with pytest.raises(ValidationError, match="stop_reason"):
        AttemptRecord.model_validate(attempt(version=SCHEMA_VERSION, end_state={"stop_reason": ""}))
    with pytest.raises(ValidationError, match="tier"):
        AttemptRecord.model_validate(attempt(tier="staging"))


def test_fault_kinds_and_crossings_are_closed() -> None:
    assert InfraFault(try_number=1, kind="provider", message="429").kind == "provider"
    with pytest.raises(ValidationError):
        InfraFault(try_number=1, kind="harness", message="?")
    request = {"seq": 1, "time": 0.0, "attempt": None, "method": "POST", "host": "h", "path": "/"}
    assert WebRequest(**request, status=303, crossing="signin").crossing == "signin"
    with pytest.raises(ValidationError):
        WebRequest(**request, status=303, crossing="signup")


def test_a_check_result_says_whether_it_is_a_safety_check() -> None:
    assert CheckResult(name="c", kind="crossings", passed=True).safety is False
    marked = CheckResult(name="c", kind="requested", passed=False, safety=True)
    assert CheckResult.model_validate_json(marked.model_dump_json()) == marked


def test_trace_events_and_the_control_file_are_records(tmp_path: Path) -> None:
    from pydantic import ValidationError

    from proctor.computer.browser import Recorder
    from proctor.records import ControlFile, TraceEvent, write_jsonl_atomic

    recorder = Recorder(10, 10)
    recorder.event("blocked", url="file:///etc/passwd", where=tmp_path)  # a Path becomes text
    path = tmp_path / "events.jsonl"
    write_jsonl_atomic(path, recorder.events)
    (event,) = [TraceEvent.model_validate_json(line) for line in path.read_text().splitlines()]
    assert (event.kind, event.model_dump()["where"]) == ("blocked", str(tmp_path))
    with pytest.raises(ValidationError):
        TraceEvent.model_validate_json('{"time": 1.0, "kind": ""}')
    with pytest.raises(ValidationError):
        ControlFile.model_validate_json('{"url": "http://127.0.0.1:9/x", "token": "x", "pid": 1}')
