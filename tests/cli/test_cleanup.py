"""proctor cleanup: a dead run's orphan is killed and its files removed, each line printed."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_support import Proctor, output
from proctor.records import write_model_atomic
from proctor.runner import OWNER_ENV, OwnerRecord, proc_start

DEADLINE = 10.0


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes the test starts: killed and reaped at the end."""
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for process in procs:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        process.wait(DEADLINE)


def sleep(procs: list[subprocess.Popen[bytes]], env: dict[str, str]) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(["sleep", "1000"], env={**os.environ, **env}, start_new_session=True)
    procs.append(process)
    return process


def test_cleanup_kills_and_removes_then_finds_nothing(
    proctor: Proctor, results: Path, started: list[subprocess.Popen[bytes]]
) -> None:
    run_dir = results / "crashed"
    owner = sleep(started, {})
    start = proc_start(owner.pid)
    assert start is not None
    owner.kill()
    owner.wait(DEADLINE)  # the driver, kill -9'd
    pid_file = run_dir / ".pids" / f"{owner.pid}.json"
    write_model_atomic(
        pid_file, OwnerRecord(pid=owner.pid, start=start, role="driver", run_dir=str(run_dir))
    )
    orphan = sleep(started, {OWNER_ENV: f"{owner.pid}:{start}"})
    scratch = run_dir / "scratch" / "probe--a-1-t1"
    scratch.mkdir(parents=True)
    temp = run_dir / ".summary.json.abc_1234.tmp"
    temp.write_text("{")

    dry = proctor("cleanup", "crashed", "--results", results, "--dry-run")
    assert dry.returncode == 0, output(dry)
    assert dry.stdout.splitlines() == [
        f"would kill {orphan.pid} (sleep 1000)",
        f"would remove {scratch}",
        f"would remove {temp}",
        f"would remove {pid_file}",
    ]
    assert orphan.poll() is None and scratch.is_dir()

    done = proctor("cleanup", "crashed", "--results", results)
    assert done.returncode == 0, output(done)
    assert done.stdout.splitlines() == [
        f"killed {orphan.pid} (sleep 1000)",
        f"removed {scratch}",
        f"removed {temp}",
        f"removed {pid_file}",
    ]
    assert orphan.wait(DEADLINE) == -15  # SIGTERM was enough for sleep
    assert not scratch.exists() and not temp.exists() and not pid_file.exists()

    again = proctor("cleanup", "crashed", "--results", results)
    assert (again.returncode, again.stdout) == (0, "nothing to clean\n"), output(again)


def test_cleanup_names_a_bad_label_or_results_folder(proctor: Proctor, results: Path) -> None:
    results.mkdir()
    missing = proctor("cleanup", "nope", "--results", results)
    assert missing.returncode == 2
    assert "no run 'nope' under" in missing.stderr
    bad = proctor("cleanup", "../x", "--results", results)
    assert bad.returncode == 2
    assert "LABEL '../x' is not a valid label" in bad.stderr
    nowhere = proctor("cleanup", "--results", results / "absent")
    assert nowhere.returncode == 2
    assert "no results folder at" in nowhere.stderr
