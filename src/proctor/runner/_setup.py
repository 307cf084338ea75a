"""Phase 1 of a try, set up the world: the scratch folder seeded, the scenario resolved,
the agent built, the try's site state begun on the fixture server, its lease, recorder
and simulated user (with the scenario's timeline attached)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from proctor._inject import injections
from proctor.agents import Agent
from proctor.computer.attempt import AGENT_HOME
from proctor.computer.browser import Lease, Recorder
from proctor.records import TryId
from proctor.runner._injection import inject_at
from proctor.runner._plan import PlanItem
from proctor.runner._record import LiveTrace
from proctor.runner._worker import Worker
from proctor.scenario import SUITE_ROOT, Scenario, date_values, resolve
from proctor.world import (
    DOMAIN,
    AttemptWorld,
    SimulatedUser,
    TimelineHooks,
    remove_scratch,
    seed_scratch,
)


@dataclass(frozen=True)
class TrySetup:
    """What setting up the world made for one try; every later phase reads it."""

    try_id: TryId
    scratch: Path
    scenario: Scenario
    """The scenario with its placeholders resolved."""
    values: dict[str, str]
    """The placeholder values it was resolved with."""
    originals: dict[str, str]
    """The seeded files' hashes, as the scratch folder was given them."""
    agent: Agent
    """The arm's agent (a timeline reset may put others in its place: ``_drive``)."""
    lease: Lease
    world: AttemptWorld
    recorder: Recorder
    user: SimulatedUser

    @property
    def tag(self) -> str:
        """The try id's wire form, as the computer, the world and the server take it."""
        return str(self.try_id)


def private_folders(worker: Worker, item: PlanItem) -> tuple[Path, ...]:
    """What no agent may read: the results root (this run, its control token, earlier
    runs) and the folders of the shipped suite and of this scenario file."""
    return (worker.run_dir.parent, SUITE_ROOT, item.scenario.path.parent)


def placeholder_values(worker: Worker, scratch: Path, sites: list[str]) -> dict[str, str]:
    values = {
        "scratch": str(scratch),
        "base_url": worker.server.base_url,
        "home": str(scratch / "home"),
    }
    for name in worker.server.sites:
        values[f"site.{name}"] = f"http://{name}.{DOMAIN}"
    return values


def set_up_world(worker: Worker, item: PlanItem, try_id: TryId, scratch: Path) -> TrySetup:
    """Seed the scratch folder, resolve the scenario, build the agent and begin the world."""
    tag = str(try_id)
    scenario0 = item.scenario.scenario
    if scratch.exists():
        remove_scratch(scratch)
    originals = seed_scratch(scratch, scenario0.world.files, scenario0.world.dirs)
    values = placeholder_values(worker, scratch, scenario0.world.sites)
    values |= date_values(worker.clock, scenario0.zone)  # {date:+3d}: the run clock, user's zone
    scenario: Scenario = resolve(scenario0, values)
    agent = item.arm.factory(scenario)
    lease = Lease(tag)
    world = AttemptWorld(
        attempt=tag,
        seed=scenario.world.seed,
        clock=worker.clock,
        scratch=scratch,
        revoke=lease.revoke,
        seeds=scenario.world.site_seeds(),
    )
    worker.server.begin(world, scenario.world.sites)
    recorder = Recorder(
        scenario.limits.tool_calls,
        scenario.limits.steps,
        on_event=LiveTrace.for_attempt(worker.run_dir, item),
    )
    if injections():
        recorder.on_step = lambda step: inject_at(worker, tag, step.index + 1)
    user = SimulatedUser(scenario.user, persona=worker.options.persona, brief=scenario.brief)
    if scenario.play:
        (scratch / AGENT_HOME).mkdir(exist_ok=True)
        server = worker.server
        hooks = TimelineHooks(
            world=world,
            sites=server.sites,
            requests=lambda: server.log.for_attempt(tag),
            apps=lambda: server.snapshot(world),
            call=server.call,
            trace=recorder.event,
        )
        user.attach(scenario.play, hooks, scenario.zone)
    recorder.event("attempt", id=item.attempt_id, try_number=try_id.number, agent=agent.kind)
    return TrySetup(
        try_id, scratch, scenario, values, originals, agent, lease, world, recorder, user
    )
