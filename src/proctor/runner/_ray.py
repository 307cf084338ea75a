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

Ray is kept quiet: usage stats are off in the driver and in everything a local Ray
starts, and a local Ray (``_quiet_local``) runs on loopback without its API server,
the process that, dashboard or not, asks the cloud metadata endpoints what machine
this is; nothing it starts sends a packet off the box. Joining a cluster, only the
driver's side is proctor's: docs/scaling.md says what an operator sets on the nodes.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from proctor.errors import RunError
from proctor.runner._attempt import run_try
from proctor.runner._executor import Slot, TryResult, WorkerLost, WorkOrder
from proctor.runner._leftovers import claim, release
from proctor.runner._worker import RunOptions, SealState, Worker
from proctor.vocab import ExecutorKind

START_TIMEOUT = 180.0
"""Seconds a new actor gets to start Ray's worker, its server and its browser."""


QUIET_ENV = {"RAY_USAGE_STATS_ENABLED": "0"}
"""Set in this process before Ray is imported, whatever the caller's environment or
``~/.ray/config.json`` says, so the driver and every process a local Ray starts inherit
it. Ray's ``ray.init`` turns usage stats off for the cluster it starts only in release
wheels (a nightly reports to usage-stats.ray.io a minute after start, then hourly)."""

LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}
"""For a local Ray only: Ray's switch for a one-machine Ray (its default on macOS and
Windows), which makes loopback the node's address. Without it each Ray process finds
its address by routing a UDP socket towards 8.8.8.8, the daemons listen on every
interface, and their traffic goes through the machine's outward address."""


def _ray() -> Any:
    os.environ.update(QUIET_ENV)
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
        self.worker: Worker | None = None
        self.temp: str | None = None

    async def open(self, run_dir: str, options: RunOptions, clock: dt.datetime) -> SealState:
        folder = Path(run_dir)
        if not folder.is_dir():  # another node: a private folder stands in for the run folder
            self.temp = tempfile.mkdtemp(prefix="proctor-ray-")
            folder = Path(self.temp) / folder.name
            folder.mkdir()
        claim(folder, "worker")
        self.worker = Worker(folder, options, clock=clock)
        await self.worker.start()
        return self.worker.seal

    async def run(self, order: WorkOrder) -> TryResult:
        assert self.worker is not None, "open() comes first"
        return await run_try(self.worker, order.item(), order.try_number)

    async def close(self) -> None:
        if self.worker is not None:
            await self.worker.close()
            release(self.worker.run_dir)
            self.worker = None
        if self.temp is not None:
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


@contextlib.contextmanager
def _quiet_local(ray: Any) -> Iterator[None]:
    """Around ``ray.init`` of a local Ray: on loopback, and without the API server.

    With ``include_dashboard=False`` Ray (2.60) still starts its API server, loading only
    ``UsageStatsHead``, whose start asks 169.254.169.254 and metadata.google.internal
    which cloud this is whether usage stats are on or off
    (``dashboard/modules/usage_stats/usage_stats_head.py``). proctor uses no dashboard,
    job or state API, so Ray's start function for that server is swapped, for the call,
    for one that starts nothing. Ray reads the loopback switch at import, so the
    driver's copy of it is set too. Both are put back once Ray is up: the processes
    started keep the environment they were given, and a later ``ray.init(address=...)``
    in this process finds its node by its real address.

    Raises:
        RunError: when this Ray lacks either hook, rather than start a Ray that talks.
    """
    services: Any = getattr(ray._private, "services", None)
    constants: Any = getattr(ray._private, "ray_constants", None)
    if not (hasattr(services, "start_api_server") and hasattr(constants, "ENABLE_RAY_CLUSTER")):
        raise RunError(
            f"--executor ray: Ray {ray.__version__} has no ray._private.services."
            "start_api_server or ray_constants.ENABLE_RAY_CLUSTER, which proctor needs "
            "to keep a local Ray off the network; install a Ray proctor supports "
            "(pip install 'proctor[ray]') or run with --executor pool"
        )
    saved_env = {key: os.environ.get(key) for key in LOOPBACK_ENV}
    saved = (services.start_api_server, constants.ENABLE_RAY_CLUSTER)
    os.environ.update(LOOPBACK_ENV)
    services.start_api_server = _no_api_server
    constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        services.start_api_server, constants.ENABLE_RAY_CLUSTER = saved
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _no_api_server(*args: object, **kwargs: object) -> tuple[None, None]:
    """Ray's ``start_api_server`` that starts nothing: no dashboard URL, no process."""
    return None, None


def _first(exc: BaseException) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return " | ".join(lines[-2:])[:500] if lines else type(exc).__name__


LOCAL_START_TRIES = 3
"""Starts of a local Ray before the run gives up (each waits up to Ray's own 30 s)."""


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
            # A local Ray gives its raylet a fixed 30 s to register: a loaded machine can
            # miss that, which is the machine's fault, so the start is tried again.
            tries = 1 if self.address else LOCAL_START_TRIES
            for attempt in range(1, tries + 1):
                try:
                    self._init(ray)
                    break
                except RunError:
                    raise
                except Exception as exc:  # Ray's start-up timeout is a bare Exception
                    with contextlib.suppress(Exception):
                        ray.shutdown()  # ends what the failed start left running
                    if attempt == tries:
                        raise RunError(_start_failed(self.address, exc)) from exc
            self._started_ray = True
        actor_class = ray.remote(num_cpus=1)(_ActorWorker)
        self._slots = [
            _RaySlot(i + 1, actor_class, run_dir, options, clock) for i in range(self.workers)
        ]
        await asyncio.gather(*(s.start() for s in self._slots))
        return list(self._slots)

    def _init(self, ray: Any) -> None:
        if self.address:  # the cluster's processes are its operator's (docs/scaling.md)
            ray.init(address=self.address, log_to_driver=False)
            return
        with _quiet_local(ray):
            ray.init(
                address="local",  # a new Ray, never one RAY_ADDRESS or `ray start` left
                num_cpus=self.workers,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
                object_store_memory=128 * 1024 * 1024,
            )

    def seal(self) -> SealState | None:
        return self._slots[0].seal if self._slots else None

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self._slots), return_exceptions=True)
        self._slots = []
        if self._started_ray:
            with contextlib.suppress(Exception):
                _ray().shutdown()
            self._started_ray = False
