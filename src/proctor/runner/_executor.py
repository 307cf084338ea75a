"""The executor interface: where tries run. An executor hands out slots, one worker per slot.

The driver (``_schedule.drive``) owns the plan, retries, deadlines, the budget
and the results tree; an executor only runs one try at a time per slot and
returns it as data (``AttemptOutput`` or the ``InfraFault`` that ended it). So
every executor writes the same tree:

- ``inline``: one worker in this process (the default; ``_inline``);
- ``pool``: ``--workers N`` worker processes on this machine (``_pool``);
- ``ray``: one Ray actor per worker, locally or on a cluster (``_ray``).

This module is what they share and below all three; ``_executors.make_executor``
picks one.

What crosses to a worker process is a ``WorkOrder``: the scenario as loaded
(pydantic, picklable) and the arm as its name and spec, which the worker turns
back into an agent factory with ``parse_arm``. Arms built in code from a
factory that no spec names run only inline.
"""

from __future__ import annotations

import datetime as dt
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from proctor.errors import RunError
from proctor.records import InfraFault
from proctor.runner._plan import Arm, PlanItem, parse_arm
from proctor.runner._record import AttemptOutput
from proctor.runner._worker import RunOptions, SealState
from proctor.scenario import LoadedScenario
from proctor.vocab import ExecutorKind

TryResult = AttemptOutput | InfraFault


class WorkerLost(Exception):
    """The worker of a slot died or was killed mid-try (recorded as fault kind ``worker``)."""


@dataclass(frozen=True)
class WorkOrder:
    """One try to make, in a form that crosses to another process or machine."""

    scenario: LoadedScenario
    arm_name: str
    arm_spec: str
    arm_skip: str | None
    repeat: int
    try_number: int

    @classmethod
    def of(cls, item: PlanItem, try_number: int) -> WorkOrder:
        arm = item.arm
        return cls(item.scenario, arm.name, arm.spec, arm.skip, item.repeat, try_number)

    def item(self) -> PlanItem:
        """The plan item, its arm rebuilt from the spec."""
        factory = parse_arm(self.arm_spec).factory
        arm = Arm(self.arm_name, self.arm_spec, factory, self.arm_skip)
        return PlanItem(self.scenario, arm, self.repeat)


def check_portable(items: Sequence[PlanItem], options: RunOptions, executor: str) -> None:
    """Refuse, before anything runs, a plan or options a worker process could not rebuild.

    Raises:
        RunError: naming the arm whose spec is not one ``--arm`` takes, or the option.
    """
    seen: set[tuple[str, str]] = set()
    for item in items:
        key = (item.arm.name, item.arm.spec)
        if key in seen:
            continue
        seen.add(key)
        try:
            parse_arm(item.arm.spec)
        except RunError as exc:
            raise RunError(
                f"--executor {executor}: arm {item.arm.name!r} was built in code "
                f"(spec {item.arm.spec!r}), so a worker process cannot rebuild it; "
                "run it with --executor inline"
            ) from exc
    try:
        pickle.dumps(options)
    except (pickle.PicklingError, TypeError, AttributeError) as exc:
        raise RunError(
            f"--executor {executor}: the run options cannot be sent to a worker ({exc}); "
            "the judge and persona must be made from specs, or run with --executor inline"
        ) from exc


class Slot(Protocol):
    """One worker that runs one try at a time."""

    name: str

    async def ready(self) -> None:
        """Start the worker if it is not running (after a loss or a kill), outside any
        try's deadline.

        Raises:
            RunError: the worker could not start.
        """
        ...

    async def run(self, order: WorkOrder) -> TryResult:
        """Run the try.

        Raises:
            WorkerLost: the worker died during it (the slot restarts on its next run).
        """
        ...

    async def kill(self) -> None:
        """End the worker now (a try past its deadline); the next ``run`` starts a new one."""
        ...


class Executor(Protocol):
    """Opens the slots of a run and closes them, reaping everything they started."""

    kind: ExecutorKind

    async def open(self, run_dir: Path, options: RunOptions, clock: dt.datetime) -> list[Slot]:
        """Start the workers (their fixture servers and browsers)."""
        ...

    def seal(self) -> SealState | None:
        """How the workers' browsers are sealed (the first worker's), once open."""
        ...

    async def close(self) -> None:
        """Stop every worker; idempotent, and safe after a failed ``open``."""
        ...
