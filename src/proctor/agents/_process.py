"""An external agent's process tree: spawn it in its own group, end it, reap it.

PID 1 on the machines proctor runs on may not reap orphans, so the harness
makes itself a child subreaper (Linux) before it spawns an agent: a
grandchild whose parent dies is re-parented to the harness, which reaps it.
Every wait here has a deadline, and exits are awaited through pidfds, never
by sleeping.

Parent links and process groups do not find everything: a grandchild that
leaves with ``(setsid cmd &)`` is re-parented to the harness in a session of its
own. So every spawned command carries a mark in its environment
(``PROCTOR_AGENT_MARK=<token>``), inherited by all it starts, and ``end_tree``
also ends every live process that carries its mark (``marked``). The spawned
process gets ``PR_SET_PDEATHSIG = SIGKILL`` before it execs, so it dies with the
harness, even of ``kill -9``; in the jail, ``unshare --kill-child`` passes that
on to the PID namespace, whose end kills all in it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import os
import secrets
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

TERM_GRACE = 3.0
"""Seconds the tree gets to exit after SIGTERM before SIGKILL."""
KILL_WAIT = 5.0
"""Seconds to wait for the tree to die after SIGKILL."""

ATTEMPT_ENV = "PROCTOR_AGENT_MARK"
"""The environment variable that marks every process of one spawned command."""

_PR_SET_PDEATHSIG = 1
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


@functools.cache
def _prctl() -> Callable[..., int] | None:
    """libc's ``prctl``, resolved in the parent: the forked child only calls it."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return prctl


def _die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child get SIGKILL when this process dies.

    The child checks its parent afterwards: a harness that died between the fork
    and the ``prctl`` would leave it running otherwise.
    """
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()
    kill = int(signal.SIGKILL)

    def preexec() -> None:
        if prctl(_PR_SET_PDEATHSIG, kill, 0, 0, 0) != 0 or os.getppid() != parent:
            os._exit(70)

    return preexec


class AgentProcess:
    """A spawned command: its process, its mark, and an event set the moment its root exits.

    ``asyncio``'s ``Process.wait`` also waits for the pipes to close, which a
    left-behind grandchild can hold open; ``exited`` watches the process itself.

    Attributes:
        mark: The value of ``PROCTOR_AGENT_MARK`` that every process of this command
            inherits (``marked(mark)`` finds them).
    """

    def __init__(self, process: asyncio.subprocess.Process, mark: str) -> None:
        self.process = process
        self.mark = mark
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

    The process gets a fresh ``PROCTOR_AGENT_MARK`` in its environment and dies
    with this process (``PR_SET_PDEATHSIG``).

    Args:
        jail: The argv of ``_jail.jail_argv``: the command then runs inside it (it
            reads the command line from ``PROCTOR_JAIL_COMMAND``).
    """
    become_subreaper()
    pipe = asyncio.subprocess.PIPE
    mark = secrets.token_hex(8)
    marked_env = {**env, ATTEMPT_ENV: mark}
    preexec = _die_with_parent()
    if jail is None:
        process = await asyncio.create_subprocess_shell(
            command,
            stdin=pipe,
            stdout=pipe,
            stderr=pipe,
            env=marked_env,
            start_new_session=True,
            preexec_fn=preexec,
        )
    else:
        process = await asyncio.create_subprocess_exec(
            *jail,
            stdin=pipe,
            stdout=pipe,
            stderr=pipe,
            env={**marked_env, "PROCTOR_JAIL_COMMAND": command},
            start_new_session=True,
            preexec_fn=preexec,
        )
    return AgentProcess(process, mark)


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()


def _stat(pid: int) -> tuple[int, int, int] | None:
    """(ppid, pgrp, session) of a live or zombie process, None if it is gone."""
    fields = _stat_fields(pid)
    if fields is None:
        return None
    return int(fields[1]), int(fields[2]), int(fields[3])


def _running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    fields = _stat_fields(pid)
    return fields is not None and fields[0] != "Z"


def environ_has(pid: int, entry: bytes) -> bool:
    """Whether the process's environment (as it was at exec) holds ``entry`` (``NAME=value``).

    False for a gone, zombie or unreadable process.
    """
    try:
        data = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False
    return entry in data.split(b"\0")


def marked(mark: str) -> set[int]:
    """Every live pid (not this process) whose environment holds ``PROCTOR_AGENT_MARK=<mark>``.

    One pass over /proc; processes that are gone or unreadable are skipped.
    """
    entry = f"{ATTEMPT_ENV}={mark}".encode()
    me = os.getpid()
    found: set[int] = set()
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != me and environ_has(int(name), entry):
            found.add(int(name))
    return found


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


@dataclass(frozen=True)
class Ended:
    """What ``end_tree`` found.

    Attributes:
        left: Pids that still ran after the last deadline (empty when all ended).
        escaped: Pids found only by their mark: outside the tree's parent links,
            group and session (a ``setsid`` escape); they were ended too.
    """

    left: frozenset[int]
    escaped: frozenset[int]


KILL_ROUNDS = 3
"""SIGKILL passes at most: each scans again for what was forked meanwhile."""


async def end_tree(
    process: asyncio.subprocess.Process,
    *,
    mark: str | None = None,
    grace: float = TERM_GRACE,
    kill_wait: float = KILL_WAIT,
) -> Ended:
    """SIGTERM the process's group, descendants and marked processes, SIGKILL the rest, reap all.

    Args:
        mark: The command's ``PROCTOR_AGENT_MARK`` (``AgentProcess.mark``); every
            process carrying it is ended as well.

    Returns:
        What still ran after the last deadline, and what was found only by the mark.
    """
    root = process.pid
    by_tree: set[int] = set()
    by_mark: set[int] = set()

    def scan() -> set[int]:
        found = tree(root)
        if process.returncode is not None:
            # Reaped already: its pid may belong to someone else now (the group id stays ours).
            found.discard(root)
        found.discard(os.getpid())
        by_tree.update(found)
        if mark is not None:
            extra = marked(mark) - found
            by_mark.update(extra)
            found |= extra
        return found

    members = scan()
    still: set[int] = set()
    if members:
        _signal(members, root, signal.SIGTERM)
        still = await wait_exited(members, grace)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + kill_wait
    for _ in range(KILL_ROUNDS):
        found = scan()
        members |= found
        live = {pid for pid in found if _running(pid)} | still
        if not live:
            break
        _signal(live, root, signal.SIGKILL)
        still = await wait_exited(live, max(0.0, deadline - loop.time()))
        if loop.time() >= deadline:
            break
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(process.wait(), max(1.0, deadline - loop.time()))
    left = still | {pid for pid in scan() if _running(pid)}
    # A member re-parented here (the jail's PID-namespace init, once unshare is gone)
    # may still be ending: it waits for its namespace to empty. Wait for it (bounded),
    # then reap, so that neither it nor its namespace outlives this call.
    stats = {pid: _stat(pid) for pid in members - {root} - left}
    ours = {pid for pid, stat in stats.items() if stat is not None and stat[0] == os.getpid()}
    left |= await wait_exited(ours, max(0.5, deadline - loop.time()))
    _reap(members - {root})
    return Ended(left=frozenset(left), escaped=frozenset(by_mark - by_tree))


def _reap(pids: set[int]) -> None:
    """Collect the exit status of descendants re-parented to this (subreaper) process."""
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
