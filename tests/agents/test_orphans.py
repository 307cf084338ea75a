"""Nothing a command agent starts outlives its attempt or the harness, even with ``setsid``.

The agents here are shell one-liners run through ``spawn``/``end_tree`` directly
(no browser). An escape is ``(setsid sleep 1000 & echo $!)``: the subshell exits,
so the sleep is re-parented to this (subreaper) process in a session of its own,
out of reach of parent links, group and session. Every process started here is
ended and reaped by the test that started it; every wait has a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from proctor.agents import ATTEMPT_ENV
from proctor.agents._jail import View, available, hold_folder, jail_argv, release_hold
from proctor.agents._process import AgentProcess, become_subreaper, end_tree, marked, spawn, tree

DEADLINE = 10.0
ESCAPE = "(setsid sleep 1000 & echo $!); echo ready; exec sleep 1000"


def gone(pid: int) -> bool:
    """The process has exited; a zombie child of this process is reaped on the way."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    if text[text.rfind(")") + 2] != "Z":
        return False
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    return True


def wait_gone(pids: set[int], timeout: float = DEADLINE) -> set[int]:
    """Poll /proc until every pid is gone or the deadline passes; those still running."""
    end = time.monotonic() + timeout
    running = set(pids)
    while running and time.monotonic() < end:
        running = {pid for pid in running if not gone(pid)}
        if running:
            time.sleep(0.02)
    return running


def kill_and_reap(pids: set[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert wait_gone(pids) == set()


@pytest.fixture
def jail(tmp_path: Path) -> Iterator[list[str]]:
    """A jail's argv that hides one folder; its hold folder removed afterwards."""
    if available() is not None:
        pytest.skip(f"no jail on this machine: {available()}")
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    hold = hold_folder([hidden])
    yield jail_argv(View(hide=(hidden,)), hold)
    release_hold(hold)


@contextlib.asynccontextmanager
async def agent_of(command: str, jail: list[str] | None) -> AsyncIterator[AgentProcess]:
    """A spawned agent; whatever the test leaves of it is killed and reaped."""
    agent = await spawn(command, dict(os.environ), jail)
    try:
        yield agent
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(agent.pid, signal.SIGKILL)
        kill_and_reap(marked(agent.mark))
        await asyncio.wait_for(agent.process.wait(), DEADLINE)
        agent.close()


async def lines(agent: AgentProcess, count: int) -> list[str]:
    stdout = agent.process.stdout
    assert stdout is not None
    return [
        (await asyncio.wait_for(stdout.readline(), DEADLINE)).decode().strip() for _ in range(count)
    ]


async def escaped(pid: int) -> None:
    """Wait (bounded) until ``pid`` has left: in a session of its own (setsid ran) and
    re-parented to this process, the subreaper (the subshell that started it exited).
    Under load the echo of its pid can come before either has happened."""
    deadline = time.monotonic() + DEADLINE
    while True:
        text = Path(f"/proc/{pid}/stat").read_text()
        fields = text[text.rfind(")") + 2 :].split()
        if int(fields[1]) == os.getpid() and int(fields[3]) == pid:
            return
        assert time.monotonic() < deadline, f"{pid} did not escape: stat {fields[:4]}"
        await asyncio.sleep(0.01)


def ppid(pid: int) -> int:
    text = Path(f"/proc/{pid}/stat").read_text()
    return int(text[text.rfind(")") + 2 :].split()[1])


async def test_a_setsid_escape_is_ended_and_reported_as_escaped() -> None:
    async with agent_of(ESCAPE, None) as agent:
        escaped_pid, ready = await lines(agent, 2)
        pid = int(escaped_pid)
        assert ready == "ready"
        await escaped(pid)
        assert pid not in tree(agent.pid)  # what the old scan missed
        assert pid in marked(agent.mark)
        ended = await end_tree(agent.process, mark=agent.mark, grace=1.0)
        assert ended.left == frozenset()
        assert ended.escaped == frozenset({pid})
        assert not Path(f"/proc/{pid}").exists()  # killed and reaped
        assert agent.process.returncode is not None


async def test_without_the_mark_the_escape_survives_and_left_says_nothing() -> None:
    """The bug of issue 12, kept visible: parent links alone miss the escape."""
    async with agent_of(ESCAPE, None) as agent:
        pid = int((await lines(agent, 2))[0])
        await escaped(pid)
        ended = await end_tree(agent.process, grace=1.0)
        assert ended.left == frozenset() and ended.escaped == frozenset()
        assert not gone(pid)
        kill_and_reap({pid})


async def test_in_the_jail_the_escape_stays_in_its_pid_namespace_and_dies_with_it(
    jail: list[str],
) -> None:
    async with agent_of(ESCAPE, jail) as agent:
        inner, ready = await lines(agent, 2)
        assert ready == "ready"
        ours = marked(agent.mark)
        outer = [pid for pid in ours if _ns_pid(pid) == int(inner)]
        assert len(outer) == 1, ours
        # Re-parented inside the namespace (to its init), so still a descendant.
        assert outer[0] in tree(agent.pid)
        ended = await end_tree(agent.process, mark=agent.mark, grace=1.0)
        assert ended.left == frozenset()
        assert ended.escaped == frozenset()
        assert wait_gone(ours) == set()
        assert marked(agent.mark) == set()


def _ns_pid(pid: int) -> int | None:
    """The pid in its innermost PID namespace (the last NSpid field)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("NSpid:"):
                return int(line.split()[-1])
    return None


async def test_every_spawned_process_carries_its_own_mark() -> None:
    async with agent_of("echo $" + ATTEMPT_ENV, None) as agent:
        assert await lines(agent, 1) == [agent.mark]
        assert len(agent.mark) == 16
        ended = await end_tree(agent.process, mark=agent.mark, grace=1.0)
        assert ended.left == frozenset()


HELPER = r"""
import asyncio, json, os, sys
from proctor.agents._process import spawn

async def main() -> None:
    jail = json.loads(sys.argv[1])
    agent = await spawn("sleep 1000", dict(os.environ), jail)
    print(json.dumps({"pid": agent.pid, "mark": agent.mark}), flush=True)
    await asyncio.sleep(1000)

asyncio.run(main())
"""


def _start_helper(jail: list[str] | None) -> tuple[subprocess.Popen[str], int, str]:
    helper = subprocess.Popen(
        [sys.executable, "-c", HELPER, json.dumps(jail)], stdout=subprocess.PIPE, text=True
    )
    assert helper.stdout is not None
    ready, _, _ = select.select([helper.stdout], [], [], DEADLINE)
    if not ready:
        helper.kill()
        helper.wait(DEADLINE)
        pytest.fail("the helper did not report its agent in time")
    started = json.loads(helper.stdout.readline())
    return helper, started["pid"], started["mark"]


def _sleeper_of(mark: str) -> set[int]:
    """Wait (bounded) until the agent's ``sleep`` runs; every marked pid then."""
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        pids = marked(mark)
        for pid in pids:
            with contextlib.suppress(OSError):
                if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"sleep\0"):
                    return pids
        time.sleep(0.02)
    pytest.fail(f"no sleep of mark {mark} started")


def test_a_jailed_agent_dies_with_the_harness_even_of_kill_9(jail: list[str]) -> None:
    become_subreaper()  # orphans come here, and are reaped, not left to PID 1
    helper, root, mark = _start_helper(jail)
    try:
        agent = _sleeper_of(mark)
        assert root in agent
        helper.send_signal(signal.SIGKILL)
        helper.wait(DEADLINE)
        # unshare dies of PDEATHSIG, its child (the namespace's init) of --kill-child,
        # and with it the whole namespace.
        assert wait_gone(agent) == set()
    finally:
        helper.kill()
        helper.wait(DEADLINE)
        kill_and_reap(marked(mark))


def test_an_unjailed_agent_root_dies_with_the_harness_and_the_rest_keeps_its_mark() -> None:
    become_subreaper()
    helper, root, mark = _start_helper(None)
    try:
        agent = _sleeper_of(mark)
        helper.send_signal(signal.SIGKILL)
        helper.wait(DEADLINE)
        assert wait_gone({root}) == set()
        # The shell's children do not get its death signal: cleanup finds them by the mark.
        assert marked(mark) == agent - {root}
    finally:
        helper.kill()
        helper.wait(DEADLINE)
        kill_and_reap(marked(mark))
