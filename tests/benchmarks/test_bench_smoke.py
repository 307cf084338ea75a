"""`python -m bench` runs end to end and prints the floor, the overheads and their ratios.

Only what the report says is checked here, never how fast anything was: speed is
measured by the bench itself, not by timed tests.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NUMBER = r"(\d+\.\d+)"


def _figure(report: str, label: str, unit: str = " s") -> float:
    match = re.search(rf"^{re.escape(label)}:\s+{NUMBER}{unit}", report, re.MULTILINE)
    assert match, f"no {label!r} figure in the report:\n{report}"
    return float(match.group(1))


def _phases(report: str, mode: str) -> list[str]:
    block = report.split(f"breakdown ({mode}):", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^  (\w+)\s+\d+\.\d+ s", block, re.MULTILINE)


@pytest.mark.browser
def test_bench_prints_floor_overhead_and_ratio() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--n", "1", "--warmup", "0", "--no-scale"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = done.stdout
    assert "N=1 rounds" in report
    floor = _figure(report, "floor")
    assert floor > 0
    for mode in ("run", "verify"):
        overhead = _figure(report, f"overhead ({mode})")
        ratio = _figure(report, f"ratio ({mode})", unit="")
        # The ratio is the printed overhead over the printed floor, up to their rounding.
        assert ratio == pytest.approx(overhead / floor, abs=0.01 + 1e-4 * overhead / floor**2)
    # Every phase the attempt record times shows up in the breakdown, then what none covers.
    phases = ["setup", "before_png", "end_state", "teardown", "grade", "other"]
    assert _phases(report, "run") == phases
    assert _phases(report, "verify") == [p for p in phases if p != "before_png"]
    assert "+ writes" in report
    # --no-scale leaves out the multi-minute scale bench (make bench runs it).
    assert "scale:" not in report
    # The desktop reset, beside the same floor (measured wherever the stack is: CI has it).
    if "desktop: not measured" not in report or os.environ.get("CI"):
        reset = _figure(report, "desktop reset")
        ratio = _figure(report, "ratio (desktop)", unit="")
        desk_floor = float(re.findall(rf"^floor:\s+{NUMBER} s", report, re.MULTILINE)[1])
        assert ratio == pytest.approx(reset / desk_floor, abs=0.01 + 1e-4 * reset / desk_floor**2)
        assert re.search(r"^  launch\s+\d+\.\d+ s", report, re.MULTILINE)
    # proctor beside MiniWoB++'s own env (bootstrap installs the package and chromedriver).
    if "peer: not measured" not in report or os.environ.get("CI"):
        for kind in ("reset", "step"):
            ours = _figure(report, f"proctor {kind}")
            theirs = _figure(report, f"env.{kind}()")
            ratio = _figure(report, f"ratio (peer {kind})", unit="")
            assert ratio == pytest.approx(ours / theirs, abs=0.01 + 1e-4 * ours / theirs**2)
