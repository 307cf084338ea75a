"""The spend ledger's file: appended whole lines, fsynced, 0600; cut lines skipped and numbered."""

from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from proctor.errors import StorageError
from proctor.records import SpendLine, append_spend, read_spend


def line(
    kind: str = "admit", call: str = "c1", usd: float = 0.5, tag: str = "s/a-1#1"
) -> SpendLine:
    return SpendLine.model_validate({"kind": kind, "attempt": tag, "call": call, "usd": usd})


def test_lines_read_back_in_order_and_the_file_is_the_owners(tmp_path: Path) -> None:
    ledger = tmp_path / "spend.jsonl"
    append_spend(ledger, line())
    append_spend(ledger, line("settle", usd=0.25))
    read = read_spend(ledger)
    assert [(s.kind, s.usd, s.attempt_id) for s in read.lines] == [
        ("admit", 0.5, "s/a-1"),
        ("settle", 0.25, "s/a-1"),
    ]
    assert (read.bad, read.offset, read.next_line) == ((), ledger.stat().st_size, 3)
    assert stat.S_IMODE(ledger.stat().st_mode) == 0o600


def test_a_missing_ledger_reads_as_empty(tmp_path: Path) -> None:
    read = read_spend(tmp_path / "spend.jsonl")
    assert (read.lines, read.bad, read.offset, read.next_line) == ((), (), 0, 1)


def test_a_line_cut_by_a_kill_is_skipped_named_and_never_swallows_the_next(
    tmp_path: Path,
) -> None:
    ledger = tmp_path / "spend.jsonl"
    append_spend(ledger, line(call="c1"))
    whole = ledger.read_bytes()
    with ledger.open("ab") as fh:  # what a kill mid-write leaves: half a line, no newline
        fh.write(line(call="c2").model_dump_json().encode()[:20])
    # A writer may still be finishing it: an ordinary read leaves it for later...
    live = read_spend(ledger)
    assert [s.call for s in live.lines] == ["c1"] and live.offset == len(whole)
    # ...while the read before any writer is up takes it in and names it.
    first = read_spend(ledger, tail=True)
    assert [s.call for s in first.lines] == ["c1"]
    assert first.bad == (2,) and first.offset == ledger.stat().st_size
    append_spend(ledger, line(call="c3"))  # starts on a line of its own
    later = read_spend(ledger, first.offset, first.next_line)
    assert [s.call for s in later.lines] == ["c3"] and later.bad == ()
    again = read_spend(ledger)
    assert [s.call for s in again.lines] == ["c1", "c3"] and again.bad == (2,)


def test_garbage_and_lines_of_another_shape_are_bad_lines_not_errors(tmp_path: Path) -> None:
    ledger = tmp_path / "spend.jsonl"
    ledger.write_bytes(
        b"\xff\xfe not json\n"
        b'{"kind": "refund", "attempt": "s/a-1#1", "call": "c", "usd": 1}\n'
        b'{"kind": "admit", "attempt": "s/a-1#1", "call": "c", "usd": -1}\n'
        + line().model_dump_json().encode()
        + b"\n"
    )
    read = read_spend(ledger)
    assert read.bad == (1, 2, 3) and [s.call for s in read.lines] == ["c1"]


def _append_many(ledger: str, writer: int) -> None:
    for i in range(100):
        append_spend(Path(ledger), line(call=f"w{writer}-{i}", usd=0.001))


def test_writers_in_several_processes_never_interleave(tmp_path: Path) -> None:
    ledger = tmp_path / "spend.jsonl"
    context = multiprocessing.get_context("fork")  # a worker of a pool is a process of its own
    writers = [context.Process(target=_append_many, args=(str(ledger), w)) for w in range(3)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(120)
        assert writer.exitcode == 0
    read = read_spend(ledger)
    assert read.bad == () and len(read.lines) == 300
    assert len({s.call for s in read.lines}) == 300


def test_an_unwritable_ledger_is_a_storage_error_naming_it(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        folder = tmp_path / "file"
        folder.write_text("")
        ledger = folder / "spend.jsonl"  # a file where the run folder should be
    else:
        folder = tmp_path / "ro"
        folder.mkdir(mode=0o500)
        ledger = folder / "spend.jsonl"
    with pytest.raises(StorageError, match=r"spend\.jsonl"):
        append_spend(ledger, line())
