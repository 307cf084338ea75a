"""An external agent's process tree: spawn it in its own group, end it, reap it.

PID 1 on the machines proctor runs on may not reap orphans, so the harness
makes itself a child subreaper (Linux) before it spawns an agent: a
grandchild whose parent dies is re-parented to the harness, which reaps it.
Every wait here has a deadline, and exits are awaited through pidfds, never
by sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

TERM_GRACE = 3.0
"""Seconds the tree gets to exit after SIGTERM before SIGKILL."""
KILL_WAIT = 5.0
"""Seconds to wait for the tree to die after SIGKILL."""

_PR_SET_CHILD_SUBREAPER = 36


@functools.cache
def become_subreaper() -> bool:
    """Make this process the reaper of its orphaned descendants (Linux); True on success."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


class AgentProcess:
    """A spawned command: its process, and an event set the moment its root process exits.

    ``asyncio``'s ``Process.wait`` also waits for the pipes to close, which a
    left-behind grandchild can hold open; ``exited`` watches the process itself.
    """

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.exited = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._fd: int | None = None
        self._waiter: asyncio.Task[int] | None = None
        try:
            self._fd = os.pidfd_open(process.pid)
        except ProcessLookupError:  # exited and reaped already
            self.exited.set()
        except OSError:  # no pidfds here: fall back on the pipes-inclusive wait
            self._waiter = asyncio.create_task(process.wait())
            self._waiter.add_done_callback(lambda _t: self.exited.set())
        else:
            self._loop.add_reader(self._fd, self._on_exit)

    @property
    def pid(self) -> int:
        return self.process.pid

    def _on_exit(self) -> None:
        self.close()
        self.exited.set()

    def close(self) -> None:
        """Stop watching (idempotent)."""
        if self._fd is not None:
            self._loop.remove_reader(self._fd)
            os.close(self._fd)
            self._fd = None
        if self._waiter is not None and not self._waiter.done():
            self._waiter.cancel()


async def spawn(
    command: str, env: Mapping[str, str], jail: Sequence[str] | None = None
) -> AgentProcess:
    """Start ``command`` in a shell, in a new session (its own process group), piped.

    Args:
        jail: The argv of ``_jail.jail_argv``: the command then runs inside it (it
            reads the command line from ``PROCTOR_JAIL_COMMAND``).
    """
    become_subreaper()
    pipe = asyncio.subprocess.PIPE
    if jail is None:
        process = await asyncio.create_subprocess_shell(
            command, stdin=pipe, stdout=pipe, stderr=pipe, env=dict(env), start_new_session=True
        )
    else:
        process = await asyncio.create_subprocess_exec(
            *jail,
            stdin=pipe,
            stdout=pipe,
            stderr=pipe,
            env={**env, "PROCTOR_JAIL_COMMAND": command},
            start_new_session=True,
        )
    return AgentProcess(process)


def _stat(pid: int) -> tuple[int, int, int] | None:
    """(ppid, pgrp, session) of a live or zombie process, None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return int(fields[1]), int(fields[2]), int(fields[3])


def tree(root: int) -> set[int]:
    """``root``, its process group and session, and every descendant (by parent links)."""
    table: dict[int, tuple[int, int, int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                table[int(entry.name)] = stat
    members = {pid for pid, (_, pgrp, sid) in table.items() if root in (pgrp, sid)}
    if root in table:
        members.add(root)
    grew = True
    while grew:
        children = {pid for pid, (ppid, _, _) in table.items() if ppid in members}
        grew = not children <= members
        members |= children
    return members


async def wait_exited(pids: set[int], timeout: float) -> set[int]:
    """Wait until every pid has exited (zombies count as exited); return those still running."""
    loop = asyncio.get_running_loop()
    fds: dict[int, int] = {}
    for pid in pids:
        try:
            fds[pid] = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
    running = set(fds)
    all_exited = asyncio.Event()

    def exited(pid: int) -> None:
        loop.remove_reader(fds[pid])
        running.discard(pid)
        if not running:
            all_exited.set()

    try:
        for pid, fd in fds.items():
            loop.add_reader(fd, exited, pid)
        if running:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(all_exited.wait(), timeout)
    finally:
        for fd in fds.values():
            loop.remove_reader(fd)
            os.close(fd)
    return running


def _signal(pids: set[int], group: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, sig)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


async def end_tree(
    process: asyncio.subprocess.Process, *, grace: float = TERM_GRACE, kill_wait: float = KILL_WAIT
) -> set[int]:
    """SIGTERM the process's group and descendants, SIGKILL what is left, reap them all.

    Returns:
        The pids that still run after the last deadline (empty when all ended).
    """
    root = process.pid
    members = tree(root)
    if process.returncode is not None:
        # Reaped already: its pid may belong to someone else now (the group id stays ours).
        members.discard(root)
    running = members
    if members:
        _signal(members, root, signal.SIGTERM)
        running = await wait_exited(members, grace)
        if running:
            members |= tree(root) - ({root} if process.returncode is not None else set())
            _signal(members, root, signal.SIGKILL)
            running = await wait_exited(members, kill_wait)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(process.wait(), kill_wait)
    _reap(members - {root})
    return running


def _reap(pids: set[int]) -> None:
    """Collect the exit status of descendants re-parented to this (subreaper) process."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
