"""The driver: hands tries to an executor's slots, in plan order, and owns what follows.

- **Retries.** A try that ends in an infra fault goes back in the queue, due
  after the options' retry delay; meanwhile the slot takes other work, and the
  retry may run on any slot. After ``infra_retries`` retries the attempt is
  ``error``, never scored.
- **Deadlines.** Each try has the scenario's wall limit plus ``options.grace``.
  A slot past it is killed (``Slot.kill``) and the try is a ``worker`` fault.
- **Budget.** ``Budget`` decides, before each new attempt starts, whether the
  spend so far plus the in-flight estimate leaves room for it; if not, that
  attempt and every later one are recorded ``not_run: budget``.
- **Writing.** Every finished attempt goes to ``sink`` (the driver alone writes
  the results tree), in the order attempts finish.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from proctor.errors import RunError
from proctor.records import InfraFault
from proctor.runner._budget import Budget
from proctor.runner._executor import Slot, TryResult, WorkerLost, WorkOrder
from proctor.runner._plan import PlanItem
from proctor.runner._record import AttemptOutput, finish_attempt
from proctor.runner._worker import RunOptions

Sink = Callable[[PlanItem, AttemptOutput], None]
"""Writes one finished attempt (its record last) and reports progress."""
Started = Callable[[PlanItem], None]
"""Told when an attempt's first try starts."""


@dataclass
class _Attempt:
    index: int
    item: PlanItem
    faults: list[InfraFault] = field(default_factory=list)
    due: float = 0.0
    """time.monotonic() before which its next try may not start."""

    @property
    def next_try(self) -> int:
        return len(self.faults) + 1


def deadline_of(item: PlanItem, options: RunOptions) -> float:
    """Seconds a try may take before its worker is killed: wall limit plus grace."""
    return options.wall_limit(item.scenario.scenario.limits.seconds) + options.grace


async def drive(
    items: Sequence[PlanItem],
    slots: Sequence[Slot],
    options: RunOptions,
    sink: Sink,
    *,
    budget: Budget | None = None,
    started: Started | None = None,
) -> None:
    """Run every item on the slots; return when each one has gone to ``sink``.

    Cancelling it (Ctrl-C) cancels the tries in flight; their attempts are not
    written, so ``--resume`` runs them again.
    """
    queue = [_Attempt(i, item) for i, item in enumerate(items)]
    idle = list(slots)
    running: dict[asyncio.Task[TryResult], tuple[Slot, _Attempt]] = {}
    try:
        while queue or running:
            now = time.monotonic()
            while idle and queue:
                pick = next((a for a in queue if a.due <= now), None)
                if pick is None:
                    break
                queue.remove(pick)
                if not pick.faults and budget is not None and not budget.admit(pick.item):
                    sink(pick.item, budget.not_run(pick.item))
                    continue
                if not pick.faults and started is not None:
                    started(pick.item)
                slot = idle.pop(0)
                task = asyncio.create_task(_timed(slot, pick, options))
                running[task] = (slot, pick)
            wait = _until_due(queue, now) if idle else None
            if not running:
                await asyncio.sleep(wait or 0)
                continue
            done, _ = await asyncio.wait(running, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                slot, attempt = running.pop(task)
                idle.append(slot)
                result = task.result()
                if isinstance(result, AttemptOutput):
                    output = finish_attempt(attempt.item, result, attempt.faults)
                    if budget is not None:
                        budget.spent(output.record)
                    sink(attempt.item, output)
                    continue
                attempt.faults.append(result)
                if len(attempt.faults) > options.infra_retries:
                    output = finish_attempt(attempt.item, None, attempt.faults)
                    if budget is not None:
                        budget.spent(output.record)
                    sink(attempt.item, output)
                    continue
                attempt.due = time.monotonic() + options.retry_delay(len(attempt.faults))
                queue.append(attempt)
                queue.sort(key=lambda a: a.index)
    finally:
        for task in running:
            task.cancel()
        if running:
            await asyncio.gather(*running, return_exceptions=True)


def _until_due(queue: Sequence[_Attempt], now: float) -> float | None:
    """Seconds until the first queued attempt is due (None: the queue is empty)."""
    if not queue:
        return None
    return max(0.0, min(a.due for a in queue) - now)


async def _timed(slot: Slot, attempt: _Attempt, options: RunOptions) -> TryResult:
    """One try on ``slot`` under its deadline; a lost or late worker is a ``worker`` fault."""
    order = WorkOrder.of(attempt.item, attempt.next_try)
    limit = deadline_of(attempt.item, options)
    try:
        await slot.ready()  # a new worker's start-up is not the try's time
    except RunError as exc:
        return InfraFault(try_number=order.try_number, kind="worker", message=str(exc))
    try:
        return await asyncio.wait_for(slot.run(order), limit)
    except TimeoutError:
        await slot.kill()
        return InfraFault(
            try_number=order.try_number,
            kind="worker",
            message=(
                f"worker {slot.name} passed the try's deadline ({limit:g}s: the wall limit "
                f"plus {options.grace:g}s grace) and was killed"
            ),
        )
    except WorkerLost as exc:
        return InfraFault(
            try_number=order.try_number, kind="worker", message=f"worker {slot.name} lost: {exc}"
        )
