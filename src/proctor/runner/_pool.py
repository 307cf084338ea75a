"""The pool executor: ``--workers N`` worker processes on this machine.

Each worker is a Python process in its own session (so one ``killpg`` ends it
with its Playwright driver and Chromium), holding a ``Worker``: its own fixture
server, sealed network and browser. The driver talks to it over two pipes, in
length-prefixed pickle frames:

    driver -> worker   ("open", run_dir, options, clock) | ("try", WorkOrder) | ("close",)
    worker -> driver   ("ready", SealState) | ("done", TryResult) | ("error", message)

A worker that dies mid-try (a crash, a kill, an injected fault) closes its
pipe: the driver reads that as ``WorkerLost`` and starts a new worker for the
slot's next try. A worker's stderr goes to a temp file, whose tail names the
cause when it dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import pickle
import signal
import struct
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from proctor.errors import ProctorError, RunError
from proctor.runner._attempt import run_try
from proctor.runner._executor import Slot, TryResult, WorkerLost, WorkOrder
from proctor.runner._leftovers import claim, release
from proctor.runner._worker import RunOptions, SealState, Worker
from proctor.vocab import ExecutorKind

START_TIMEOUT = 120.0
"""Seconds a new worker gets to start its server and browser."""
CLOSE_TIMEOUT = 30.0
"""Seconds a worker gets to close cleanly before it is killed."""
_HEADER = struct.Struct(">Q")
_PR_SET_PDEATHSIG = 1
_CHILD = "import sys; from proctor.runner._pool import child_main; child_main(*sys.argv[1:])"


def _frame(message: Any) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exact(fd: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _read_frame(fd: int) -> Any:
    """The next message, or None at end of file."""
    header = _read_exact(fd, _HEADER.size)
    if header is None:
        return None
    data = _read_exact(fd, _HEADER.unpack(header)[0])
    return None if data is None else pickle.loads(data)


class _PoolSlot:
    """One worker process; started on first use and after each loss."""

    def __init__(self, index: int, run_dir: Path, options: RunOptions, clock: dt.datetime):
        self.name = f"pool-{index}"
        self._open = ("open", run_dir, options, clock)
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.StreamReader | None = None
        self._transports: list[asyncio.BaseTransport] = []
        self._writer: asyncio.WriteTransport | None = None
        self._log: Path | None = None
        self.seal: SealState | None = None

    async def start(self) -> None:
        to_child, to_child_w = os.pipe()
        from_child_r, from_child = os.pipe()
        fd, log = tempfile.mkstemp(prefix=f"proctor-{self.name}-", suffix=".log")
        self._log = Path(log)
        try:
            self._process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                _CHILD,
                str(to_child),
                str(from_child),
                pass_fds=(to_child, from_child),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=fd,
                stderr=fd,
                start_new_session=True,
            )
        finally:
            os.close(fd)
            os.close(to_child)
            os.close(from_child)
        loop = asyncio.get_running_loop()
        self._reader = asyncio.StreamReader(limit=1 << 30)
        protocol = asyncio.StreamReaderProtocol(self._reader)
        read_end = os.fdopen(from_child_r, "rb", buffering=0)
        write_end = os.fdopen(to_child_w, "wb", buffering=0)
        reading, _ = await loop.connect_read_pipe(lambda: protocol, read_end)
        writing, _ = await loop.connect_write_pipe(asyncio.Protocol, write_end)
        self._writer = writing
        self._transports = [reading, writing]
        try:
            reply = await asyncio.wait_for(self._call(self._open), START_TIMEOUT)
        except (TimeoutError, WorkerLost) as exc:
            await self.kill()
            raise RunError(f"worker {self.name} did not start: {exc}") from exc
        self.seal = reply

    async def _call(self, message: tuple[Any, ...]) -> Any:
        """Send one message and await the reply (``WorkerLost`` when the worker is gone)."""
        if self._writer is None or self._reader is None or self._writer.is_closing():
            raise WorkerLost("the worker is not running")
        self._writer.write(_frame(message))
        try:
            header = await self._reader.readexactly(_HEADER.size)
            reply = pickle.loads(await self._reader.readexactly(_HEADER.unpack(header)[0]))
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            code = await self._exit_code()
            raise WorkerLost(f"the worker process ended (exit {code}); {self._tail()}") from exc
        kind, payload = reply
        if kind == "error":
            raise RunError(f"worker {self.name}: {payload}")
        return payload

    async def ready(self) -> None:
        if self._process is None:
            await self.start()

    async def run(self, order: WorkOrder) -> TryResult:
        await self.ready()
        try:
            result: TryResult = await self._call(("try", order))
        except WorkerLost:
            await self.kill()
            raise
        except asyncio.CancelledError:
            # Ctrl-C or a deadline mid-try: the worker is still busy with it, and its
            # reply would be read as the next one's; it goes with its browser.
            await asyncio.shield(self.kill())
            raise
        return result

    async def _exit_code(self) -> int | None:
        if self._process is None:
            return None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._process.wait(), 5)
        return self._process.returncode

    def _tail(self) -> str:
        try:
            text = self._log.read_text(errors="replace") if self._log else ""
        except OSError:
            text = ""
        lines = [line for line in text.splitlines() if line.strip()]
        return "its last words: " + " | ".join(lines[-3:])[-600:] if lines else "it said nothing"

    async def kill(self) -> None:
        """SIGKILL the worker's whole session (browser and driver included) and reap it."""
        process, self._process = self._process, None
        for transport in self._transports:
            transport.close()
        self._transports, self._writer, self._reader = [], None, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
        self._drop_log()

    def _drop_log(self) -> None:
        if self._log is not None:
            self._log.unlink(missing_ok=True)
            self._log = None

    async def close(self) -> None:
        if self._process is None:
            return
        with contextlib.suppress(TimeoutError, WorkerLost, RunError):
            await asyncio.wait_for(self._call(("close",)), CLOSE_TIMEOUT)
        await self.kill()


class PoolExecutor:
    """N worker processes on this machine, one attempt at a time each."""

    kind: ExecutorKind = "pool"

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise RunError(f"--workers must be at least 1, got {workers}")
        self.workers = workers
        self._slots: list[_PoolSlot] = []

    async def open(self, run_dir: Path, options: RunOptions, clock: dt.datetime) -> list[Slot]:
        self._slots = [_PoolSlot(i + 1, run_dir, options, clock) for i in range(self.workers)]
        await asyncio.gather(*(s.start() for s in self._slots))
        return list(self._slots)

    def seal(self) -> SealState | None:
        return self._slots[0].seal if self._slots else None

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self._slots), return_exceptions=True)


def child_main(to_child: str, from_child: str) -> None:
    """A pool worker's process: serve tries until told to close or the pipe ends.

    It dies with the driver (``PR_SET_PDEATHSIG``): a driver killed with -9
    leaves no worker running on.
    """
    _die_with_parent()
    asyncio.run(_serve(int(to_child), int(from_child)))


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:  # the driver died before the line above
        os._exit(1)


async def _serve(rfd: int, wfd: int) -> None:
    worker: Worker | None = None

    def send(kind: str, payload: Any) -> None:
        _write_all(wfd, _frame((kind, payload)))

    try:
        while True:
            message = await asyncio.to_thread(_read_frame, rfd)
            if message is None or message[0] == "close":
                if message is not None:
                    if worker is not None:
                        await worker.close()
                        release(worker.run_dir)
                        worker = None
                    send("closed", None)
                return
            try:
                if message[0] == "open":
                    _, run_dir, options, clock = message
                    claim(run_dir, "worker")
                    worker = Worker(run_dir, options, clock=clock)
                    await worker.start()
                    send("ready", worker.seal)
                elif message[0] == "try" and worker is not None:
                    order: WorkOrder = message[1]
                    send("done", await run_try(worker, order.item(), order.try_number))
                else:
                    send("error", f"unexpected message {message[0]!r}")
            except ProctorError as exc:
                send("error", str(exc))
            except Exception as exc:  # a bug, not a fault: the driver stops the run on it
                where = traceback.format_exc(limit=-3).strip().splitlines()
                send("error", f"{type(exc).__name__}: {exc} ({' | '.join(where[-4:])})")
    finally:
        if worker is not None:
            await worker.close()
            release(worker.run_dir)
