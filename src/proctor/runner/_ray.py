"""The Ray executor: one Ray actor per worker, on this machine or across a cluster.

Without an address it starts Ray locally (``num_cpus`` = workers, no
dashboard); with ``--ray-address`` it joins a running cluster. Each actor
holds a ``Worker`` (its own fixture server, sealed network and browser) and
returns each try as data: the record, the trace and the screenshots travel back
through Ray's object store, and only the driver writes ``results/<label>/``, so
nodes need no shared disk. A worker's scratch folders live under the run folder
when that path exists on its node (local Ray), else under a temp folder there.

A try past its deadline is ended with ``ray.kill`` on its actor (Ray cannot
cancel a running actor task by force) and the slot makes a new actor; an actor
that dies (its node lost, a kill) is a ``worker`` fault, retried like any other.
Ray is an extra: ``pip install 'proctor[ray]'``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import tempfile
from pathlib import Path
from typing import Any

from proctor.errors import RunError
from proctor.runner._executor import ExecutorKind, Slot, TryResult, WorkerLost, WorkOrder
from proctor.runner._worker import RunOptions, SealState

START_TIMEOUT = 180.0
"""Seconds a new actor gets to start Ray's worker, its server and its browser."""


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise RunError(
            "--executor ray needs Ray: pip install 'proctor[ray]' (or use --executor pool)"
        ) from exc
    return ray


class _ActorWorker:
    """The body of a Ray actor: one ``Worker`` serving one try at a time."""

    def __init__(self) -> None:
        self.worker: Any = None
        self.temp: str | None = None

    async def open(self, run_dir: str, options: RunOptions, clock: dt.datetime) -> SealState:
        from proctor.runner._leftovers import claim
        from proctor.runner._worker import Worker

        folder = Path(run_dir)
        if not folder.is_dir():  # another node: a private folder stands in for the run folder
            self.temp = tempfile.mkdtemp(prefix="proctor-ray-")
            folder = Path(self.temp) / folder.name
            folder.mkdir()
        claim(folder, "worker")
        self.worker = Worker(folder, options, clock=clock)
        await self.worker.start()
        seal: SealState = self.worker.seal
        return seal

    async def run(self, order: WorkOrder) -> TryResult:
        from proctor.runner._attempt import run_try

        return await run_try(self.worker, order.item(), order.try_number)

    async def close(self) -> None:
        from proctor.runner._leftovers import release

        if self.worker is not None:
            await self.worker.close()
            release(self.worker.run_dir)
            self.worker = None
        if self.temp is not None:
            import shutil

            shutil.rmtree(self.temp, ignore_errors=True)

    def pid(self) -> int:
        return os.getpid()


class _RaySlot:
    def __init__(
        self, index: int, actor_class: Any, run_dir: Path, options: RunOptions, clock: dt.datetime
    ) -> None:
        self.name = f"ray-{index}"
        self._class = actor_class
        self._open = (str(run_dir), options, clock)
        self._actor: Any = None
        self.seal: SealState | None = None

    async def start(self) -> None:
        ray = _ray()
        self._actor = self._class.options(name=None, max_restarts=0, max_task_retries=0).remote()
        try:
            self.seal = await asyncio.wait_for(self._actor.open.remote(*self._open), START_TIMEOUT)
        except ray.exceptions.RayActorError as exc:
            await self.kill()
            raise RunError(f"worker {self.name} did not start: {_first(exc)}") from exc
        except ray.exceptions.RayTaskError as exc:
            await self.kill()
            raise RunError(f"worker {self.name} did not start: {_first(exc)}") from exc
        except TimeoutError as exc:
            await self.kill()
            raise RunError(f"worker {self.name} did not start within {START_TIMEOUT:g}s") from exc

    async def ready(self) -> None:
        if self._actor is None:
            await self.start()

    async def run(self, order: WorkOrder) -> TryResult:
        ray = _ray()
        await self.ready()
        try:
            result: TryResult = await self._actor.run.remote(order)
        except asyncio.CancelledError:
            await asyncio.shield(self.kill())  # Ctrl-C or a deadline: the actor goes
            raise
        except ray.exceptions.RayActorError as exc:
            await self.kill()
            raise WorkerLost(_first(exc)) from exc
        except ray.exceptions.RayTaskError as exc:
            raise RunError(f"worker {self.name}: {_first(exc)}") from exc
        return result

    async def kill(self) -> None:
        actor, self._actor = self._actor, None
        if actor is not None:
            with contextlib.suppress(Exception):
                _ray().kill(actor, no_restart=True)

    async def close(self) -> None:
        if self._actor is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._actor.close.remote(), 30)
        await self.kill()


def _first(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return " | ".join(lines[-2:])[:500] if lines else type(exc).__name__


def _start_failed(address: str | None, exc: Exception) -> str:
    """What to say, on one line, when Ray would not start or join: what, and what to do."""
    said = " ".join(str(exc).split()) or type(exc).__name__
    if address:
        return (
            f"--executor ray: could not join the Ray cluster at {address}: {said}; check it "
            f"is up (`ray status --address {address}`), or run with --executor pool"
        )
    return (
        f"--executor ray: could not start a local Ray: {said}; a loaded machine may need "
        "another try, else check free memory and /tmp/ray, or run with --executor pool"
    )


class RayExecutor:
    """Workers as Ray actors; starts a local Ray unless given a cluster address."""

    kind: ExecutorKind = "ray"

    def __init__(self, workers: int, *, address: str | None = None) -> None:
        if workers < 1:
            raise RunError(f"--workers must be at least 1, got {workers}")
        _ray()  # refuse now, not after the plan started
        self.workers = workers
        self.address = address
        self._slots: list[_RaySlot] = []
        self._started_ray = False

    async def open(self, run_dir: Path, options: RunOptions, clock: dt.datetime) -> list[Slot]:
        ray = _ray()
        if not ray.is_initialized():
            try:
                if self.address:
                    ray.init(address=self.address, log_to_driver=False)
                else:
                    ray.init(
                        num_cpus=self.workers,
                        include_dashboard=False,
                        log_to_driver=False,
                        configure_logging=False,
                        object_store_memory=128 * 1024 * 1024,
                    )
            except Exception as exc:  # Ray's start-up timeout is a bare Exception
                raise RunError(_start_failed(self.address, exc)) from exc
            self._started_ray = True
        actor_class = ray.remote(num_cpus=1)(_ActorWorker)
        self._slots = [
            _RaySlot(i + 1, actor_class, run_dir, options, clock) for i in range(self.workers)
        ]
        await asyncio.gather(*(s.start() for s in self._slots))
        return list(self._slots)

    def seal(self) -> SealState | None:
        return self._slots[0].seal if self._slots else None

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self._slots), return_exceptions=True)
        self._slots = []
        if self._started_ray:
            with contextlib.suppress(Exception):
                _ray().shutdown()
            self._started_ray = False
