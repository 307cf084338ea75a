"""proctor beside MiniWoB++'s own env, measured in the same run.

MiniWoB's gymnasium env runs in a process of its own (selenium, Debian's
chromedriver and Chromium): ``env.reset(seed)`` re-seeds the one page it keeps, and
``env.step(NONE)`` returns an observation (DOM and screenshot). proctor's figures are
real attempts of a shipped peer scenario through the runner: the reset is the
attempt's set-up phase (a fresh browser context, the task page, the episode started
and its utterance checked), a step is one click and the observation after it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from statistics import median
from typing import Any

from proctor.agents import Computer, Outcome
from proctor.computer.actions import Click
from proctor.runner import Arm, PlanItem, Worker, run_attempt
from proctor.scenario import SUITE_ROOT, Scenario, load_scenario, miniwob_root

SCENARIO = "miniwob-click-button-s1"
STEPS = 10
CHROMIUM = "/usr/lib/chromium/chromium"

ENV_SCRIPT = r"""
import json, os, sys, time
import gymnasium, miniwob
from miniwob.action import ActionTypes
gymnasium.register_envs(miniwob)
n = int(sys.argv[1])
t0 = time.perf_counter()
env = gymnasium.make("miniwob/click-button-v1")
env.reset(seed=0)
made = time.perf_counter() - t0
resets, steps = [], []
none = env.unwrapped.create_action(ActionTypes.NONE)
for i in range(n):
    t0 = time.perf_counter(); env.reset(seed=i + 1); resets.append(time.perf_counter() - t0)
    t0 = time.perf_counter(); env.step(none); steps.append(time.perf_counter() - t0)
env.close()
print(json.dumps({"made": made, "resets": resets, "steps": steps}))
"""


def missing() -> list[str]:
    lacking = [] if miniwob_root() is not None else ["the miniwob package"]
    lacking += [] if shutil.which("chromedriver") else ["chromedriver (chromium-driver)"]
    return lacking + ([] if os.path.exists(CHROMIUM) else [CHROMIUM])


@dataclass
class PeerSamples:
    env_made: float = 0.0
    env_resets: list[float] = field(default_factory=list)
    env_steps: list[float] = field(default_factory=list)
    resets: list[float] = field(default_factory=list)
    steps: list[float] = field(default_factory=list)
    phases: dict[str, list[float]] = field(default_factory=dict)


class _Clicker:
    """Clicks the task's instructions (a click that ends nothing) ``STEPS`` times."""

    kind = "bench-clicker"

    def __init__(self, samples: list[float]) -> None:
        self.samples = samples

    async def run(self, brief: str, computer: Computer) -> Outcome:
        await computer.observe(auto=True)
        for _ in range(STEPS):
            t0 = time.perf_counter()
            await computer.act(Click(selector="#query"))
            await computer.observe(auto=True)
            self.samples.append(time.perf_counter() - t0)
        return Outcome(stop_reason="done")


def _env(n: int) -> dict[str, Any]:
    env = dict(os.environ)
    env["MINIWOB_CHROME_BINARY"] = CHROMIUM
    env["MINIWOB_CHROMEDRIVER"] = shutil.which("chromedriver") or ""
    done = subprocess.run(
        [sys.executable, "-c", ENV_SCRIPT, str(n)],
        capture_output=True, text=True, timeout=600, env=env, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"MiniWoB's env failed: {done.stderr.strip()[-800:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


async def measure_peer(worker: Worker, n: int, warmup: int) -> PeerSamples:
    """``n`` MiniWoB env resets and steps (own process), then ``n`` proctor attempts."""
    samples = PeerSamples()
    theirs = _env(n)
    samples.env_made = theirs["made"]
    samples.env_resets, samples.env_steps = theirs["resets"], theirs["steps"]
    loaded = load_scenario(SUITE_ROOT / "peer" / f"{SCENARIO}.yaml")
    for i in range(warmup + n):
        steps: list[float] = []

        def factory(scenario: Scenario, steps: list[float] = steps) -> _Clicker:
            return _Clicker(steps)

        arm = Arm(name="bench", spec="bench", factory=factory)
        record = await run_attempt(worker, PlanItem(loaded, arm, i + 1), write=False)
        if record.result == "error":
            raise RuntimeError(f"a bench attempt faulted: {record.error}")
        if i >= warmup:
            samples.resets.append(record.timings.get("setup", 0.0))
            samples.steps.append(median(steps))
            for name, seconds in record.timings.items():
                samples.phases.setdefault(name, []).append(seconds)
    return samples


def render_peer(s: PeerSamples) -> str:
    env_reset, env_step = median(s.env_resets), median(s.env_steps)
    reset, step = median(s.resets), median(s.steps)
    goal = "ok" if reset <= env_reset else "over"
    lines = [
        f"peer: MiniWoB++ click-button, N={len(s.resets)}; MiniWoB's env in its own process "
        f"(made in {s.env_made:.2f} s, one page kept, re-seeded)",
        f"{'env.reset():':<22}{env_reset:.4f} s  1.00x",
        f"{'proctor reset:':<22}{reset:.4f} s  {reset / env_reset:.2f}x  "
        "(fresh context, task page, episode started, utterance checked)",
        f"{'ratio (peer reset):':<22}{reset / env_reset:.2f}    "
        f"(proctor reset / env.reset(); goal <= 1.0: {goal})",
        f"{'env.step():':<22}{env_step:.4f} s  1.00x",
        f"{'proctor step:':<22}{step:.4f} s  {step / env_step:.2f}x  (one click + observation)",
        f"{'ratio (peer step):':<22}{step / env_step:.2f}    (proctor step / env.step())",
    ]
    setup = {k: median(v) for k, v in s.phases.items()}
    top = sorted(setup.items(), key=lambda kv: -kv[1])[:4]
    lines.append("  attempt phases (median s): " + ", ".join(f"{k} {v:.4f}" for k, v in top))
    return "\n".join(lines)
