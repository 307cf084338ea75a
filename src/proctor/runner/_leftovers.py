"""What a dead run leaves behind, found from the pids it recorded, and its removal.

A run's processes claim it (``claim``): each writes ``results/<label>/.pids/<pid>.json``
(its pid, its start time, its role) and puts ``PROCTOR_OWNER=<pid>:<start>`` in
its environment, so everything it starts afterwards (Chromium, Playwright's
driver, Xvfb, agents) carries that mark. A clean exit removes the pid file
(``release``). After ``kill -9`` the file stays, and ``find_leftovers`` finds the
run's orphans by the mark of its dead owner, and its scratch folders, temp files
and control files. An owner counts as alive only while a process with its pid
*and* its start time exists, so a reused pid neither keeps a dead run's files
nor gets killed: ``clean`` checks each process's start time again, through a
pidfd, before it sends a signal.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import signal
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from proctor._owner import OWNER_ENV
from proctor.agents import ATTEMPT_ENV
from proctor.computer.desktop import DESKTOP_MARK_ENV
from proctor.errors import RunError
from proctor.records import check_label, write_model_atomic
from proctor.vocab import OwnerRole

PIDS = ".pids"
"""The folder of a run's owner records."""
SCRATCH_FOLDERS = ("scratch", ".staging")
"""A run's folders whose entries belong to attempts in progress."""
TERM_WAIT = 3.0
"""Seconds an orphan gets to exit after SIGTERM before SIGKILL."""
KILL_WAIT = 3.0
"""Seconds to wait for orphans to die after SIGKILL."""
TEMP_AGE = 600.0
"""Seconds a temp file of a run without pid files must be unchanged to count as left over."""
COMMAND_MAX = 80
"""Characters of a command line shown."""


# records._atomic's temp files: mkstemp(prefix=f".{name[:64]}.", suffix=".tmp"), 8 random chars.
_TEMP = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")
_CONTROL = re.compile(r"control-([0-9]+)\.json")
_MARKS = (OWNER_ENV.encode(), ATTEMPT_ENV.encode(), DESKTOP_MARK_ENV.encode())


class OwnerRecord(BaseModel):
    """results/<label>/.pids/<pid>.json: a process of the run, so its orphans can be found."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pid: int = Field(description="The owner's process id.")
    start: int = Field(description="Its start time (clock ticks since boot, /proc/<pid>/stat).")
    role: OwnerRole = Field(description="driver (the run) or worker (one worker of it).")
    run_dir: str = Field(description="The run folder it claimed.")

    @property
    def mark(self) -> str:
        """The ``PROCTOR_OWNER`` value its descendants carry."""
        return f"{self.pid}:{self.start}"


@dataclass(frozen=True)
class Orphan:
    """A process left by a dead owner.

    Attributes:
        pid: Its process id.
        start: Its start time, checked again before any signal.
        command: Its command line, cut short.
    """

    pid: int
    start: int
    command: str


@dataclass(frozen=True)
class Leftovers:
    """What ``find_leftovers`` found; ``clean`` removes it.

    Attributes:
        processes: Orphan processes of dead owners.
        folders: Scratch and staging folders of runs with no live owner.
        files: Temp files and stale control files of such runs.
        owners: The dead owners' pid files (removed last).
    """

    processes: tuple[Orphan, ...] = ()
    folders: tuple[Path, ...] = ()
    files: tuple[Path, ...] = ()
    owners: tuple[Path, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.processes or self.folders or self.files or self.owners)


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (field 3, state, first)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()


def proc_start(pid: int) -> int | None:
    """The process's start time (field 22 of /proc/<pid>/stat, clock ticks since boot)."""
    fields = _stat_fields(pid)
    if fields is None or len(fields) < 20:
        return None
    return int(fields[19])


def alive(pid: int, start: int) -> bool:
    """Whether process ``pid`` exists, is not a zombie, and started at ``start``."""
    fields = _stat_fields(pid)
    return (
        fields is not None and len(fields) >= 20 and fields[0] != "Z" and int(fields[19]) == start
    )


def _pid_file(run_dir: Path, pid: int) -> Path:
    return run_dir / PIDS / f"{pid}.json"


def claim(run_dir: Path, role: OwnerRole) -> None:
    """Record this process as an owner of ``run_dir`` and mark what it starts from now on.

    Idempotent: a second claim of the same folder rewrites the same file.

    Raises:
        StorageError: when the pid file cannot be written.
    """
    pid = os.getpid()
    start = proc_start(pid)
    if start is None:
        raise RunError(f"cannot read /proc/{pid}/stat to record this process in {run_dir}")
    record = OwnerRecord(pid=pid, start=start, role=role, run_dir=str(run_dir))
    write_model_atomic(_pid_file(run_dir, pid), record)
    os.environ[OWNER_ENV] = record.mark


def release(run_dir: Path) -> None:
    """Remove this process's pid file of ``run_dir`` (a clean exit); the folder if empty."""
    _pid_file(run_dir, os.getpid()).unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        (run_dir / PIDS).rmdir()


def _owners(run_dir: Path) -> list[tuple[Path, OwnerRecord | None]]:
    """Each pid file of the run with its record (None when it cannot be read)."""
    folder = run_dir / PIDS
    if not folder.is_dir():
        return []
    found: list[tuple[Path, OwnerRecord | None]] = []
    for path in sorted(folder.glob("*.json")):
        try:
            found.append((path, OwnerRecord.model_validate_json(path.read_bytes())))
        except (OSError, ValidationError):
            found.append((path, None))
    return found


def _ancestors() -> set[int]:
    """This process and every ancestor of it."""
    chain: set[int] = set()
    pid = os.getpid()
    while pid > 0 and pid not in chain:
        chain.add(pid)
        fields = _stat_fields(pid)
        pid = int(fields[1]) if fields is not None else 0
    return chain


def _environ(pid: int) -> dict[bytes, bytes]:
    """The proctor marks in a process's environment (as it was at exec); empty if unreadable."""
    try:
        data = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    marks: dict[bytes, bytes] = {}
    for entry in data.split(b"\0"):
        name, _, value = entry.partition(b"=")
        if name in _MARKS:
            marks[name] = value
    return marks


def _command(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    text = " ".join(part.decode("utf-8", "replace") for part in raw.split(b"\0") if part)
    return text if len(text) <= COMMAND_MAX else text[: COMMAND_MAX - 3] + "..."


def _parse_mark(value: bytes) -> tuple[int, int] | None:
    pid, _, start = value.decode("ascii", "replace").partition(":")
    return (int(pid), int(start)) if pid.isdigit() and start.isdigit() else None


@dataclass(frozen=True)
class _Marked:
    pid: int
    owner: str
    own: bool
    """Whether it carries a mark only proctor sets besides the owner's (an agent's, or a
    desktop session's): proctor's for sure, wherever its run folder is."""


def _marked_processes() -> list[_Marked]:
    """Every process (one pass over /proc) that carries a ``PROCTOR_OWNER`` mark."""
    found: list[_Marked] = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        marks = _environ(int(name))
        owner = marks.get(OWNER_ENV.encode())
        if owner is not None:
            own = ATTEMPT_ENV.encode() in marks or DESKTOP_MARK_ENV.encode() in marks
            found.append(_Marked(int(name), owner.decode("ascii", "replace"), own))
    return found


def _runs(results: Path, label: str | None) -> list[Path]:
    if not results.is_dir():
        raise RunError(f"no results folder at {results}: pass --results the folder runs write to")
    if label is None:
        return sorted(p for p in results.iterdir() if p.is_dir() and not p.name.startswith("."))
    run_dir = results / check_label(label, option="LABEL")
    if not run_dir.is_dir():
        raise RunError(f"no run {label!r} under {results}/: `proctor runs` lists the labels")
    return [run_dir]


def _temp_files(run_dir: Path, older_than: float | None = None) -> Iterator[Path]:
    """records' temp files anywhere in the run folder, outside the scratch folders.

    Args:
        older_than: Only those last changed at least this many seconds ago.
    """
    now = time.time()
    for folder, dirs, names in os.walk(run_dir):
        if Path(folder) == run_dir:
            dirs[:] = [d for d in dirs if d not in SCRATCH_FOLDERS]
        for name in names:
            if not _TEMP.fullmatch(name):
                continue
            path = Path(folder) / name
            if older_than is not None:
                with contextlib.suppress(OSError):
                    if now - path.stat().st_mtime < older_than:
                        continue
            yield path


def _controls(run_dir: Path) -> list[tuple[Path, int]]:
    """Each control-<pid>.json of the run with its pid."""
    found = []
    for path in sorted(run_dir.glob("control-*.json")):
        match = _CONTROL.fullmatch(path.name)
        if match is not None:
            found.append((path, int(match.group(1))))
    return found


def find_leftovers(results: Path, label: str | None = None) -> Leftovers:
    """What the dead runs under ``results`` (or only ``results/<label>``) left behind.

    A run with a live owner, or a control file of a live pid, is left alone
    entirely. A run with dead owners' pid files is dead: its orphans, scratch
    and staging folders, temp files, stale control files and those pid files
    are listed. A run with no pid files at all ended cleanly (or predates them):
    only its stale control files and temp files older than ``TEMP_AGE`` are. Without a
    label, agents (``PROCTOR_AGENT_MARK``) and desktop processes (``PROCTOR_DESKTOP_MARK``) of
    any dead owner are listed too.
    Never lists this process or an ancestor of it.

    Raises:
        RunError: when ``results`` is not a folder, or the label is invalid or not there.
    """
    runs = _runs(results, label)
    mine = _ancestors()
    marked = _marked_processes()
    processes: dict[int, Orphan] = {}
    folders: list[Path] = []
    files: list[Path] = []
    owner_files: list[Path] = []

    def orphan(pid: int) -> None:
        start = proc_start(pid)
        if pid not in mine and start is not None and pid not in processes:
            processes[pid] = Orphan(pid, start, _command(pid))

    for run_dir in runs:
        owners = _owners(run_dir)
        records = [record for _, record in owners if record is not None]
        controls = _controls(run_dir)
        if any(alive(r.pid, r.start) for r in records):
            continue
        dead = {r.pid for r in records}
        # A control file has no start time: a live pid there (perhaps reused) keeps the run.
        if any(pid not in dead and _stat_fields(pid) is not None for _, pid in controls):
            continue
        stale = [path for path, pid in controls if pid in dead or _stat_fields(pid) is None]
        if not owners:
            # A clean exit (or a run of a proctor before pid files): its scratch may be kept
            # on purpose (--keep-scratch); only old temp files are surely nobody's.
            files.extend([*sorted(_temp_files(run_dir, TEMP_AGE)), *stale])
            continue
        dead_marks = {r.mark for r in records}
        for entry in marked:
            if entry.owner in dead_marks:
                orphan(entry.pid)
        for name in SCRATCH_FOLDERS:
            folder = run_dir / name
            if folder.is_dir():
                folders.extend(sorted(folder.iterdir()))
        files.extend([*sorted(_temp_files(run_dir)), *stale])
        owner_files.extend(path for path, _ in owners)
    if label is None:
        # Agents and desktop sessions are proctor's for sure (their own mark): a dead owner
        # anywhere is enough.
        for entry in marked:
            parsed = _parse_mark(entry.owner.encode())
            if entry.own and parsed is not None and not alive(*parsed):
                orphan(entry.pid)
    return Leftovers(
        processes=tuple(sorted(processes.values(), key=lambda o: o.pid)),
        folders=tuple(folders),
        files=tuple(files),
        owners=tuple(owner_files),
    )


def _open(orphan: Orphan) -> int | None:
    """A pidfd of the orphan, when the process with that pid is still the one found."""
    try:
        fd = os.pidfd_open(orphan.pid)
    except OSError:
        return None
    # Checked after the pidfd exists: a match proves the pidfd is of the same process.
    if proc_start(orphan.pid) != orphan.start:
        os.close(fd)
        return None
    return fd


def _send(fds: dict[int, int], sig: signal.Signals) -> None:
    for fd in fds.values():
        with contextlib.suppress(ProcessLookupError, PermissionError):
            signal.pidfd_send_signal(fd, sig)


def _wait(fds: dict[int, int], timeout: float) -> set[int]:
    """Wait (bounded) until every pidfd says its process exited; the pids still running."""
    running = dict(fds)
    poller = select.poll()
    for fd in running.values():
        poller.register(fd, select.POLLIN)
    by_fd = {fd: pid for pid, fd in running.items()}
    end = time.monotonic() + timeout
    while running:
        remaining = end - time.monotonic()
        if remaining <= 0:
            break
        for fd, _event in poller.poll(remaining * 1000):
            poller.unregister(fd)
            running.pop(by_fd[fd], None)
    return set(running)


def _kill(orphans: Iterable[Orphan]) -> list[str]:
    lines: list[str] = []
    fds: dict[int, int] = {}
    shown = {o.pid: o for o in orphans}
    for orphan in shown.values():
        fd = _open(orphan)
        if fd is None:
            lines.append(f"skipped {orphan.pid} ({orphan.command}): gone, or its pid is reused")
        else:
            fds[orphan.pid] = fd
    try:
        _send(fds, signal.SIGTERM)
        running = _wait(fds, TERM_WAIT)
        if running:
            _send({pid: fds[pid] for pid in running}, signal.SIGKILL)
            running = _wait({pid: fds[pid] for pid in running}, KILL_WAIT)
    finally:
        for fd in fds.values():
            os.close(fd)
    for pid in sorted(fds):
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)  # ours when this process is a subreaper
        if pid in running:
            lines.append(f"could not kill {pid} ({shown[pid].command}): it still runs")
        else:
            lines.append(f"killed {pid} ({shown[pid].command})")
    return lines


def _remove(path: Path) -> str:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    except OSError as exc:
        return f"could not remove {path}: {(exc.strerror or str(exc)).lower()}"
    return f"removed {path}"


def clean(leftovers: Leftovers) -> list[str]:
    """Kill the orphans (each after its start time is checked again), remove the paths.

    The dead owners' pid files go last, and only when every orphan died, so a
    later ``proctor cleanup`` can still find what survived.

    Returns:
        One line per thing: ``killed 1234 (chromium ...)``, ``removed results/x/scratch/a``.
    """
    lines = _kill(leftovers.processes)
    lines += [_remove(path) for path in (*leftovers.folders, *leftovers.files)]
    if not any(line.startswith("could not kill") for line in lines):
        lines += [_remove(path) for path in leftovers.owners]
    for parent in {p.parent for p in (*leftovers.folders, *leftovers.owners)}:
        with contextlib.suppress(OSError):
            parent.rmdir()  # only when empty
    return lines
