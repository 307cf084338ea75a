"""A results folder that cannot be written is one line naming the path and the fix, exit 2.

Root ignores a folder's mode bits and a test cannot fill the disk, so a
read-only folder and a full disk are simulated at ``os.mkdir``/``os.fsync``
under an in-process ``proctor``; the rest runs the real command.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli_support import Proctor, output, probe, run_args
from proctor.cli import main

SID = "cli-storage-probe"
SCENARIOS = (probe(SID),)
RULE = "use 1 to 100 of A-Z a-z 0-9 . _ -, starting with a letter or a digit"
InProcess = Callable[..., tuple[int, str]]


def one_error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: "), stderr
    return lines[0].removeprefix("error: ")


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> InProcess:
    """``in_process(*args)`` runs ``proctor ARGS`` in this process; its exit code and stderr."""

    def run(*args: str | Path) -> tuple[int, str]:
        monkeypatch.setattr(sys, "argv", ["proctor", *map(str, args)])
        monkeypatch.setenv("COLUMNS", "400")
        with pytest.raises(SystemExit) as info:
            main()
        code = info.value.code
        assert isinstance(code, int)
        return code, capsys.readouterr().err

    return run


def refuse_mkdir(monkeypatch: pytest.MonkeyPatch, code: int, where: Callable[[str], bool]) -> None:
    real = os.mkdir

    def mkdir(path: Any, mode: int = 0o777, **kw: Any) -> None:
        if where(os.fspath(path)):
            raise OSError(code, os.strerror(code), os.fspath(path))
        real(path, mode, **kw)

    monkeypatch.setattr(os, "mkdir", mkdir)


def test_a_results_path_that_is_a_file(scenarios: Path, results: Path, proctor: Proctor) -> None:
    results.write_text("a file")
    done = proctor(*run_args(scenarios, SID, results, "L"))
    assert done.returncode == 2, output(done)
    assert one_error_line(done.stderr) == (
        f"--results {results} is a file, not a folder; move it or pass --results another folder"
    )
    nested = proctor(*run_args(scenarios, SID, results / "deeper", "L"))
    assert nested.returncode == 2, output(nested)
    assert one_error_line(nested.stderr) == (
        f"cannot create the folder {results}/deeper/L: {results} is a file, not a folder; "
        "move it or pass --results another folder"
    )


@pytest.mark.parametrize(
    ("label", "shown"),
    [
        ("x" * 300, repr("x" * 40 + "…") + " (300 characters)"),
        ("two words", "'two words'"),
        ("a\nb", "'a\\nb'"),
        ("$(touch pwned)", "'$(touch pwned)'"),
        ("..", "'..'"),
    ],
)
def test_a_bad_label_is_refused_before_anything_runs(
    scenarios: Path, results: Path, proctor: Proctor, tmp_path: Path, label: str, shown: str
) -> None:
    done = proctor(*run_args(scenarios, SID, results, label))
    assert done.returncode == 2, output(done)
    assert one_error_line(done.stderr) == f"--label {shown} is not a valid label: {RULE}"
    assert not results.exists()
    assert not (tmp_path / "pwned").exists()


def test_gate_and_regrade_labels_follow_the_same_rule(results: Path, proctor: Proctor) -> None:
    gate = proctor(
        "gate", "--baseline", "scripted", "--candidate", "null", "--label", "a;b",
        "--results", results,
    )  # fmt: skip
    assert gate.returncode == 2, output(gate)
    assert one_error_line(gate.stderr) == f"--label 'a;b' is not a valid label: {RULE}"
    regrade = proctor("regrade", "old", "--label", "new run")
    assert regrade.returncode == 2, output(regrade)
    assert one_error_line(regrade.stderr) == f"--label 'new run' is not a valid label: {RULE}"


def test_a_read_only_results_folder(
    scenarios: Path, results: Path, in_process: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    results.mkdir()
    refuse_mkdir(monkeypatch, errno.EROFS, lambda p: p.startswith(str(results)))
    code, err = in_process(*run_args(scenarios, SID, results, "L"))
    assert code == 2
    assert one_error_line(err) == (
        f"cannot create the folder {results}/L: the file system is read-only; "
        "pass --results a writable folder"
    )


def test_a_full_disk_when_the_run_starts(
    scenarios: Path, results: Path, in_process: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    refuse_mkdir(monkeypatch, errno.ENOSPC, lambda p: p.startswith(str(results)))
    code, err = in_process(*run_args(scenarios, SID, results, "L"))
    assert code == 2
    assert one_error_line(err) == (
        f"cannot create the folder {results}/L: the disk is full; "
        "free disk space or pass --results on another disk, then run again"
    )
    monkeypatch.undo()

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    code, err = in_process(*run_args(scenarios, SID, results, "M"))
    assert code == 2
    assert one_error_line(err) == (
        f"cannot write {results}/M/run.json: the disk is full; "
        "free disk space or pass --results on another disk, then run again"
    )
    assert sorted(p.name for p in (results / "M").iterdir()) == []


@pytest.mark.browser
def test_a_full_disk_mid_attempt(
    scenarios: Path, results: Path, in_process: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scratch folder cannot be made: the run stops with the path, not a traceback."""
    refuse_mkdir(monkeypatch, errno.ENOSPC, lambda p: f"{os.sep}scratch{os.sep}" in p)
    code, err = in_process(*run_args(scenarios, SID, results, "L"))
    assert code == 2
    scratch = results / "L" / "scratch" / f"{SID}--oracle-1-t1"
    assert one_error_line(err) == (
        f"cannot create the folder {scratch}: the disk is full; "
        "free disk space or pass --results on another disk, then run again"
    )
