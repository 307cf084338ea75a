"""Scale-out figures (issue 12): local-tier throughput and memory as workers are added.

Every executor runs the same plan through the public run API (``proctor.run``),
one after the other in one process, so the figures are ratios between runs on
the same (shared, noisy) machine, minutes apart:

- pool with 2 workers against pool with 1: throughput, attempts / wall second
  of the whole ``proctor.run`` call (worker start-up and reports included), and
  the steady state: attempts / span from the first attempt's start to the last
  one's end, which leaves out start-up, shut-down and reports;
- Ray local with 2 workers against the pool with 2 (skipped without Ray);
- memory: the peak PSS of the whole process tree (this driver and every
  descendant: pool workers, their Playwright drivers, Chromium and its
  renderers), sampled every ``SAMPLE_SECONDS * PSS_EVERY`` in a thread during each run
  (with the tree's CPU time, from /proc/<pid>/stat); peak with 2 pool workers
  - peak with 1 is the memory of one extra concurrent attempt.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import proctor
from bench._measure import BenchError
from proctor.errors import ProctorError
from proctor.runner import RunOptions
from proctor.scenario import LoadedScenario
from proctor.vocab import ExecutorKind

SCENARIOS = (
    "sign-in-method",
    "select-label-value",
    "harness-canary",
    "session-profile",
    "injection",
    "gate-false-positives",
    "disabled-until-valid",
    "manual-frame-audit",
    "forms-upload-download",
    "boundary-payment",
    "bank-statements-download",
    "delayed-modal",
)
"""Every other one of the 24 fastest local-tier scenarios (0.8-2.1 s each inline, about
1.5 s on average against 2.2 s for the whole tier): the same plan for every executor."""
REPEATS = 2
ARM = "oracle=scripted"
SAMPLE_SECONDS = 0.2
"""How often the sampler reads the tree and its CPU ticks (/proc/*/stat: about 2 ms)."""
PSS_EVERY = 5
"""Read the tree's PSS every this many samples (once a second): smaps_rollup costs about
3 ms of CPU per Chromium process, which a 2-CPU machine would otherwise feel."""
THROUGHPUT_TARGET = 1.6
"""2 pool workers should give at least this multiple of 1 worker's throughput."""
RAY_TARGET = 0.9
"""Ray local with 2 workers should be within 10% of the pool with 2."""
MEMORY_TARGET_MIB = 100.0
"""PSS one extra concurrent attempt may add."""
KIB_PER_MIB = 1024


# --- the process tree's PSS ---------------------------------------------------------------


def pss_kib(pid: int) -> int | None:
    """The ``Pss:`` of one process in KiB, from /proc/<pid>/smaps_rollup; None if it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return 0  # a kernel thread, or a process exiting: no mappings left


@dataclass(frozen=True)
class Stat:
    """What the sampler reads of /proc/<pid>/stat."""

    ppid: int
    ticks: int
    """utime + stime, in clock ticks."""
    start: int
    """Start time after boot, in clock ticks: tells a reused pid from the first one."""


def parse_stat(text: str) -> Stat:
    """Parse one /proc/<pid>/stat line: "pid (comm) state ppid ...", comm may hold ") "."""
    fields = text.rsplit(")", 1)[1].split()
    # fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15, starttime 22.
    return Stat(ppid=int(fields[1]), ticks=int(fields[11]) + int(fields[12]), start=int(fields[19]))


def stats() -> dict[int, Stat]:
    """Every process now in /proc (those that vanish while read are left out)."""
    out: dict[int, Stat] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as stat:
                out[int(entry.name)] = parse_stat(stat.read())
        except (FileNotFoundError, ProcessLookupError, PermissionError, IndexError, ValueError):
            continue
    return out


def tree(root: int, table: Mapping[int, Stat] | None = None) -> list[int]:
    """``root`` and all its descendants, by the ppid links in /proc/*/stat."""
    children: dict[int, list[int]] = {}
    for pid, stat in (stats() if table is None else table).items():
        children.setdefault(stat.ppid, []).append(pid)
    out: list[int] = []
    todo = [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def kind_of_argv(argv: Sequence[bytes]) -> str:
    """What a process is by its /proc/<pid>/cmdline fields: worker, node, chromium-<type>."""
    args = [a for a in argv if a]
    if len(args) == 1:  # Chromium's children rewrite their command line into one field
        args = args[0].split(b" ")
    exe = os.path.basename(args[0].decode(errors="replace")) if args else ""
    if exe.startswith("ray::"):
        return "ray worker (python)"  # Ray's workers and actors rename themselves ray::<name>
    if exe.startswith("python"):
        if any(b"/ray/" in a for a in args[1:]):
            return "ray daemon (python)"
        return "worker (python)"
    if exe == "node":
        return "playwright driver (node)"
    if "chrom" in exe or "headless_shell" in exe:
        kinds = [a.decode(errors="replace") for a in args if a.startswith(b"--type=")]
        return f"chromium {kinds[0].removeprefix('--type=')}" if kinds else "chromium browser"
    return exe or "other"


def kind_of(pid: int, root: int) -> str:
    """What a process in ``root``'s tree is: ``driver`` for the root, else ``kind_of_argv``."""
    if pid == root:
        return "driver"
    try:
        return kind_of_argv(Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"))
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return "gone"


def tree_pss(root: int, pids: Sequence[int] | None = None) -> dict[str, int]:
    """KiB of PSS of ``root``'s process tree (or of ``pids`` in it), per ``kind_of``."""
    out: dict[str, int] = {}
    for pid in tree(root) if pids is None else pids:
        kib = pss_kib(pid)
        if kib is None:
            continue  # gone since the tree was read
        kind = kind_of(pid, root)
        out[kind] = out.get(kind, 0) + kib
    return out


@dataclass
class PssPeak:
    """The highest whole-tree PSS seen, with its per-kind split."""

    kib: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    processes: int = 0
    samples: int = 0

    def add(self, kinds: Mapping[str, int], processes: int) -> None:
        self.samples += 1
        total = sum(kinds.values())
        if total > self.kib:
            self.kib, self.kinds, self.processes = total, dict(kinds), processes


class PssSampler:
    """Samples ``root``'s tree PSS every ``interval`` seconds in a thread, keeping the peak."""

    def __init__(
        self,
        root: int | None = None,
        interval: float = SAMPLE_SECONDS,
        pss_every: int = PSS_EVERY,
    ) -> None:
        self.root = os.getpid() if root is None else root
        self.interval = interval
        self.pss_every = pss_every
        self._count = 0
        self.peak = PssPeak()
        self._first: dict[tuple[int, int], int] | None = None
        self._last: dict[tuple[int, int], int] = {}
        self.own_cpu = 0.0
        """CPU seconds the sampling thread itself used (counted in the driver's)."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="pss-sampler", daemon=True)

    def sample(self) -> None:
        table = stats()
        pids = tree(self.root, table)
        ticks = {(pid, table[pid].start): table[pid].ticks for pid in pids if pid in table}
        if self._first is None:
            self._first = ticks
        self._last.update(ticks)
        if self._count % self.pss_every == 0:
            self.peak.add(tree_pss(self.root, pids), len(pids))
        self._count += 1

    @property
    def cpu_seconds(self) -> float:
        """CPU the tree used while sampled: each process's last reading - its first.

        A process first seen after the first sample counts from its start. What
        a process used after its last sample (under one interval) is missed.
        """
        first = self._first or {}
        ticks = sum(t - first.get(key, 0) for key, t in self._last.items())
        return ticks / os.sysconf("SC_CLK_TCK")

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self.own_cpu = time.thread_time()
            self._stop.wait(self.interval)

    def __enter__(self) -> PssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10 * self.interval + 5)
        self.sample()  # the last CPU reading (the run has closed its workers by now)


# --- CPU busy share -------------------------------------------------------------------------


def cpu_times() -> tuple[int, int]:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat."""
    with open("/proc/stat", encoding="ascii") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    total = sum(fields[:8])  # guest time is already counted in user/nice
    return total - idle, total


def busy_share(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The share of all CPUs' time that was busy between two ``cpu_times`` readings."""
    total = after[1] - before[1]
    return (after[0] - before[0]) / total if total > 0 else 0.0


# --- throughput -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Leg:
    """One executor's run of the plan."""

    name: str
    attempts: int
    wall: float
    """Seconds of the whole ``proctor.run`` call: worker start-up, attempts, reports."""
    span: float
    """Seconds from the first attempt's start to the last attempt's end."""
    busy: float
    """Share of the machine's CPU time that was busy during the call (anyone's work)."""
    cpu: float = 0.0
    """CPU seconds the run's own process tree used, as sampled (``PssSampler.cpu_seconds``)."""
    load: float = 0.0
    """The machine's 1-minute load average as the call started."""
    peak: PssPeak | None = None
    sampler_cpu: float = 0.0
    """CPU seconds of the sampling thread, part of ``cpu``."""

    @property
    def throughput(self) -> float:
        """Attempts per wall second of the whole call."""
        return self.attempts / self.wall

    @property
    def steady(self) -> float:
        """Attempts per second of the span the attempts ran in (no start-up, no reports)."""
        return self.attempts / self.span

    @property
    def cores(self) -> float:
        """CPUs the run's own tree kept busy on average over the call."""
        return self.cpu / self.wall

    @property
    def startup_share(self) -> float:
        """The share of the call's wall time outside the attempts' span."""
        return 1.0 - self.span / self.wall


def span_of(starts_and_seconds: Sequence[tuple[float, float]]) -> float:
    """First start to last end, over (started_at, seconds) pairs."""
    if not starts_and_seconds:
        raise ValueError("no attempt to take a span of")
    first = min(start for start, _ in starts_and_seconds)
    last = max(start + seconds for start, seconds in starts_and_seconds)
    return last - first


# --- the runs -------------------------------------------------------------------------------


def plan() -> list[LoadedScenario]:
    """The scenarios of the scale plan, loaded from the shipped suite."""
    picked = proctor.select_scenarios(tiers=["local"], only=list(SCENARIOS))
    found = {s.scenario.id for s in picked}
    missing = [s for s in SCENARIOS if s not in found]
    if missing:
        raise BenchError(f"scale bench: no local scenario {', '.join(missing)} in the suite")
    return list(picked)


async def run_leg(
    name: str,
    executor: ExecutorKind,
    workers: int,
    results: Path,
    scenarios: Sequence[LoadedScenario],
) -> Leg:
    """Run the plan on one executor, sampling its tree's PSS; every attempt must pass cleanly."""
    load = os.getloadavg()[0]
    cpu0 = cpu_times()
    t0 = time.perf_counter()
    with PssSampler() as sampler:
        settings = proctor.RunSettings(
            repeat=REPEATS,
            options=RunOptions(retry_delays=(0.0,)),
            results=results,
            label=name,
            executor=executor,
            workers=workers,
        )
        out = await proctor.run(scenarios, [ARM], settings)
    wall = time.perf_counter() - t0
    busy = busy_share(cpu0, cpu_times())
    records = out.records
    expected = len(scenarios) * REPEATS
    bad = [r for r in records if r.result != "passed" or r.infra_faults]
    if bad or len(records) != expected:
        detail = "; ".join(
            f"{r.id} {r.result} (failed {r.failed_checks}, faults {len(r.infra_faults)}, "
            f"error {r.error})"
            for r in bad[:5]
        )
        raise BenchError(
            f"scale bench {name}: {len(records)} of {expected} attempts, {len(bad)} not clean "
            f"passes: {detail}; the bench measures clean attempts only"
        )
    span = span_of([(r.started_at, r.seconds) for r in records])
    return Leg(
        name,
        len(records),
        wall,
        span,
        busy,
        sampler.cpu_seconds,
        load,
        sampler.peak,
        sampler.own_cpu,
    )


def ray_missing() -> str | None:
    """Why the Ray leg cannot run here, or None."""
    if importlib.util.find_spec("ray") is None:
        return "ray is not installed (pip install 'proctor[ray]')"
    return None


@dataclass
class ScaleResult:
    legs: dict[str, Leg]
    scenarios: int
    ray_skipped: str | None = None
    ray_error: str | None = None


async def measure_scale(log: Callable[[str], None] | None = None) -> ScaleResult:
    """pool x1, pool x2, then Ray local x2, each on the same plan, in this order."""
    scenarios = plan()
    legs: dict[str, Leg] = {}
    result = ScaleResult(legs, len(scenarios))
    with tempfile.TemporaryDirectory(prefix="proctor-bench-scale-") as tmp:
        results = Path(tmp) / "results"
        for name, workers in (("pool1", 1), ("pool2", 2)):
            if log:
                log(f"scale: running {name}")
            legs[name] = await run_leg(name, "pool", workers, results, scenarios)
        result.ray_skipped = ray_missing()
        if result.ray_skipped is None:
            if log:
                log("scale: running ray2")
            try:
                legs["ray2"] = await run_leg("ray2", "ray", 2, results, scenarios)
            except ProctorError as exc:  # Ray would not start here: the pool figures stand
                result.ray_error = str(exc)
    return result


# --- the report -----------------------------------------------------------------------------


def _mib(kib: float) -> float:
    return kib / KIB_PER_MIB


def _ok(ok: bool) -> str:
    return "ok" if ok else "missed"


def kinds_delta(more: Mapping[str, int], fewer: Mapping[str, int]) -> list[tuple[str, int]]:
    """Per kind of process, KiB ``more`` has over ``fewer``, largest first."""
    names = set(more) | set(fewer)
    rows = [(k, more.get(k, 0) - fewer.get(k, 0)) for k in names]
    return sorted(rows, key=lambda row: (-row[1], row[0]))


def _top(delta: Sequence[tuple[str, int]], rows: int = 6) -> str:
    """The largest per-kind differences, in MiB, leaving out those under half a MiB."""
    shown = [(kind, kib) for kind, kib in delta if abs(kib) >= KIB_PER_MIB // 2]
    shown.sort(key=lambda row: -abs(row[1]))
    return ", ".join(f"{kind} {_mib(kib):+.0f}" for kind, kib in shown[:rows]) or "none"


def render_scale(result: ScaleResult) -> str:
    """The scale section of the report: ratios between runs of the same plan in this run."""
    legs = result.legs
    pool1, pool2 = legs["pool1"], legs["pool2"]
    repeats = pool1.attempts // max(result.scenarios, 1)
    lines = [
        f"scale: {pool1.attempts} attempts per executor, same plan ({result.scenarios} "
        f"scenarios x {repeats} repeats, {ARM}), executors run one after another",
        "throughput = attempts / wall seconds of the whole proctor.run call, worker start-up "
        "and reports included; [steady state] = attempts / first attempt start to last end",
    ]
    ratio = pool2.throughput / pool1.throughput
    steady = pool2.steady / pool1.steady
    lines.append(
        f"{'pool 2 vs 1 workers:':<22}{ratio:.2f}x throughput "
        f"(target >= {THROUGHPUT_TARGET:.1f}: {_ok(ratio >= THROUGHPUT_TARGET)})"
        f"   [steady state {steady:.2f}x]"
    )
    ray2 = legs.get("ray2")
    if ray2 is not None:
        ratio = ray2.throughput / pool2.throughput
        steady = ray2.steady / pool2.steady
        lines.append(
            f"{'ray 2 vs pool 2:':<22}{ratio:.2f}x throughput "
            f"(target >= {RAY_TARGET:.1f}: {_ok(ratio >= RAY_TARGET)})"
            f"   [steady state {steady:.2f}x]"
        )
    elif result.ray_error is not None:
        lines.append(f"{'ray 2 vs pool 2:':<22}failed: {result.ray_error}")
    else:
        lines.append(f"{'ray 2 vs pool 2:':<22}skipped: {result.ray_skipped}")
    assert pool1.peak is not None and pool2.peak is not None
    extra = _mib(pool2.peak.kib - pool1.peak.kib)
    lines.append(
        f"memory per extra concurrent attempt: {extra:.0f} MiB PSS "
        f"({extra / MEMORY_TARGET_MIB:.2f}x of the {MEMORY_TARGET_MIB:.0f} MiB target: "
        f"{_ok(extra <= MEMORY_TARGET_MIB)}; peak tree PSS with 2 pool workers - with 1)"
    )
    top = _top(kinds_delta(pool2.peak.kinds, pool1.peak.kinds))
    if ray2 is not None and ray2.peak is not None:
        ray_more = _mib(ray2.peak.kib - pool2.peak.kib)
        lines.append(
            f"ray 2 vs pool 2 peak tree PSS: {ray2.peak.kib / pool2.peak.kib:.2f}x "
            f"({ray_more:+.0f} MiB: {_top(kinds_delta(ray2.peak.kinds, pool2.peak.kinds))})"
        )
    startup = ", ".join(f"{leg.name} {leg.startup_share:.0%}" for leg in legs.values())
    busy = ", ".join(f"{leg.name} {leg.busy:.0%}" for leg in legs.values())
    cores = ", ".join(f"{leg.name} {leg.cores:.2f}" for leg in legs.values())
    per_attempt = (
        ", ".join(
            f"{leg.name} {leg.cpu / leg.attempts / (pool1.cpu / pool1.attempts):.2f}x"
            for leg in legs.values()
            if pool1.cpu > 0
        )
        or "not sampled"
    )
    sampler = max((leg.sampler_cpu / leg.cpu for leg in legs.values() if leg.cpu > 0), default=0)
    load = ", ".join(f"{leg.name} {leg.load:.1f}" for leg in legs.values())
    lines += [
        f"what dominates: the extra pool worker's PSS by process kind, MiB: {top}",
        f"  wall outside the attempts' span (start-up, shut-down, reports): {startup}",
        f"  CPUs the run's own tree kept busy (sampled): {cores}; the machine's "
        f"{os.cpu_count()} CPUs were {busy} busy (others' work included; 1-min load at "
        f"start {load})",
        f"  CPU seconds per attempt, against pool1's: {per_attempt} "
        f"(the PSS sampler's own share of a run's CPU: at most {sampler:.1%})",
        "",
        "scale legs: seconds are this machine's and noisy; the ratios above are the result",
    ]
    for leg in legs.values():
        peak = leg.peak
        memory = (
            f"peak tree PSS {_mib(peak.kib):.0f} MiB in {peak.processes} processes "
            f"({peak.samples} samples)"
            if peak is not None
            else "PSS not sampled"
        )
        lines.append(
            f"  {leg.name:<6} wall {leg.wall:6.2f} s  span {leg.span:6.2f} s  "
            f"{leg.throughput:.3f} attempts/s ({leg.steady:.3f} steady)  {memory}"
        )
    return "\n".join(lines)
