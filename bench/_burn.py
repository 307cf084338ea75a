"""The CPU load generator of the load bench: N busy processes, each ended by its pid.

Each burner spins in pure Python until its deadline passes or its parent is gone
(it polls ``os.getppid()``), so even a ``kill -9`` of the bench leaves none behind
for longer than one poll; ``Burn.__exit__`` ends the ones it started, by pid, and
reaps them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from types import TracebackType

MARK = "proctor-bench-burn"
"""The burners' first argument: how a test finds them in /proc."""
REAP_SECONDS = 10.0
"""How long ``close`` waits for a killed burner to be reaped."""
SPIN = """
import os, sys, time
parent, end = int(sys.argv[2]), float(sys.argv[3])
while time.time() < end and os.getppid() == parent:
    for _ in range(200_000):
        pass
"""
"""The burner: the busy loop checks its parent and its deadline every few milliseconds."""


def cores() -> int:
    """The CPUs this process may run on."""
    return len(os.sched_getaffinity(0))


class Burn:
    """``with Burn(n, seconds):`` keeps ``n`` busy processes running for at most ``seconds``.

    ``n == 0`` starts nothing (the bench's unloaded baseline).
    """

    def __init__(self, n: int, seconds: float) -> None:
        if n < 0 or seconds <= 0:
            raise ValueError(f"Burn({n}, {seconds}): n must be >= 0 and seconds > 0")
        self.n = n
        self.seconds = seconds
        self.procs: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> Burn:
        end = time.time() + self.seconds
        try:
            for _ in range(self.n):
                self.procs.append(
                    subprocess.Popen(
                        [sys.executable, "-c", SPIN, MARK, str(os.getpid()), repr(end)],
                        stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )
        except BaseException:
            self.close()
            raise
        return self

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def close(self) -> None:
        """Kill every burner this object started, by its pid, and reap it."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            try:
                proc.wait(timeout=REAP_SECONDS)
            except subprocess.TimeoutExpired:
                continue  # unkillable (the kernel owes us a SIGKILL): nothing more to do
        self.procs = []

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
