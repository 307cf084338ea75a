"""The desktop session's watchdog: it ends the session when the process that holds it dies.

A session's processes are not this process's to outlive: after ``kill -9`` of
``proctor run``, of a pool worker or of a test worker, nothing else ends them
(the bus launcher's own ``dbus-daemon`` and ``at-spi2-registryd`` are not even
our children). ``PR_SET_PDEATHSIG`` can't stand in: it reaches only direct
children, fires when the *thread* that forked exits (a session may be started
from a pool thread), and is cleared when a jailed app changes its uid.

So each session starts, before anything else, a small process of its own (its
own session and group, so signals to ours miss it) that waits on a pidfd of this
process and on a pipe. When this process exits, however it dies, or the session
stops (a byte on the pipe), the watchdog ends every process that carries the
session's mark (``_proc.MARK_ENV``): SIGTERM, a bounded wait, SIGKILL, until a
look at ``/proc`` finds none; then it removes the session's folder and exits.
It carries the run's owner mark, so ``proctor cleanup`` sees it too.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

SWEEP_S = 8.0
"""Seconds the watchdog spends ending the session's processes at most."""
TERM_S = 1.0
"""Seconds the session's processes get after SIGTERM before SIGKILL."""
EXIT_WAIT_S = 5.0
"""Seconds ``stop`` waits for the watchdog to exit before it kills it."""

# Self-contained (run with ``python -I``): it imports nothing of proctor.
SCRIPT = r"""
import os, select, shutil, signal, sys, time
parent, var, mark, root = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
sweep_s, term_s = float(sys.argv[5]), float(sys.argv[6])
needle = f"{var}={mark}".encode()
me = os.getpid()

def marked():
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                environ = f.read().split(b"\0")
            with open(f"/proc/{name}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if needle in environ and state not in (b"Z", b"X"):
            found.append(int(name))
    return found

try:
    fd = os.pidfd_open(parent)
except OSError:
    fd = None
if fd is not None and os.getppid() == parent:
    select.select([fd, 0], [], [])
end = time.monotonic() + sweep_s
sig = signal.SIGTERM
term_end = time.monotonic() + term_s
while time.monotonic() < end:
    pids = marked()
    if not pids:
        break
    if time.monotonic() >= term_end:
        sig = signal.SIGKILL
    for pid in pids:
        try:
            os.kill(pid, sig)
        except OSError:
            pass
    time.sleep(0.05)
shutil.rmtree(root, ignore_errors=True)
"""


class Watchdog:
    """The running watchdog of one session; ``stop`` it once the session is ended."""

    def __init__(self, proc: subprocess.Popen[bytes], pipe: int) -> None:
        self.proc = proc
        self._pipe = pipe

    @classmethod
    def start(cls, *, var: str, mark: str, root: Path, env: Mapping[str, str]) -> Watchdog:
        """Watch this process; when it dies, end every process with ``var=mark``, remove ``root``.

        Raises:
            OSError: the watchdog could not be started.
        """
        read_fd, write_fd = os.pipe()
        try:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-I",
                    "-c",
                    SCRIPT,
                    str(os.getpid()),
                    var,
                    mark,
                    str(root),
                    str(SWEEP_S),
                    str(TERM_S),
                ],
                env=dict(env),
                stdin=read_fd,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError:
            os.close(write_fd)
            raise
        finally:
            os.close(read_fd)
        return cls(proc, write_fd)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        """Tell the watchdog the session stopped (it sweeps what is left), wait, reap."""
        if self._pipe >= 0:
            with contextlib.suppress(OSError):
                os.write(self._pipe, b"q")
            os.close(self._pipe)
            self._pipe = -1
        try:
            self.proc.wait(timeout=EXIT_WAIT_S + SWEEP_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=EXIT_WAIT_S)
