"""``proctor inspect``: the observation an agent gets, for writing a scenario's steps.

The scenario's world comes up as for an attempt (its sites, seeds, scratch files,
run clock and start page); the inspector then runs the first ``at`` oracle steps
through the toolset, optionally opens another page of the world, and keeps the
observation an agent would get there: url, title, tabs, the aria snapshot with
refs, roles and names (or a desktop window's outline). Nothing is written.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from proctor.agents import Computer, Outcome
from proctor.computer.actions import Action, Done, Navigate
from proctor.errors import RunError
from proctor.records import Step
from proctor.runner._attempt import run_attempt
from proctor.runner._plan import Arm, PlanItem
from proctor.runner._worker import RunOptions, Worker
from proctor.scenario import LoadedScenario, Scenario
from proctor.world import DOMAIN

_SITE = re.compile(r"\{site\.([a-z0-9_-]+)\}")


@dataclass(frozen=True)
class StepSeen:
    """One oracle step the inspector ran, as the step record says."""

    index: int
    op: str
    status: str
    error: str | None


@dataclass
class Inspection:
    """What the inspector saw.

    Attributes:
        scenario: The scenario's id.
        steps: The oracle steps run before the observation.
        observation: The observation's text, as an agent's prompt holds it.
        surface: browser or desktop.
        stopped: Why fewer steps ran than asked (a step failed), or None.
    """

    scenario: str
    steps: list[StepSeen] = field(default_factory=list)
    observation: str = ""
    surface: str = "browser"
    stopped: str | None = None


def _spelled(url: str) -> str:
    return _SITE.sub(lambda m: f"http://{m.group(1)}.{DOMAIN}", url)


def world_url(url: str, start: str | None) -> str:
    """``url`` as the browser opens it: ``{site.NAME}`` spelled out, a path joined to the
    start page's origin.

    Raises:
        RunError: for a path when the scenario has no start page, or a scheme other
            than http(s).
    """
    url = _spelled(url.strip())
    if url.startswith("/"):
        match = re.match(r"^(https?://[^/]+)", _spelled(start or ""))
        if match is None:
            raise RunError(f"--url {url}: the scenario has no start page to take a host from")
        return match.group(1) + url
    if not re.match(r"^https?://", url):
        raise RunError(
            f"--url {url!r}: give a path (/orders), {{site.NAME}}/path or an http(s) URL"
        )
    return url


def oracle_prefix(scenario: Scenario, at: int) -> list[Action]:
    """The first ``at`` oracle steps.

    Raises:
        RunError: when ``at`` is out of range or would end the attempt (``done``).
    """
    steps = scenario.solution
    if at < 0 or at > len(steps):
        raise RunError(
            f"--at {at}: scenario {scenario.id} has {len(steps)} oracle steps; give 0 to "
            f"{len(steps)}"
        )
    done = next((i for i, s in enumerate(steps[:at]) if isinstance(s, Done)), None)
    if done is not None:
        raise RunError(
            f"--at {at}: oracle step {done + 1} of {scenario.id} is done, which ends the "
            f"attempt; give at most {done}"
        )
    return list(steps[:at])


@dataclass
class _Inspector:
    """An agent that runs a few oracle steps, maybe opens a page, and observes once."""

    steps: Sequence[Action]
    seen: Inspection
    url: str | None = None

    @property
    def kind(self) -> str:
        return "inspect"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        self.seen.surface = computer.surface
        for index, action in enumerate(self.steps):
            step: Step = await computer.act(action)
            self.seen.steps.append(StepSeen(index + 1, step.op, step.status, step.error))
            if step.status != "ok":
                self.seen.stopped = f"oracle step {index + 1} ({step.op}) {step.status}"
                break
        else:
            if self.url is not None:
                step = await computer.act(Navigate(url=self.url))
                if step.status != "ok":
                    self.seen.stopped = f"navigate {self.url}: {step.status}: {step.error}"
        observation = await computer.observe()
        self.seen.observation = observation.render()
        return Outcome(stop_reason="script_end")


async def inspect_in(
    worker: Worker, loaded: LoadedScenario, *, at: int = 0, url: str | None = None
) -> Inspection:
    """Bring up ``loaded``'s world in ``worker``, run ``at`` oracle steps, observe.

    Raises:
        RunError: for a bad ``at`` or ``url``, a scenario this machine cannot run, or
            a world that did not come up.
    """
    seen = Inspection(loaded.scenario.id)

    def build(scenario: Scenario) -> _Inspector:
        where = world_url(url, scenario.world.browser.start) if url is not None else None
        return _Inspector(oracle_prefix(scenario, at), seen, where)

    # Checked before the world comes up, so a bad --at or --url is a usage error.
    oracle_prefix(loaded.scenario, at)
    if url is not None:
        world_url(url, loaded.scenario.world.browser.start)
    item = PlanItem(loaded, Arm(name="inspect", spec="inspect", factory=build), 1)
    if item.skip:
        raise RunError(f"cannot inspect {loaded.scenario.id} here: {item.skip}")
    record = await run_attempt(worker, item, write=False)
    if record.result == "error":
        faults = "; ".join(f"{f.kind}: {f.message}" for f in record.infra_faults)
        raise RunError(f"the world of {loaded.scenario.id} did not come up: {faults}")
    if record.stop_reason == "agent_error":
        raise RunError(f"inspect {loaded.scenario.id}: {record.stop_detail}")
    return seen


async def inspect(loaded: LoadedScenario, *, at: int = 0, url: str | None = None) -> Inspection:
    """``inspect_in`` in a new worker of its own, in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="proctor-inspect-") as tmp:
        async with Worker(Path(tmp) / "inspect", RunOptions(screenshots=False)) as worker:
            return await inspect_in(worker, loaded, at=at, url=url)
