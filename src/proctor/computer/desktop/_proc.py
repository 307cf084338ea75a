"""Processes of the desktop: spawn them marked, end them by group and mark, reap them all.

PID 1 here does not reap orphans, and the AT-SPI bus launcher starts its own
``dbus-daemon`` and ``at-spi2-registryd``: when the launcher dies first, they
are orphaned. So this process becomes a child subreaper (Linux) before it spawns
anything, and every spawned process carries a mark in its environment
(``PROCTOR_DESKTOP_MARK``), which its children inherit. Ending a tree is: note
every live marked process, SIGTERM the group(s) and the marked, wait with a
deadline, SIGKILL what is left, then ``waitpid`` every noted process that is now
our child (only those: another part of the harness may own other children).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import secrets
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

MARK_ENV = "PROCTOR_DESKTOP_MARK"
"""The environment variable that marks every process of one session, its apps included."""
APP_MARK_ENV = "PROCTOR_DESKTOP_APP"
"""The environment variable that marks every process of one app launch."""

TERM_GRACE = 2.0
"""Seconds a tree gets to exit after SIGTERM before SIGKILL."""
KILL_WAIT = 3.0
"""Seconds to wait for a tree to die after SIGKILL."""
REAP_WAIT = 5.0
"""Seconds a zombie of the app's tree gets to be re-parented here (its parent ending)."""

_PR_SET_CHILD_SUBREAPER = 36


@functools.cache
def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux); True on success."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def new_mark(kind: str) -> str:
    """A fresh mark value, e.g. ``session-3f2a...``."""
    return f"{kind}-{os.getpid()}-{secrets.token_hex(6)}"


def spawn(
    argv: Sequence[str],
    env: Mapping[str, str],
    *,
    group: int = 0,
    pass_fds: Sequence[int] = (),
    stderr: Path | None = None,
    cwd: Path | None = None,
) -> subprocess.Popen[bytes]:
    """Start ``argv`` in process group ``group`` (0: a new group led by it), stdin closed.

    Raises:
        OSError: the program could not be executed.
    """
    err = stderr.open("ab") if stderr is not None else subprocess.DEVNULL
    try:
        return subprocess.Popen(
            list(argv),
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            pass_fds=tuple(pass_fds),
            process_group=group,
            cwd=cwd,
        )
    finally:
        if stderr is not None and not isinstance(err, int):
            err.close()


def marked(mark: str, var: str = MARK_ENV) -> list[int]:
    """The live (not zombie) processes whose environment carries ``var=mark``."""
    needle = f"{var}={mark}".encode()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            environ = Path(entry.path, "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def _exited(pid: int) -> bool:
    """True when ``pid`` is gone or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def wait_exit(pid: int, deadline: float) -> bool:
    """Wait until ``pid`` exits (pidfd, no sleep loop) or ``deadline`` passes; True if it did."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        while not _exited(pid):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                return True
        return True
    finally:
        os.close(fd)


def reap(pids: Iterable[int]) -> None:
    """``waitpid`` each of ``pids`` that is a zombie child of this process.

    One whose parent is itself still ending is re-parented here only once that parent
    has gone, which a loaded machine can take a moment to get to: each such zombie is
    waited for (bounded by ``REAP_WAIT``), so that none is left to this process later.
    """
    me = os.getpid()
    todo = set(pids)
    deadline = time.monotonic() + REAP_WAIT
    while todo:
        for pid in sorted(todo):
            parent = _parent(pid)
            if parent is None or not _exited(pid):
                todo.discard(pid)  # gone, or alive (not ours to wait for here)
            elif parent == me:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
                todo.discard(pid)
        if not todo or time.monotonic() > deadline:
            return
        time.sleep(0.02)


def _signal(pids: Iterable[int], groups: Iterable[int], sig: signal.Signals) -> None:
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def end_tree(
    procs: Sequence[subprocess.Popen[bytes]],
    *,
    mark: str,
    var: str = MARK_ENV,
    groups: Sequence[int] = (),
    known: Iterable[int] = (),
    grace: float = TERM_GRACE,
    sig: signal.Signals = signal.SIGTERM,
) -> list[int]:
    """End ``procs``, their ``groups`` and every process marked ``mark``; reap them.

    ``known`` are pids noted earlier (a marked process that already died and was
    re-parented here is a zombie whose environment can no longer be read).

    Returns:
        The pids still alive after SIGKILL and ``KILL_WAIT`` (normally empty).
    """
    # Only live processes that carry the mark (or are ours) are signalled: a pid noted
    # earlier may since have been reaped and reused by a stranger.
    noted = {p.pid for p in procs if p.poll() is None} | set(marked(mark, var))
    _signal(noted, groups, sig)
    deadline = time.monotonic() + grace
    for pid in sorted(noted):
        wait_exit(pid, deadline)
    noted |= set(marked(mark, var))
    alive = [pid for pid in noted if not _exited(pid)]
    if alive:
        _signal(alive, groups, signal.SIGKILL)
        deadline = time.monotonic() + KILL_WAIT
        for pid in alive:
            wait_exit(pid, deadline)
    for proc in procs:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    reap(noted | set(known))
    return [pid for pid in noted if not _exited(pid)]


def read_line(fd: int, deadline: float, proc: subprocess.Popen[bytes]) -> str | None:
    """The first line written to pipe ``fd``; None if ``proc`` exits or ``deadline`` passes."""
    data = b""
    while b"\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], min(left, 0.25))
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                return None
            data += chunk
        elif proc.poll() is not None:
            return None
    return data.split(b"\n", 1)[0].decode(errors="replace").strip()


def tail(path: Path, lines: int = 8) -> str:
    """The last ``lines`` lines of a log file, for an error message."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return "(no stderr)"
    kept = [ln for ln in text.splitlines() if ln.strip()][-lines:]
    return "\n".join(kept) or "(empty stderr)"
