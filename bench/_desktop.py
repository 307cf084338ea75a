"""The desktop reset: a fresh HOME, the app launched, its window in the AT-SPI tree, then closed.

Each round is what an attempt does: ``DesktopComputer.open`` on the process's
shared desktop (galculator in a fresh HOME, its window awaited, then given the
keyboard), the first observe, and ``close`` (the app ended and reaped), each AT-SPI
call on the host's thread. The browser floor (new context + page + goto + close)
is measured right after, on the same machine, so the ratio is what the figures mean.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

APP = ("galculator",)
TARGET = 1.5
"""A desktop attempt's set-up plus teardown, as a multiple of the browser floor (issue 14)."""


@dataclass
class DesktopSamples:
    """Seconds per round: launch to window, the first observe, close; and each round's floor."""

    session_start: float = 0.0
    session_stop: float = 0.0
    launch: list[float] = field(default_factory=list)
    observe: list[float] = field(default_factory=list)
    close: list[float] = field(default_factory=list)
    floors: list[float] = field(default_factory=list)

    def reset(self, i: int) -> float:
        return self.launch[i] + self.observe[i] + self.close[i]


def missing() -> list[str]:
    """What the desktop bench lacks on this machine (empty: it can run)."""
    from proctor.computer.desktop import missing_stack

    return missing_stack() + [a for a in APP[:1] if shutil.which(a) is None]


async def measure_desktop(
    n: int, warmup: int, floor: Callable[[], Awaitable[float]]
) -> DesktopSamples:
    """``warmup`` unrecorded rounds, then ``n`` rounds of (desktop reset, browser floor)."""
    from proctor.computer.attempt import AttemptInfo
    from proctor.computer.browser import Recorder
    from proctor.computer.desktop import AppSpec, DesktopComputer, DesktopHost

    samples = DesktopSamples()
    with tempfile.TemporaryDirectory(prefix="proctor-bench-desktop-") as tmp:
        t0 = time.perf_counter()
        host = await DesktopHost.acquire()
        samples.session_start = time.perf_counter() - t0
        try:
            for i in range(warmup + n):
                scratch = Path(tmp) / f"round-{i}"
                info = AttemptInfo(f"bench/desktop-{i}#1", scratch)
                t0 = time.perf_counter()
                computer = await DesktopComputer.open(
                    host, info, Recorder(100, 100), [AppSpec("calc", APP)]
                )
                t1 = time.perf_counter()
                await computer.observe(auto=True)
                t2 = time.perf_counter()
                await computer.close()
                t3 = time.perf_counter()
                shutil.rmtree(scratch, ignore_errors=True)
                base = await floor()
                if i >= warmup:
                    samples.launch.append(t1 - t0)
                    samples.observe.append(t2 - t1)
                    samples.close.append(t3 - t2)
                    samples.floors.append(base)
        finally:
            t0 = time.perf_counter()
            await DesktopHost.release()
            samples.session_stop = time.perf_counter() - t0
    return samples


def render_desktop(samples: DesktopSamples) -> str:
    """The desktop figures, each also as a multiple of the floor measured beside it."""
    floor = median(samples.floors)
    rounds = range(len(samples.floors))
    reset = median(samples.reset(i) for i in rounds)
    paired = median(samples.reset(i) / samples.floors[i] for i in rounds)
    ratio = reset / floor
    verdict = "ok" if ratio <= TARGET else "over"
    parts = {
        "launch": median(samples.launch),
        "observe": median(samples.observe),
        "close": median(samples.close),
    }
    top = max(parts, key=lambda k: parts[k])
    lines = [
        f"desktop: {APP[0]} in a fresh HOME on one Xvfb + D-Bus + AT-SPI session, "
        f"N={len(samples.floors)} rounds of (reset, floor), interleaved",
        f"{'floor:':<19}{floor:.4f} s  1.00x  (the browser floor, measured beside each reset)",
        f"{'desktop reset:':<19}{reset:.4f} s  {ratio:.2f}x  "
        "(fresh HOME, launch, window in the tree, keyboard to it, first observe, close)",
        f"{'ratio (desktop):':<19}{ratio:.2f}    "
        f"(reset / floor; target <= {TARGET:.1f}: {verdict}; paired median {paired:.2f}; "
        f"dominated by {top})",
    ]
    for name, seconds in parts.items():
        share, times = seconds / reset, seconds / floor
        lines.append(f"  {name:<11} {seconds:.4f} s  {share:6.1%}  {times:.2f}x")
    lines.append(
        f"  session     start {samples.session_start:.4f} s, stop {samples.session_stop:.4f} s "
        "(once per worker, not per attempt)"
    )
    return "\n".join(lines)
