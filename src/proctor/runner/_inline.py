"""The inline executor: one worker in this process, the default."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

from proctor.runner._attempt import run_try
from proctor.runner._executor import Slot, TryResult, WorkOrder
from proctor.runner._worker import RunOptions, SealState, Worker
from proctor.vocab import ExecutorKind


class _InlineSlot:
    """The worker of this process; a try past its deadline is cancelled, not killed."""

    name = "inline"

    def __init__(self, run_dir: Path, options: RunOptions, clock: dt.datetime) -> None:
        self._args = (run_dir, options, clock)
        self.worker: Worker | None = None

    async def start(self) -> None:
        run_dir, options, clock = self._args
        worker = Worker(run_dir, options, clock=clock)
        try:
            await worker.start()
        except BaseException:
            await worker.close()
            raise
        self.worker = worker

    async def ready(self) -> None:
        if self.worker is None:
            await self.start()

    async def run(self, order: WorkOrder) -> TryResult:
        await self.ready()
        assert self.worker is not None
        return await run_try(self.worker, order.item(), order.try_number)

    async def kill(self) -> None:
        """The cancelled try tore itself down; the browser is replaced for the next one."""
        if self.worker is not None:
            try:
                await asyncio.wait_for(self.worker.relaunch(), 60)
            except BaseException:
                await self.close()
                raise

    async def close(self) -> None:
        if self.worker is not None:
            await self.worker.close()
            self.worker = None


class InlineExecutor:
    """One worker in this process: today's single-worker run."""

    kind: ExecutorKind = "inline"

    def __init__(self) -> None:
        self._slot: _InlineSlot | None = None

    async def open(self, run_dir: Path, options: RunOptions, clock: dt.datetime) -> list[Slot]:
        self._slot = _InlineSlot(run_dir, options, clock)
        await self._slot.start()
        return [self._slot]

    def seal(self) -> SealState | None:
        worker = self._slot.worker if self._slot else None
        return worker.seal if worker else None

    async def close(self) -> None:
        if self._slot is not None:
            await self._slot.close()
