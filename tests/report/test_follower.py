"""The follower behind `proctor tail`: whole lines only, a retry's fresh file, the final rewrite."""

from __future__ import annotations

import json
import os
from pathlib import Path

from proctor.records import write_text_atomic
from proctor.report import Follower, Restarted, event_line, live_attempts, run_state


def _line(kind: str, **data: object) -> str:
    return json.dumps({"time": 100.0, "kind": kind, **data}) + "\n"


def _append(path: Path, text: str) -> None:
    with path.open("a") as fh:
        fh.write(text)


def test_whole_lines_only_then_a_rewrite_of_the_same_lines_keeps_the_place(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    follower = Follower(path)
    assert list(follower.read()) == []  # not there yet
    write_text_atomic(path, "")
    _append(path, _line("attempt", try_number=1) + '{"time": 101.0, "ki')
    assert [e["kind"] for e in follower.read()] == ["attempt"]  # type: ignore[index]
    _append(path, 'nd": "step", "index": 0}\n')
    assert [e["kind"] for e in follower.read()] == ["step"]  # type: ignore[index]
    # The record phase replaces the file with the same lines: nothing again, nothing lost.
    write_text_atomic(path, path.read_text())
    assert list(follower.read()) == []
    _append(path, "not json\n")
    assert list(follower.read()) == [{"kind": "unreadable", "line": "not json"}]


def test_a_retry_starting_the_file_afresh_is_said_once(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    write_text_atomic(path, _line("attempt", try_number=1) + _line("step", index=0))
    follower = Follower(path)
    assert len(list(follower.read())) == 2
    # A new try: a new file that may already be longer than what was read.
    write_text_atomic(
        path,
        _line("attempt", try_number=2) + _line("step", index=0) + _line("step", index=1),
    )
    got = list(follower.read())
    assert isinstance(got[0], Restarted)
    assert [e["try_number"] for e in got[1:2]] == [2]  # type: ignore[index]
    assert len(got) == 4
    write_text_atomic(path, "")  # shorter, same inode or not: a restart too
    assert [type(e) for e in follower.read()] == [Restarted]


def test_event_lines_show_the_offset_the_kind_and_the_fields() -> None:
    event = {"time": 102.5, "kind": "step", "index": 3, "op": "click", "error": None}
    assert event_line(event, 100.0) == "   +2.50s step index=3 op=click"
    long = event_line({"time": 1.0, "kind": "stdout", "line": "x" * 1000}, 1.0)
    assert len(long) == 300 and long.endswith("…")


def test_live_attempts_and_the_run_state(tmp_path: Path) -> None:
    run = tmp_path / "r"
    for name, done in (("a/x-1", True), ("a/x-2", False), ("b/x-1", False)):
        folder = run / "attempts" / name
        folder.mkdir(parents=True)
        (folder / "events.jsonl").write_text(_line("attempt"))
        if done:
            (folder / "attempt.json").write_text("{}")
    live = sorted(f.relative_to(run / "attempts").as_posix() for f in live_attempts(run))
    assert live == ["a/x-2", "b/x-1"]
    assert run_state(run) == "ended"  # no run.json: nothing drives it
    info = {
        "label": "r",
        "started_at": 1.0,
        "command": ["proctor"],
        "config": {},
        "proctor_version": "0",
        "python": "3.11",
        "platform": "linux",
    }
    (run / "run.json").write_text(
        json.dumps({**info, "legs": [{"started_at": 1.0, "pid": os.getpid()}]})
    )
    assert run_state(run) == "running"
    dead = 2**22 + 12345  # above the default pid_max: no such process
    (run / "run.json").write_text(json.dumps({**info, "legs": [{"started_at": 1.0, "pid": dead}]}))
    assert run_state(run) == "gone"
    (run / "run.json").write_text(
        json.dumps({**info, "legs": [{"started_at": 1.0, "ended_at": 2.0, "pid": os.getpid()}]})
    )
    assert run_state(run) == "ended"
