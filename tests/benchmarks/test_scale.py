"""The scale bench's pure helpers: the process tree's PSS, the CPU share, the arithmetic.

The scale bench itself takes minutes and is run by ``make bench``, not here; no
test checks how fast or how big anything was.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from bench import _scale


@pytest.fixture
def child() -> Iterator[subprocess.Popen[bytes]]:
    """A sleeping Python child of this process, ended by its pid afterwards."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    deadline = time.monotonic() + 10
    while _scale.pss_kib(proc.pid) in (None, 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    yield proc
    proc.kill()
    proc.wait(timeout=10)


def test_pss_of_this_process_and_of_a_gone_one() -> None:
    assert (_scale.pss_kib(os.getpid()) or 0) > 0
    assert _scale.pss_kib(2**22 + 12345) is None  # above pid_max's ceiling: never a process


def test_tree_holds_this_process_and_its_child(child: subprocess.Popen[bytes]) -> None:
    pids = _scale.tree(os.getpid())
    assert pids[0] == os.getpid()
    assert child.pid in pids
    assert os.getppid() not in pids


def test_tree_pss_sums_the_driver_and_the_child_by_kind(child: subprocess.Popen[bytes]) -> None:
    kinds = _scale.tree_pss(os.getpid())
    assert kinds["driver"] > 0
    assert kinds["worker (python)"] > 0
    assert _scale.kind_of(child.pid, os.getpid()) == "worker (python)"
    assert _scale.kind_of(os.getpid(), os.getpid()) == "driver"


def test_kind_of_argv_reads_chromium_rewritten_command_lines() -> None:
    kind = _scale.kind_of_argv
    assert kind([b"/usr/lib/chromium/chromium", b"--headless", b""]) == "chromium browser"
    rewritten = b"/usr/lib/chromium/chromium --type=renderer --lang=en-US"
    assert kind([rewritten, b""]) == "chromium renderer"
    assert kind([b"/x/playwright/driver/node", b"cli.js", b"run-driver", b""]) == (
        "playwright driver (node)"
    )
    assert kind([b"/work/.venv/bin/python3", b"-c", b"..."]) == "worker (python)"
    assert kind([b"/work/.venv/bin/python", b"-u", b"/x/site-packages/ray/dashboard/agent.py"]) == (
        "ray daemon (python)"
    )
    assert kind([b"ray::_ActorWorker", b""]) == "ray worker (python)"
    assert kind([b""]) == "other"


def test_sampler_keeps_the_peak(child: subprocess.Popen[bytes]) -> None:
    with _scale.PssSampler(interval=0.05, pss_every=1) as sampler:
        time.sleep(0.3)
    peak = sampler.peak
    assert peak.samples >= 2
    assert peak.processes >= 2
    assert peak.kib == sum(peak.kinds.values()) > 0


def test_peak_is_the_largest_total() -> None:
    peak = _scale.PssPeak()
    peak.add({"driver": 10, "worker (python)": 5}, 2)
    peak.add({"driver": 12}, 1)
    peak.add({"driver": 11, "worker (python)": 6}, 2)
    assert (peak.kib, peak.kinds, peak.processes, peak.samples) == (
        17,
        {"driver": 11, "worker (python)": 6},
        2,
        3,
    )


def test_parse_stat_survives_odd_command_names() -> None:
    tail = " ".join(str(n) for n in range(4, 53))  # fields 4.. hold their own field number
    stat = _scale.parse_stat(f"123 (a) b (c) S {tail}\n")
    assert (stat.ppid, stat.ticks, stat.start) == (4, 14 + 15, 22)
    own = _scale.stats()[os.getpid()]
    assert own.ppid == os.getppid()


def test_sampler_counts_the_cpu_of_a_busy_child() -> None:
    # 0.3 s of CPU however loaded the machine, then a pause so a sample sees it all.
    busy = "import time\nwhile time.process_time() < 0.3: pass\ntime.sleep(0.5)"
    with _scale.PssSampler(interval=0.05) as sampler:
        proc = subprocess.Popen([sys.executable, "-c", busy])
        try:
            proc.wait(timeout=30)
        finally:
            proc.kill()
    assert sampler.cpu_seconds >= 0.25


def test_busy_share_and_cpu_times() -> None:
    assert _scale.busy_share((10, 100), (40, 200)) == pytest.approx(0.3)
    assert _scale.busy_share((10, 100), (10, 100)) == 0.0
    busy, total = _scale.cpu_times()
    assert 0 <= busy <= total


def test_span_and_throughput_arithmetic() -> None:
    # Two workers: attempts at 100-102 and 100.5-103, then 102-104.
    span = _scale.span_of([(100.0, 2.0), (100.5, 2.5), (102.0, 2.0)])
    assert span == pytest.approx(4.0)
    leg = _scale.Leg("pool2", attempts=3, wall=6.0, span=span, busy=0.5, cpu=9.0)
    assert leg.throughput == pytest.approx(0.5)
    assert leg.steady == pytest.approx(0.75)
    assert leg.startup_share == pytest.approx(1 / 3)
    assert leg.cores == pytest.approx(1.5)
    with pytest.raises(ValueError):
        _scale.span_of([])


def test_kinds_delta_largest_first() -> None:
    more = {"driver": 100, "chromium renderer": 300, "worker (python)": 50}
    fewer = {"driver": 110, "chromium renderer": 150}
    assert _scale.kinds_delta(more, fewer) == [
        ("chromium renderer", 150),
        ("worker (python)", 50),
        ("driver", -10),
    ]


def _leg(name: str, wall: float, span: float, kib: int, cpu: float = 48.0) -> _scale.Leg:
    peak = _scale.PssPeak(kib=kib, kinds={"chromium renderer": kib}, processes=5, samples=40)
    return _scale.Leg(
        name, attempts=24, wall=wall, span=span, busy=0.9, cpu=cpu, peak=peak, sampler_cpu=0.48
    )


def test_render_gives_ratios_of_the_same_run() -> None:
    mib = _scale.KIB_PER_MIB
    legs = {
        "pool1": _leg("pool1", 40.0, 36.0, 500 * mib),
        "pool2": _leg("pool2", 25.0, 20.0, 590 * mib, cpu=60.0),
        "ray2": _leg("ray2", 30.0, 21.0, 900 * mib, cpu=72.0),
    }
    report = _scale.render_scale(_scale.ScaleResult(legs, scenarios=12))
    assert "scale: 24 attempts per executor, same plan (12 scenarios x 2 repeats" in report
    assert "pool 2 vs 1 workers:  1.60x throughput (target >= 1.6: ok)" in report
    assert "[steady state 1.80x]" in report
    assert "ray 2 vs pool 2:      0.83x throughput (target >= 0.9: missed)" in report
    assert "memory per extra concurrent attempt: 90 MiB PSS (0.90x of the 100 MiB target: ok" in (
        report
    )
    assert "chromium renderer +90" in report
    assert "CPU seconds per attempt, against pool1's: pool1 1.00x, pool2 1.25x, ray2 1.50x" in (
        report
    )
    assert "CPUs the run's own tree kept busy (sampled): pool1 1.20, pool2 2.40" in report
    assert "own share of a run's CPU: at most 1.0%" in report
    assert "ray 2 vs pool 2 peak tree PSS: 1.53x (+310 MiB: chromium renderer +310)" in report


def test_render_says_why_ray_was_skipped() -> None:
    mib = _scale.KIB_PER_MIB
    legs = {
        "pool1": _leg("pool1", 40.0, 36.0, 500 * mib),
        "pool2": _leg("pool2", 30.0, 20.0, 620 * mib),
    }
    result = _scale.ScaleResult(legs, scenarios=12, ray_skipped="ray is not installed")
    report = _scale.render_scale(result)
    assert "pool 2 vs 1 workers:  1.33x throughput (target >= 1.6: missed)" in report
    assert "ray 2 vs pool 2:      skipped: ray is not installed" in report
    assert "120 MiB PSS (1.20x of the 100 MiB target: missed" in report


def test_the_scale_plan_is_in_the_local_tier() -> None:
    picked = _scale.plan()
    assert sorted(s.scenario.id for s in picked) == sorted(_scale.SCENARIOS)
    assert all(s.scenario.tier == "local" for s in picked)
