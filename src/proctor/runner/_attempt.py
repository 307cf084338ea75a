"""One attempt, end to end: its tries, each one the phases in order.

1. set up the world      ``_setup.set_up_world``
2. start the computer    ``_start.start_computer``, then before.png
3. drive the agents      ``_drive.drive_agents``
4. read the end state    ``_endstate.read_facts`` (before teardown), ``end_state`` (after)
5. grade                 ``_grade.grade_try``
6. record                ``_record.graded_output`` (the driver writes it: ``write_attempt``)

``Phases`` times them. A try is named by its ``TryId`` (``<attempt>#<try>``).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from proctor._inject import attempt_scope
from proctor.computer.browser import BrowserComputer, Recorder
from proctor.computer.desktop import DesktopComputer
from proctor.errors import InfraFault
from proctor.records import AttemptRecord, TryId
from proctor.records import InfraFault as InfraRecord
from proctor.runner._drive import drive_agents
from proctor.runner._endstate import end_state, read_facts
from proctor.runner._grade import grade_try
from proctor.runner._injection import inject_at
from proctor.runner._phases import Phases
from proctor.runner._plan import PlanItem
from proctor.runner._record import (
    AttemptOutput,
    attempt_folder,
    finish_attempt,
    graded_output,
    skipped_record,
    write_attempt,
)
from proctor.runner._setup import set_up_world
from proctor.runner._start import close_computer, start_computer
from proctor.runner._worker import Worker
from proctor.world import remove_scratch


async def run_attempt(worker: Worker, item: PlanItem, *, write: bool = True) -> AttemptRecord:
    """Run one attempt in this worker, retrying infra faults, and write its folder.

    The in-process path (``proctor verify``, tests): the run's executors
    schedule tries themselves (``run_try``) so that a retry may run on another
    worker. An infra fault is retried up to ``options.infra_retries`` times,
    after the options' retry delays; if every try faults, the attempt's result
    is ``error``, which is never scored against the agent.
    """
    if item.skip:
        return skipped_record(worker.run_dir, item, item.skip, write=write)
    faults: list[InfraRecord] = []
    output: AttemptOutput | None = None
    for try_number in range(1, worker.options.infra_retries + 2):
        if faults:
            await asyncio.sleep(worker.options.retry_delay(len(faults)))
        done = await run_try(worker, item, try_number)
        if isinstance(done, InfraRecord):
            faults.append(done)
            continue
        output = done
        break
    output = finish_attempt(item, output, faults)
    if write:
        write_attempt(worker.run_dir, attempt_folder(worker.run_dir, item), output)
    return output.record


async def run_try(worker: Worker, item: PlanItem, try_number: int) -> AttemptOutput | InfraRecord:
    """One try of an attempt, as data: its graded output, or the infra fault that ended it.

    Any ``InfraFault`` ends the try, recorded under the fault's own ``kind``. A
    browser fault relaunches the worker's browser before this returns, so the
    next try (of this attempt or another) starts on a live one.
    """
    started, t0 = time.time(), time.perf_counter()
    held: list[Recorder] = []
    try:
        return await _one_try(worker, item, try_number, held)
    except InfraFault as exc:
        seconds = round(time.perf_counter() - t0, 3)
        if exc.kind == "browser":
            await worker.relaunch()
        return InfraRecord(
            try_number=try_number,
            kind=exc.kind,
            message=str(exc),
            started_at=started,
            seconds=seconds,
            events=list(held[0].events) if held else [],
        )


async def _one_try(
    worker: Worker, item: PlanItem, try_number: int, held: list[Recorder]
) -> AttemptOutput:
    """One try; whatever ends it early, its scratch folder goes (unless kept). The try's
    recorder is put in ``held`` as soon as it exists, so a fault keeps its trace."""
    try_id = TryId(item.attempt_id, try_number)
    scratch = worker.run_dir / "scratch" / try_id.folder_name
    try:
        with attempt_scope(str(try_id)):
            return await _phases(worker, item, try_id, scratch, held)
    except BaseException:
        if not worker.options.keep_scratch:
            remove_scratch(scratch)
        raise


async def _phases(
    worker: Worker, item: PlanItem, try_id: TryId, scratch: Path, held: list[Recorder]
) -> AttemptOutput:
    """The try's phases, in order; the computer and the try's world go whatever happens."""
    started = time.time()
    phases = Phases()
    computer: BrowserComputer | DesktopComputer | None = None
    artifacts: dict[str, bytes] = {}
    with phases.phase("setup"):
        setup = set_up_world(worker, item, try_id, scratch)
    held.append(setup.recorder)
    try:
        with phases.phase("setup"):
            computer = await start_computer(worker, item, setup)
        if worker.options.screenshots:
            with phases.phase("before_png"):
                before = await computer.screenshot_bytes()
            if before is not None:
                artifacts["before.png"] = before
        if isinstance(computer, BrowserComputer) and worker.spare == "agent":
            worker.host.prepare_spare()  # the next attempt's context, made while the agent runs
        with phases.phase("agent"):
            driven = await drive_agents(worker, item, setup, computer)
        inject_at(worker, setup.tag, "done")
        with phases.phase("end_state"):
            facts = await read_facts(worker, setup, computer, driven.outcome)
        if facts.page.png is not None:
            artifacts["after.png"] = facts.page.png
    finally:
        with phases.phase("teardown"):
            worker.server.end(setup.tag)
            if computer is not None:
                await close_computer(computer)
    if isinstance(computer, BrowserComputer) and worker.spare == "after":
        # The next attempt's context, made while this one's end state is read, graded
        # and written, and while the driver starts the next: off every agent's path.
        worker.host.prepare_spare()
    with phases.phase("end_state"):
        end = await end_state(worker, setup, facts, driven.outcome)
    graded = await grade_try(worker, setup, end, phases)
    if not worker.options.keep_scratch:
        with phases.phase("teardown"):
            remove_scratch(scratch)
    return graded_output(
        item,
        started_at=started,
        timing=phases.done(),
        agent=setup.agent.kind,
        outcome=driven.outcome,
        error=driven.error,
        account=driven.account,
        recorder=setup.recorder,
        checks=graded.checks,
        verdicts=graded.verdicts,
        end=end,
        artifacts=artifacts,
    )
