"""Atomic writes never leave a partial or temp file; records round-trip through JSON."""

from __future__ import annotations

import errno
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from proctor.errors import RunError, StorageError
from proctor.records import (
    SCHEMA_VERSION,
    AttemptRecord,
    CheckResult,
    EndState,
    FileFact,
    InfraFault,
    Step,
    Tab,
    WebRequest,
    append_jsonl,
    put_jsonl_row,
    write_bytes_atomic,
    write_jsonl_atomic,
    write_model_atomic,
    write_text_atomic,
)


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_write_bytes_creates_folders_and_leaves_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "data.bin"
    write_bytes_atomic(path, b"\x00\x01new")
    assert path.read_bytes() == b"\x00\x01new"
    assert listing(path.parent) == ["data.bin"]
    write_bytes_atomic(path, b"second")
    assert path.read_bytes() == b"second"
    assert listing(path.parent) == ["data.bin"]


def test_write_text_is_utf8(tmp_path: Path) -> None:
    path = tmp_path / "report.md"
    write_text_atomic(path, "✓ café\n")
    assert path.read_bytes() == "✓ café\n".encode()


def test_failed_write_keeps_the_old_content_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "attempt.json"
    path.write_text("old", encoding="utf-8")

    def no_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_disk)
    with pytest.raises(StorageError) as info:
        write_bytes_atomic(path, b"new content that never lands")
    assert str(info.value) == (
        f"cannot write {path}: the disk is full; "
        "free disk space or pass --results on another disk, then run again"
    )
    assert info.value.errno == errno.ENOSPC
    assert isinstance(info.value, RunError)
    assert path.read_text(encoding="utf-8") == "old"
    assert listing(tmp_path) == ["attempt.json"]


def test_a_disk_filling_mid_write_leaves_no_truncated_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "after.png"
    real_fdopen = os.fdopen

    class HalfFile:
        """Takes 10 bytes, then the disk is full."""

        def __init__(self, fd: int, mode: str) -> None:
            self.fh = real_fdopen(fd, mode)

        def __enter__(self) -> HalfFile:
            return self

        def __exit__(self, *exc: object) -> None:
            self.fh.close()

        def write(self, data: bytes) -> int:
            self.fh.write(data[:10])
            self.fh.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fdopen", HalfFile)
    with pytest.raises(StorageError, match=r"^cannot write .*after\.png: the disk is full; "):
        write_bytes_atomic(path, b"\x89PNG" + b"x" * 1000)
    assert listing(tmp_path) == []


def test_a_results_path_that_is_a_file_names_the_file(tmp_path: Path) -> None:
    blocker = tmp_path / "results"
    blocker.write_text("not a folder")
    target = blocker / "L" / "run.json"
    with pytest.raises(StorageError) as info:
        write_text_atomic(target, "{}")
    assert str(info.value) == (
        f"cannot write {target}: {blocker} is a file, not a folder; "
        "move it or pass --results another folder"
    )
    with pytest.raises(StorageError, match=f"^cannot append to {target}: {blocker} is a file"):
        append_jsonl(target, {"a": 1})


def test_a_name_too_long_says_so(tmp_path: Path) -> None:
    target = tmp_path / ("x" * 300) / "run.json"
    with pytest.raises(StorageError) as info:
        write_text_atomic(target, "{}")
    assert str(info.value) == (
        f"cannot write {target}: a name in the path is too long (300 characters; "
        "most disks allow 255); use a shorter --label, arm name or --results path"
    )


@pytest.mark.parametrize(
    ("code", "why", "fix"),
    [
        (errno.EROFS, "the file system is read-only", "pass --results a writable folder"),
        (
            errno.EACCES,
            "permission denied",
            "make {folder} writable or pass --results another folder",
        ),
    ],
)
def test_a_folder_that_cannot_be_made_is_a_storage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, why: str, fix: str
) -> None:
    # root ignores a folder's mode bits, so the refusal is simulated at os.mkdir.
    def refuse(path: Any, mode: int = 0o777) -> None:
        raise OSError(code, os.strerror(code), str(path))

    monkeypatch.setattr(os, "mkdir", refuse)
    target = tmp_path / "results" / "L" / "run.json"
    with pytest.raises(StorageError) as info:
        write_text_atomic(target, "{}")
    folder = target.parent
    assert str(info.value) == f"cannot write {target}: {why}; {fix.format(folder=folder)}"
    with pytest.raises(StorageError, match=f"^cannot append to {target}: {why}; "):
        append_jsonl(target, {"a": 1})


def test_interrupted_write_removes_the_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "attempt.json"
    path.write_text("old", encoding="utf-8")

    def interrupted(src: Any, dst: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_text_atomic(path, "new")
    assert path.read_text(encoding="utf-8") == "old"
    assert listing(tmp_path) == ["attempt.json"]


def test_failing_serialization_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    write_jsonl_atomic(path, [{"a": 1}])
    looped: dict[str, Any] = {}
    looped["self"] = looped
    with pytest.raises(ValueError, match="Circular reference detected"):
        write_jsonl_atomic(path, [{"b": 2}, looped])
    assert path.read_text(encoding="utf-8") == '{"a": 1}\n'
    assert listing(tmp_path) == ["rows.jsonl"]


def test_failing_model_serialization_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "attempt.json"
    write_text_atomic(path, "old")
    broken = CheckResult.model_construct(name="x", kind="answer", passed=True, actual=object())
    with pytest.raises(Exception, match="Unable to serialize unknown type"):
        write_model_atomic(path, broken)
    assert path.read_text(encoding="utf-8") == "old"
    assert listing(tmp_path) == ["attempt.json"]


def test_write_jsonl_rows_and_models(tmp_path: Path) -> None:
    path = tmp_path / "web.jsonl"
    tab = Tab(index=0, url="http://forms.proctor.test/", title="Forms", active=True)
    write_jsonl_atomic(path, [tab, {"ok": "✓"}, [1, 2]])
    assert path.read_text(encoding="utf-8").splitlines() == [
        '{"index":0,"url":"http://forms.proctor.test/","title":"Forms","active":true}',
        '{"ok": "✓"}',
        "[1, 2]",
    ]


def test_write_model_is_indented_json(tmp_path: Path) -> None:
    path = tmp_path / "tab.json"
    write_model_atomic(path, Tab(index=1, url="u", title="t", active=False))
    assert path.read_text(encoding="utf-8") == (
        '{\n  "index": 1,\n  "url": "u",\n  "title": "t",\n  "active": false\n}\n'
    )


def test_append_jsonl_lines_are_whole_under_concurrency(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "history.jsonl"
    payload = "x" * 3000

    def writer(n: int) -> None:
        for i in range(50):
            append_jsonl(path, {"writer": n, "i": i, "payload": payload})

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 400
    rows = [json.loads(line) for line in lines]
    assert sorted((r["writer"], r["i"]) for r in rows) == [
        (n, i) for n in range(8) for i in range(50)
    ]
    assert all(r["payload"] == payload for r in rows)
    for n in range(8):
        assert [r["i"] for r in rows if r["writer"] == n] == list(range(50))


def test_append_jsonl_finishes_a_short_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "history.jsonl"
    real_write = os.write
    sizes: list[int] = []

    def short_write(fd: int, data: Any) -> int:
        sizes.append(len(data))
        return real_write(fd, bytes(data[:7]))

    monkeypatch.setattr(os, "write", short_write)
    append_jsonl(path, {"label": "run-1", "passed": 3})
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == '{"label": "run-1", "passed": 3}\n'
    assert sizes == [32, 25, 18, 11, 4]


def test_append_jsonl_on_a_full_disk_leaves_no_half_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "history.jsonl"
    append_jsonl(path, {"label": "run-1"})
    real_write = os.write

    def full_after_7(fd: int, data: Any) -> int:
        if sizes:
            raise OSError(errno.ENOSPC, "No space left on device")
        sizes.append(len(data))
        return real_write(fd, bytes(data[:7]))

    sizes: list[int] = []
    monkeypatch.setattr(os, "write", full_after_7)
    with pytest.raises(StorageError, match=r"^cannot append to .*history\.jsonl: the disk is full"):
        append_jsonl(path, {"label": "run-2", "passed": 3})
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == '{"label": "run-1"}\n'


def test_append_jsonl_model_row(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    append_jsonl(path, InfraFault(try_number=1, kind="browser", message="crashed"))
    append_jsonl(path, {"b": None})
    assert path.read_text(encoding="utf-8") == (
        '{"try_number":1,"kind":"browser","message":"crashed","started_at":null,"seconds":null}\n'
        '{"b": null}\n'
    )


def test_append_jsonl_error_names_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "is-a-folder.jsonl"
    folder.mkdir()
    with pytest.raises(StorageError, match=r"^cannot append to .*is-a-folder\.jsonl: "):
        append_jsonl(folder, {"a": 1})


def full_record() -> AttemptRecord:
    request = WebRequest(
        seq=3,
        time=1700000000.25,
        attempt="manual-selectors/oracle-1",
        method="POST",
        host="forms.proctor.test",
        path="/submit/contact",
        query={"x": ["1"]},
        form={"name": ["Dana"], "copy": ["yes"]},
        files={"doc": [{"filename": "a.pdf", "size": 3, "sha256": "ab" * 32}]},
        json_body=None,
        cookies=["session"],
        status=303,
    )
    steps = [
        Step(
            index=0,
            op="click",
            target="button 'Send'",
            input={"op": "click", "role": "button", "name": "Send"},
            output="clicked",
            facts={"in_frame": False, "new_tab": None},
            started_at=1700000000.0,
            latency_ms=12.5,
        ),
        Step(
            index=1,
            op="extract",
            data=[{"row": 1}],
            status="error",
            error="no table",
            started_at=1700000001.0,
            latency_ms=3.0,
        ),
    ]
    child = CheckResult(name="shown", kind="page_text", passed=False, expected={"contains": "ok"})
    checks = [
        CheckResult(
            name="submitted",
            kind="submitted",
            passed=True,
            expected={"route": "contact", "count": "exactly 1"},
            actual={"matching": 1, "posts": [{"name": ["Dana"]}]},
        ),
        CheckResult(
            name="both",
            kind="all",
            passed=False,
            expected="all of 1",
            actual="0 passed",
            detail="failed: shown",
            children=[child],
        ),
    ]
    end = EndState(
        requests=[request],
        url="http://forms.proctor.test/submitted/contact/1",
        title="Sent",
        page_text="Your message was accepted.",
        tabs=[Tab(index=0, url="http://forms.proctor.test/", title="Forms", active=True)],
        answer='{"total": 40}',
        stop_reason="done",
        steps=steps,
        files={"output/a.txt": FileFact(sha256="cd" * 32, size=5, text="hello")},
        originals={"a.pdf": "ab" * 32},
        apps={"mail": {"inbox": [{"id": 1}]}},
    )
    return AttemptRecord(
        id="manual-selectors/oracle-1",
        scenario="manual-selectors",
        scenario_sha256="ef" * 32,
        tier="local",
        category="regression",
        arm="oracle",
        agent="scripted",
        repeat=1,
        result="failed",
        stop_reason="done",
        answer='{"total": 40}',
        checks=checks,
        failed_checks=["both"],
        steps=steps,
        tool_calls=2,
        inputs=1,
        tokens={"input": 10, "output": 2},
        cost_usd=0.0012,
        started_at=1700000000.0,
        seconds=2.5,
        agent_seconds=1.25,
        timings={"world.up": 0.01, "grade": 0.002},
        infra_faults=[InfraFault(try_number=1, kind="browser", message="crashed")],
        end_state=end,
    )


def test_attempt_record_round_trips_through_json(tmp_path: Path) -> None:
    record = full_record()
    path = tmp_path / "attempts" / "manual-selectors" / "oracle-1" / "attempt.json"
    write_model_atomic(path, record)
    loaded = AttemptRecord.model_validate_json(path.read_text(encoding="utf-8"))
    assert loaded == record
    assert loaded.model_dump_json() == record.model_dump_json()
    assert loaded.checks[1].children[0].expected == {"contains": "ok"}
    assert loaded.version == SCHEMA_VERSION


def test_attempt_record_refuses_unknown_fields() -> None:
    data = json.loads(full_record().model_dump_json())
    data["surprise"] = 1
    with pytest.raises(ValueError, match="surprise"):
        AttemptRecord.model_validate(data)


def test_rows_put_at_once_by_many_writers_are_all_kept_once(tmp_path: Path) -> None:
    path = tmp_path / "history.jsonl"
    path.write_text('not json\n{"label": "w0", "n": -1}\n{"label": "w0", "n": -2}\n')

    def writer(n: int) -> None:
        for i in range(20):
            put_jsonl_row(path, "label", {"label": f"w{n}", "n": i})

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    lines = path.read_text().splitlines()
    assert lines[:2] == ["not json", '{"label": "w0", "n": 19}']  # in place; the repeat dropped
    assert sorted(json.loads(line)["label"] for line in lines[1:]) == [f"w{n}" for n in range(6)]
    assert {json.loads(line)["n"] for line in lines[1:]} == {19}
