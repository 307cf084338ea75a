"""The kernel's account of how long a page's renderer went unscheduled.

Linux counts, for each thread, the time it was runnable but waiting for a CPU (the
second field of ``/proc/<pid>/task/<tid>/schedstat``); a process stopped from
outside (SIGSTOP, state ``T``) is not runnable and is counted here by sampling its
state. Either way the renderer could not run the page, whatever the page does. A
page that merely waits (no element to find) asks for little CPU, so its renderer's
count stays small on a busy machine; one whose script had work to do and no CPU
to do it on counts most of the wait.

``/proc/pressure/cpu`` (PSI) says how long *any* task of the machine waited; on a
busy machine that is nearly all the time, whether or not our processes wanted a
CPU, so it is kept as evidence (``cpu_some_s``) and never decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

PROC = Path("/proc")
PRESSURE = PROC / "pressure" / "cpu"
RESCAN_EVERY = 4
"""Ticks between scans for Chromium's processes (a scan reads every ``/proc/<pid>/stat``)."""


@dataclass(frozen=True)
class Pipeline:
    """The processes an action's wait depends on that no ping can time: the page's renderers.

    The browser process, the driver and this one are timed by the watch's pings and its
    own timer; a renderer can be starved of the CPU while it still answers each ping
    within a fraction of a second, never making the element the action waits for.
    """

    chromium: int | None

    def threads(self) -> list[tuple[int, int]]:
        """(pid, tid) of each renderer's main thread, found afresh (a /proc scan)."""
        if self.chromium is None:
            return []
        return [(p, p) for p in renderers(self.chromium)]


def descendants(root: int) -> list[int]:
    """Every live process below ``root`` (Chromium's zygotes, renderers, GPU, utility)."""
    children: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended while we looked
        parent = int(stat[stat.rfind(")") + 2 :].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def renderers(chromium: int) -> list[int]:
    """Chromium's renderer processes (``--type=renderer``), found through its process tree."""
    found = []
    for pid in descendants(chromium):
        try:
            # Chromium rewrites a child's title: its arguments may be one string
            if b"--type=renderer" in (PROC / str(pid) / "cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue  # it ended while we looked
    return found


@dataclass(frozen=True)
class ThreadSample:
    """One thread at one moment: its run-queue wait so far, and whether it is stopped."""

    waited_s: float
    stopped: bool


def sample(pid: int, tid: int) -> ThreadSample | None:
    """The kernel's counters for one thread; None when it is gone or cannot be read."""
    task = PROC / str(pid) / "task" / str(tid)
    try:
        delay_ns = int((task / "schedstat").read_text().split()[1])
        stat = (task / "stat").read_text()
    except (OSError, ValueError, IndexError):
        return None
    state = stat[stat.rfind(")") + 2 :][:1]
    return ThreadSample(delay_ns / 1e9, state in ("T", "t"))


def cpu_some_s() -> float | None:
    """Seconds any task of this machine waited for a CPU since boot (PSI), if the kernel says."""
    try:
        for line in PRESSURE.read_text().splitlines():
            if line.startswith("some "):
                total = line.rsplit("total=", 1)[1]
                return int(total) / 1e6
    except (OSError, ValueError, IndexError):
        return None
    return None


@dataclass
class Starvation:
    """How long each thread of a pipeline went unscheduled over one wait (``tick`` it)."""

    pipeline: Pipeline
    threads: list[tuple[int, int]] = field(default_factory=list)
    ticks: int = 0
    last: dict[tuple[int, int], ThreadSample] = field(default_factory=dict)
    starved: dict[tuple[int, int], float] = field(default_factory=dict)
    last_at: float | None = None
    some_at_start: float | None = None
    some_s: float | None = None

    def tick(self, now: float) -> None:
        """Sample every thread; add its run-queue wait, or the time it sat stopped."""
        some = cpu_some_s()
        if self.last_at is None:
            self.some_at_start = some
        elif some is not None and self.some_at_start is not None:
            self.some_s = some - self.some_at_start
        if self.ticks % RESCAN_EVERY == 0:
            self.threads = self.pipeline.threads()  # a navigation may start a renderer
        self.ticks += 1
        for key in self.threads:
            now_sample = sample(*key)
            if now_sample is None:
                continue
            before = self.last.get(key)
            if before is not None and self.last_at is not None:
                gained = now_sample.waited_s - before.waited_s
                if now_sample.stopped or before.stopped:
                    gained += now - self.last_at
                self.starved[key] = self.starved.get(key, 0.0) + max(0.0, gained)
            self.last[key] = now_sample
        self.last_at = now

    def worst(self) -> float:
        """The longest any one process of the pipeline went unscheduled, in seconds."""
        return max(self.starved.values(), default=0.0)
