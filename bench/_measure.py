"""Interleaved samples: real attempts through the runner, and the bare Playwright floor."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

from bench._world import page_url
from proctor.runner import (
    PlanItem,
    Worker,
    parse_arm,
    run_attempt,
    seconds_to_ticks,
    ticks_to_seconds,
)
from proctor.scenario import LoadedScenario
from proctor.world import ATTEMPT_HEADER, AttemptWorld

FLOOR_TAG = "bench-floor"
MODES = {"run": True, "verify": False}
"""Attempt modes -> screenshots: `proctor run` saves before/after.png, `proctor verify` does not."""


class BenchError(RuntimeError):
    """A bench attempt did not run as a clean, passing attempt."""


@dataclass(frozen=True)
class AttemptSample:
    """One attempt's figures, in seconds."""

    seconds: float
    agent_seconds: float
    outer: float
    phases: dict[str, float]

    @property
    def overhead(self) -> float:
        """Set-up + teardown + grading: the attempt's wall time minus the agent's."""
        return self.seconds - self.agent_seconds

    @property
    def other(self) -> float:
        """The overhead no phase covers, in whole ticks: never negative, as phases never overlap."""
        ticks = seconds_to_ticks(self.seconds) - seconds_to_ticks(self.agent_seconds)
        return ticks_to_seconds(ticks - sum(seconds_to_ticks(p) for p in self.phases.values()))


@dataclass
class Samples:
    """What one bench run measured; ``floors[i]`` was measured right after each attempt i."""

    attempts: dict[str, list[AttemptSample]] = field(default_factory=dict)
    floors: dict[str, list[float]] = field(default_factory=dict)


async def attempt_sample(
    worker: Worker, loaded: LoadedScenario, repeat: int, *, screenshots: bool
) -> AttemptSample:
    """Run the trivial scenario with the null agent through ``run_attempt``, as a run does."""
    worker.options = dataclasses.replace(worker.options, screenshots=screenshots)
    item = PlanItem(loaded, parse_arm("bench=null"), repeat)
    t0 = time.perf_counter()
    record = await run_attempt(worker, item)
    outer = time.perf_counter() - t0
    if record.result != "passed" or record.infra_faults:
        raise BenchError(
            f"bench attempt {record.id} ended {record.result} "
            f"(failed {record.failed_checks}, faults {len(record.infra_faults)}, "
            f"error {record.error}); the bench measures clean attempts only"
        )
    phases = {k: v for k, v in record.timings.items() if k != "agent"}
    return AttemptSample(record.seconds, record.agent_seconds, outer - record.agent_seconds, phases)


async def floor_sample(worker: Worker) -> float:
    """Bare Playwright: new context + new page + goto the same page, then close the context."""
    # The fixture site answers only while an attempt is active; that set-up is not timed.
    world = AttemptWorld(attempt=FLOOR_TAG, seed=0, clock=worker.clock, scratch=worker.run_dir)
    worker.server.begin(world, [])
    try:
        browser = worker.host.browser
        t0 = time.perf_counter()
        # Tagged as an attempt's context is: the world refuses untagged requests.
        context = await browser.new_context(extra_http_headers={ATTEMPT_HEADER: FLOOR_TAG})
        page = await context.new_page()
        await page.goto(page_url(), wait_until="load")
        await context.close()
        elapsed = time.perf_counter() - t0
    finally:
        worker.server.end(FLOOR_TAG)
    requests = worker.server.log.for_attempt(FLOOR_TAG)
    worker.server.log.drop_attempt(FLOOR_TAG)
    if not any(r.status == 200 and r.path == "/" for r in requests):
        raise BenchError(f"the floor's goto to {page_url()} was not answered 200")
    return elapsed


async def measure(worker: Worker, loaded: LoadedScenario, n: int, warmup: int) -> Samples:
    """``warmup`` unrecorded rounds, then ``n`` rounds of (attempt, floor) per mode, interleaved."""
    samples = Samples()
    repeat = 0
    for i in range(warmup + n):
        for mode, screenshots in MODES.items():
            repeat += 1
            attempt = await attempt_sample(worker, loaded, repeat, screenshots=screenshots)
            floor = await floor_sample(worker)
            if i >= warmup:
                samples.attempts.setdefault(mode, []).append(attempt)
                samples.floors.setdefault(mode, []).append(floor)
    return samples
