"""Leftovers of dead runs: found from the pids they recorded, checked by start time, removed.

A dead owner is a process that recorded itself and is gone: a ``sleep`` this
test started, read, killed and reaped. Its orphan is a ``sleep`` started with
that owner's ``PROCTOR_OWNER`` mark, in a session of its own. Every process is
killed and reaped by the test that started it, within a deadline.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from proctor.agents import ATTEMPT_ENV
from proctor.errors import RunError
from proctor.records import ControlFile, write_model_atomic
from proctor.runner import (
    OWNER_ENV,
    Leftovers,
    Orphan,
    OwnerRecord,
    alive,
    claim,
    clean,
    find_leftovers,
    proc_start,
    release,
)

DEADLINE = 10.0


class Procs:
    """Processes a test starts: each killed and reaped at the end."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen[bytes]] = []

    def sleep(self, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            ["sleep", "1000"], env={**os.environ, **(env or {})}, start_new_session=True
        )
        self.started.append(process)
        return process

    def dead_owner(self) -> tuple[int, int]:
        """(pid, start) of a process that ran, and is now dead and reaped."""
        process = self.sleep()
        start = proc_start(process.pid)
        assert start is not None
        process.kill()
        process.wait(DEADLINE)
        return process.pid, start

    def end(self) -> None:
        for process in self.started:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            process.wait(DEADLINE)


@pytest.fixture
def procs() -> Iterator[Procs]:
    started = Procs()
    yield started
    started.end()


def record_owner(run_dir: Path, pid: int, start: int) -> Path:
    path = run_dir / ".pids" / f"{pid}.json"
    write_model_atomic(path, OwnerRecord(pid=pid, start=start, role="driver", run_dir=str(run_dir)))
    return path


def control(run_dir: Path, pid: int) -> Path:
    path = run_dir / f"control-{pid}.json"
    write_model_atomic(path, ControlFile(url="http://127.0.0.1:9/x", token="t" * 32, pid=pid))
    return path


def dead_run(run_dir: Path, procs: Procs) -> dict[str, Path | int]:
    """A run whose driver died: an orphan, scratch, staging, a temp file, a control file."""
    pid, start = procs.dead_owner()
    owner = record_owner(run_dir, pid, start)
    orphan = procs.sleep({OWNER_ENV: f"{pid}:{start}"})
    scratch = run_dir / "scratch" / "probe--oracle-1-t1"
    (scratch / "home").mkdir(parents=True)
    (scratch / "home" / "notes.txt").write_text("x")
    staging = run_dir / ".staging" / "probe"
    staging.mkdir(parents=True)
    temp = run_dir / "probe" / "oracle-1" / ".attempt.json.k2j4_x9a.tmp"
    temp.parent.mkdir(parents=True)
    temp.write_text("{")
    (run_dir / "probe" / "oracle-1" / "notes.tmp").write_text("not ours")  # not the pattern
    return {
        "owner": owner,
        "orphan": orphan.pid,
        "scratch": scratch,
        "staging": staging,
        "temp": temp,
        "control": control(run_dir, pid),
    }


def test_start_times_tell_a_live_process_from_a_reused_pid(procs: Procs) -> None:
    me = proc_start(os.getpid())
    assert me is not None and alive(os.getpid(), me)
    assert not alive(os.getpid(), me + 1)
    pid, start = procs.dead_owner()
    assert not alive(pid, start)
    now = proc_start(pid)  # None, or a later process that took the pid
    assert now is None or now > start


def test_a_dead_run_is_found_and_cleaned_and_a_live_one_is_untouched(
    tmp_path: Path, procs: Procs, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tmp_path / "results"
    dead = dead_run(results / "dead", procs)
    # The live run: this process claims it; what it starts carries its mark.
    monkeypatch.delenv(OWNER_ENV, raising=False)  # restored after the test
    live = results / "live"
    claim(live, "driver")
    claim(live, "driver")  # idempotent
    assert os.environ[OWNER_ENV] == f"{os.getpid()}:{proc_start(os.getpid())}"
    assert [p.name for p in (live / ".pids").iterdir()] == [f"{os.getpid()}.json"]
    live_child = procs.sleep()
    (live / "scratch" / "busy").mkdir(parents=True)
    (live / ".run.json.abcdefgh.tmp").write_text("{")
    live_control = control(live, os.getpid())

    # Scoped to the run: without a label, agents of other tests' dead owners would show too.
    found = find_leftovers(results, "dead")
    assert [o.pid for o in found.processes] == [dead["orphan"]]
    assert found.processes[0].command == "sleep 1000"
    assert found.folders == (dead["scratch"], dead["staging"])
    assert found.files == (dead["temp"], dead["control"])
    assert found.owners == (dead["owner"],)
    assert find_leftovers(results, "live").empty
    everything = find_leftovers(results)
    assert (everything.folders, everything.files, everything.owners) == (
        found.folders,
        found.files,
        found.owners,
    )
    assert dead["orphan"] in {o.pid for o in everything.processes}
    assert live_child.pid not in {o.pid for o in everything.processes}

    lines = clean(found)
    assert lines == [
        f"killed {dead['orphan']} (sleep 1000)",
        f"removed {dead['scratch']}",
        f"removed {dead['staging']}",
        f"removed {dead['temp']}",
        f"removed {dead['control']}",
        f"removed {dead['owner']}",
    ]
    assert not Path(f"/proc/{dead['orphan']}").exists()  # killed, and reaped: it was our child
    assert not (results / "dead" / "scratch").exists()  # emptied, so removed
    assert not (results / "dead" / ".pids").exists()
    assert (results / "dead" / "probe" / "oracle-1" / "notes.tmp").exists()
    assert find_leftovers(results, "dead").empty
    # The live run is as it was, and its process still runs.
    assert live_child.poll() is None
    assert (live / "scratch" / "busy").is_dir() and live_control.exists()
    assert (live / ".run.json.abcdefgh.tmp").exists()
    release(live)
    assert not (live / ".pids").exists()


def test_a_run_without_pid_files_keeps_its_scratch_and_fresh_temp_files(tmp_path: Path) -> None:
    """A clean exit leaves no pid file; --keep-scratch folders stay, stale files go."""
    results = tmp_path / "results"
    run_dir = results / "finished"
    kept = run_dir / "scratch" / "probe--oracle-1-t1"
    kept.mkdir(parents=True)
    fresh = run_dir / ".summary.json.abcd1234.tmp"
    fresh.write_text("{")
    old = run_dir / ".report.md.wxyz5678.tmp"
    old.write_text("#")
    os.utime(old, (0, 0))
    gone = control(run_dir, 2**22 + 1)  # above any pid_max: no such process
    assert find_leftovers(results, "finished") == Leftovers(files=(old, gone))
    # A control file of a live pid keeps its run whole.
    control(run_dir, os.getpid())
    assert find_leftovers(results, "finished").empty


def test_a_pid_with_another_start_time_is_never_killed(tmp_path: Path, procs: Procs) -> None:
    """A recorded owner whose pid now belongs to someone else is dead; that someone lives on."""
    results = tmp_path / "results"
    stranger = procs.sleep()
    start = proc_start(stranger.pid)
    assert start is not None
    owner = record_owner(results / "reused", stranger.pid, start - 1)
    found = find_leftovers(results, "reused")
    assert found.processes == () and found.owners == (owner,)
    # Even when handed the pid directly, clean checks the start time first.
    wrong = Leftovers(processes=(Orphan(stranger.pid, start - 1, "sleep 1000"),))
    assert clean(wrong) == [f"skipped {stranger.pid} (sleep 1000): gone, or its pid is reused"]
    assert stranger.poll() is None


def test_an_agent_of_a_dead_owner_is_found_anywhere(tmp_path: Path, procs: Procs) -> None:
    """An agent carries its own mark: a dead owner is enough, recorded or not."""
    results = tmp_path / "results"
    results.mkdir()
    pid, start = procs.dead_owner()
    agent = procs.sleep({OWNER_ENV: f"{pid}:{start}", ATTEMPT_ENV: "0123456789abcdef"})
    plain = procs.sleep({OWNER_ENV: f"{pid}:{start}"})  # not an agent, of no recorded run
    deadline = time.monotonic() + DEADLINE
    while True:  # on a loaded machine /proc may show a new process's environ a moment late
        found = find_leftovers(results)
        pids = {o.pid for o in found.processes}
        if agent.pid in pids or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert agent.pid in pids and plain.pid not in pids
    assert clean(Leftovers(processes=tuple(o for o in found.processes if o.pid == agent.pid))) == [
        f"killed {agent.pid} (sleep 1000)"
    ]


def test_a_missing_results_folder_or_run_is_named(tmp_path: Path) -> None:
    with pytest.raises(RunError, match=r"no results folder at .*nowhere"):
        find_leftovers(tmp_path / "nowhere")
    with pytest.raises(RunError, match=r"no run 'gone' under"):
        find_leftovers(tmp_path, "gone")
    with pytest.raises(RunError, match=r"LABEL '\.\./x' is not a valid label"):
        find_leftovers(tmp_path, "../x")
