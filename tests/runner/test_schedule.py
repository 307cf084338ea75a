"""The driver's scheduling, on fake slots: retries, deadlines, lost workers, the budget.

The slots here return canned tries, so every rule of ``drive`` is checked
without a browser; tests/runner/test_executors.py runs the real executors.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from proctor.records import AttemptRecord, InfraFault
from proctor.runner import (
    AttemptOutput,
    Budget,
    PlanItem,
    RunOptions,
    WorkOrder,
    make_plan,
    parse_arm,
)
from proctor.runner import build_record as record_of
from proctor.runner._executor import TryResult, WorkerLost
from proctor.runner._schedule import drive
from proctor.scenario import LoadedScenario

Behaviour = Callable[[WorkOrder], TryResult | None]
"""What a fake slot does with a try: a result, or None to hang until killed."""


@dataclass
class FakeSlot:
    name: str
    behaviour: Behaviour
    ran: list[tuple[str, int]] = field(default_factory=list)
    kills: int = 0

    async def ready(self) -> None:
        return None

    async def run(self, order: WorkOrder) -> TryResult:
        item = order.item()
        self.ran.append((item.attempt_id, order.try_number))
        await asyncio.sleep(0)
        result = self.behaviour(order)
        if result is None:
            await asyncio.sleep(3600)
            raise AssertionError("a hung try was not killed")
        return result

    async def kill(self) -> None:
        self.kills += 1


def passed(order: WorkOrder, cost: float | None = None) -> AttemptOutput:
    record = record_of(order.item(), "passed", "done", started_at=0.0, cost_usd=cost)
    return AttemptOutput(record)


def fault(order: WorkOrder) -> InfraFault:
    return InfraFault(try_number=order.try_number, kind="browser", message="crashed")


def options(**kw: object) -> RunOptions:
    settings: dict[str, object] = {"screenshots": False, "retry_delays": (0.0,), **kw}
    return RunOptions(**settings)  # type: ignore[arg-type]


@pytest.fixture
def plan(suite: dict[str, LoadedScenario]) -> list[PlanItem]:
    picked = [suite["header-enumeration"], suite["form-fill"]]
    return make_plan(picked, [parse_arm("oracle=scripted"), parse_arm("null")], 1)


async def collect(
    plan: list[PlanItem], slots: list[FakeSlot], opts: RunOptions, budget: Budget | None = None
) -> dict[str, AttemptRecord]:
    written: dict[str, AttemptRecord] = {}

    def sink(item: PlanItem, output: AttemptOutput) -> None:
        assert item.attempt_id not in written, "an attempt was written twice"
        written[item.attempt_id] = output.record

    await asyncio.wait_for(drive(plan, slots, opts, sink, budget=budget), 30)
    assert set(written) == {i.attempt_id for i in plan}, "an attempt was lost"
    return written


async def test_a_faulted_try_is_retried_on_any_slot_and_never_scored(
    plan: list[PlanItem],
) -> None:
    first = plan[0].attempt_id

    def flaky(order: WorkOrder) -> TryResult:
        if order.item().attempt_id == first and order.try_number == 1:
            return fault(order)
        return passed(order)

    slots = [FakeSlot("a", flaky), FakeSlot("b", flaky)]
    written = await collect(plan, slots, options())
    record = written[first]
    assert record.result == "passed"
    assert [(f.try_number, f.kind) for f in record.infra_faults] == [(1, "browser")]
    tries = sorted(t for s in slots for (a, t) in s.ran if a == first)
    assert tries == [1, 2]
    assert all(not r.infra_faults for a, r in written.items() if a != first)


async def test_exhausted_retries_make_an_error_record(plan: list[PlanItem]) -> None:
    slots = [FakeSlot("a", fault)]
    written = await collect(plan[:1], slots, options(infra_retries=2))
    (record,) = written.values()
    assert (record.result, record.stop_reason) == ("error", "infra")
    assert [f.try_number for f in record.infra_faults] == [1, 2, 3]


async def test_a_retry_waits_its_delay_while_other_attempts_run(plan: list[PlanItem]) -> None:
    first = plan[0].attempt_id
    order_seen: list[tuple[str, int]] = []

    def flaky(order: WorkOrder) -> TryResult:
        order_seen.append((order.item().attempt_id, order.try_number))
        if order.item().attempt_id == first and order.try_number == 1:
            return fault(order)
        return passed(order)

    slot = FakeSlot("a", flaky)
    await collect(plan, [slot], options(retry_delays=(0.3,)))
    # The one slot ran every other attempt before the retry came due.
    assert order_seen[0] == (first, 1)
    assert order_seen[-1] == (first, 2)
    assert len(order_seen) == len(plan) + 1


async def test_a_try_past_its_deadline_kills_its_worker_and_is_retried(
    plan: list[PlanItem],
) -> None:
    first = plan[0].attempt_id

    def hangs_once(order: WorkOrder) -> TryResult | None:
        if order.item().attempt_id == first and order.try_number == 1:
            return None
        return passed(order)

    slot = FakeSlot("a", hangs_once)
    # grace is negative so the deadline (wall limit + grace) is a fraction of a second.
    limit = plan[0].scenario.scenario.limits.seconds
    written = await collect(plan, [slot], options(grace=0.2 - limit))
    assert slot.kills == 1
    record = written[first]
    assert record.result == "passed"
    (worker_fault,) = record.infra_faults
    assert worker_fault.kind == "worker"
    assert "passed the try's deadline" in worker_fault.message


async def test_a_lost_worker_is_a_worker_fault(plan: list[PlanItem]) -> None:
    lost = {"once": True}

    def dies_once(order: WorkOrder) -> TryResult:
        if lost.pop("once", False):
            raise WorkerLost("the worker process ended (exit -9)")
        return passed(order)

    written = await collect(plan, [FakeSlot("a", dies_once)], options())
    faults = [f for r in written.values() for f in r.infra_faults]
    assert [(f.kind, f.message) for f in faults] == [
        ("worker", "worker a lost: the worker process ended (exit -9)")
    ]


async def test_the_budget_stops_new_attempts_and_records_them_not_run(
    suite: dict[str, LoadedScenario],
) -> None:
    plan = make_plan([suite["header-enumeration"]], [parse_arm("oracle=scripted")], 5)
    budget = Budget(1.0)
    slot = FakeSlot("a", lambda order: passed(order, cost=0.4))
    written = await collect(plan, [slot], options(), budget)
    results = [(written[i.attempt_id].result, written[i.attempt_id].not_run) for i in plan]
    # 0.4 + 0.4 spent; a third (estimate 0.4) would pass $1.00.
    assert results == [("passed", None)] * 2 + [("skipped", "budget")] * 3
    assert budget.spent_usd == pytest.approx(0.8)
    assert "budget of $1.00" in (written[plan[2].attempt_id].stop_detail or "")
    assert len(slot.ran) == 2


async def test_the_budget_counts_attempts_in_flight(suite: dict[str, LoadedScenario]) -> None:
    plan = make_plan([suite["header-enumeration"]], [parse_arm("oracle=scripted")], 4)
    budget = Budget(1.0)
    budget.spent(record_of(plan[0], "passed", "done", started_at=0.0, cost_usd=0.3))
    # Estimate 0.3 each: spent 0.3 + two in flight (0.6) leaves no room for a third.
    assert budget.admit(plan[1]) and budget.admit(plan[2])
    assert not budget.admit(plan[3])
    assert budget.reached


async def test_cancelling_the_driver_cancels_the_tries_in_flight(plan: list[PlanItem]) -> None:
    slot = FakeSlot("a", lambda order: None)
    written: list[str] = []
    task = asyncio.create_task(
        drive(plan, [slot], options(), lambda item, out: written.append(item.attempt_id))
    )
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert written == [] and len(slot.ran) == 1
