"""The command agent: an external program that drives the computer through the MCP lane.

The command runs in a shell, in its own process group, with:

- ``PROCTOR_MCP_URL``: the attempt's MCP endpoint (streamable HTTP on loopback);
- ``HTTPS_PROXY``/``HTTP_PROXY``/``ALL_PROXY`` (and lower case), when jailed in its own
  network: the proxy to its model provider (``_net``); ``NO_PROXY`` names loopback,
  where only the MCP lane is;
- ``PROCTOR_MCP_STDIO``: a command line that serves the same tools on stdio;
- ``PROCTOR_BRIEF``: the task (also written to its stdin, which is then closed);
- ``PROCTOR_SCRATCH``: the attempt's scratch folder;
- ``PROCTOR_LIMITS``: JSON ``{"seconds", "tool_calls", "steps"}``;
- ``PROCTOR_ATTEMPT``: the attempt's id;
- ``PROCTOR_AGENT_MARK``: a token of this command's own, which marks all its processes;
- ``PROCTOR_AGENT_HOME``: in a scenario with a timeline, the agent's persistent folder
  (``{scratch}/agent-home``), which outlives a reset: the new agent finds what the old
  one kept there.

Its stdout and stderr lines go to the trace (events.jsonl). The run ends when
the agent calls ``done`` (stop reason ``done``), when it reaches a limit
(``tool_limit``/``step_limit``, raised as ``LimitReached``), or when the process
exits without calling ``done`` (``exited``). After done or a limit the lane
refuses every call at once, and the agent gets ``END_GRACE`` seconds to exit by
itself. The runner's wall limit cancels the run (``timeout``). On every way out
the process tree gets SIGTERM, then SIGKILL, and is reaped (the harness makes
itself a child subreaper for that, see ``_process``), and the endpoint stops.
Processes that left the tree (``setsid``) are found by the command's mark
(``PROCTOR_AGENT_MARK``) and ended too. The trace's ``command_end`` says what
still ran after the last deadline (``left``) and what was found only by the
mark (``escaped``).
When its proxy could not reach a destination it may reach (``_net``: the model
provider failed, or the network to it) and it then ends without ``done``, the try
is a ``ProviderFault``: infra, retried, never scored.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from proctor._confine import share
from proctor.agents._jail import agent_view, available, hold_folder, jail_argv, release_hold
from proctor.agents._net import PROXY_VARS, JailNetwork
from proctor.agents._process import TERM_GRACE, AgentProcess, end_tree, spawn
from proctor.agents._protocol import Computer, Outcome
from proctor.computer.attempt import AGENT_HOME
from proctor.computer.mcp_lane import McpLane
from proctor.errors import AgentError, LimitReached, ProctorError, ProviderFault

END_GRACE = 3.0
"""Seconds an agent gets to exit on its own after done or a limit (its calls are refused)."""
LINE_MAX = 2000
"""Characters kept of one stdout/stderr line."""
LINES_MAX = 5000
"""Lines kept per stream; later ones are counted, not kept."""
DRAIN_TIMEOUT = 2.0
"""Seconds to finish reading the pipes after the process tree ended."""
STDERR_TAIL = 4096
"""Bytes of the end of a command's stderr kept in attempt.json (all of it is in the trace)."""


@dataclass(frozen=True)
class CommandAgent:
    """Runs ``command`` (a shell command line) as an external agent.

    Attributes:
        command: The shell command line.
        limits: The attempt's limits (seconds, tool_calls, steps), passed on as JSON.
        grace: Seconds between SIGTERM and SIGKILL when the run ends.
    """

    command: str
    limits: Mapping[str, float] = field(default_factory=dict)
    grace: float = TERM_GRACE

    @property
    def kind(self) -> str:
        return "command"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        """Serve the toolset, run the command, and end it however the run ends."""
        lane = McpLane(computer)
        url = await lane.start()
        agent: AgentProcess | None = None
        hold: Path | None = None
        net: JailNetwork | None = None
        pumps: list[asyncio.Task[None]] = []
        tail = bytearray()
        try:
            jail, hold = _jail_for(computer)
            if jail is not None:
                net = await _network_for(url, computer)
                if net is not None:
                    jail = [*net.argv(), *jail]
            env = self._env(brief, url, computer, net)
            agent = await spawn(self.command, env, jail)
            process = agent.process
            computer.trace(
                "command",
                command=self.command,
                pid=process.pid,
                jailed=jail is not None,
                net_sealed=net is not None,
            )
            stdout, stderr = process.stdout, process.stderr
            if stdout is None or stderr is None:
                raise AgentError(f"the command {self.command!r} was started without its pipes")
            pumps = [
                asyncio.create_task(_feed(process, brief)),
                asyncio.create_task(_pump(stdout, "stdout", computer)),
                asyncio.create_task(_pump(stderr, "stderr", computer, tail)),
            ]
            outcome = await self._until_end(agent, lane)
        except LimitReached as exc:
            if net is not None and net.faults:
                raise _provider_fault(net) from exc  # it waited on a provider that failed
            raise
        finally:
            try:
                await self._cleanup(agent, pumps, lane, computer)
            finally:
                if net is not None:
                    await net.close()
            if hold is not None:  # empty: the jail moved what it held into place
                release_hold(hold)
        if net is not None and net.faults and outcome.stop_reason != "done":
            raise _provider_fault(net)
        code = agent.process.returncode if agent is not None else None
        text = bytes(tail).decode("utf-8", errors="replace")
        return dataclasses.replace(outcome, exit_code=code, stderr_tail=text or None)

    async def _until_end(self, agent: AgentProcess, lane: McpLane) -> Outcome:
        exited = asyncio.ensure_future(agent.exited.wait())
        ended = asyncio.ensure_future(lane.ended.wait())
        try:
            await asyncio.wait({exited, ended}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in (exited, ended):
                waiter.cancel()
        end = lane.end
        if end is None:
            return Outcome(
                stop_reason="exited",
                detail="the command exited without calling done",
            )
        if end.reason == "done" or isinstance(end.error, LimitReached):
            # The lane refuses every later call; this grace only lets the agent read the
            # last result, close its session and exit by itself before it is killed.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(agent.exited.wait(), END_GRACE)
        if end.error is not None:  # LimitReached, or a computer fault for the runner to classify
            raise end.error
        if end.reason == "done":
            return Outcome(stop_reason="done", answer=end.answer)
        raise AgentError(f"the MCP lane ended ({end.reason}) without saying why")

    async def _cleanup(
        self,
        agent: AgentProcess | None,
        pumps: list[asyncio.Task[None]],
        lane: McpLane,
        computer: Computer,
    ) -> None:
        try:
            if agent is not None:
                try:
                    ended = await end_tree(agent.process, mark=agent.mark, grace=self.grace)
                finally:
                    agent.close()
                computer.trace(
                    "command_end",
                    pid=agent.pid,
                    code=agent.process.returncode,
                    left=sorted(ended.left),
                    escaped=sorted(ended.escaped),
                )
            if pumps:
                _, pending = await asyncio.wait(pumps, timeout=DRAIN_TIMEOUT)
                for task in pending:
                    task.cancel()
        finally:
            await lane.stop()

    def _env(
        self, brief: str, url: str, computer: Computer, net: JailNetwork | None = None
    ) -> dict[str, str]:
        attempt = computer.attempt
        home = attempt.scratch / AGENT_HOME
        bridge = [sys.executable, "-m", "proctor.computer.mcp_stdio", url]
        inherited = {k: v for k, v in os.environ.items() if k not in DESKTOP_DOORS}
        if net is not None:  # the host's proxy settings lead nowhere from the jail's network
            proxies = {*PROXY_VARS, *(v.lower() for v in PROXY_VARS)}
            inherited = {k: v for k, v in inherited.items() if k not in proxies}
        return {
            **inherited,
            **(net.env() if net is not None else {}),
            "PROCTOR_MCP_URL": url,
            "PROCTOR_MCP_STDIO": shlex.join(bridge),
            "PROCTOR_BRIEF": brief,
            "PROCTOR_SCRATCH": str(attempt.scratch),
            "PROCTOR_LIMITS": json.dumps(dict(self.limits)),
            "PROCTOR_ATTEMPT": attempt.attempt,
            **({"PROCTOR_AGENT_HOME": str(home)} if home.is_dir() else {}),
            "PROCTOR_JAIL_HOME": str(home if home.is_dir() else attempt.scratch),
        }


DESKTOP_DOORS = frozenset(
    {"DISPLAY", "XAUTHORITY", "AT_SPI_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY"}
)
"""What a desktop session puts in the harness's environment that would lead an agent to the
apps around the toolset: the display, its cookie and the buses. An agent never inherits them."""


def _jail_for(computer: Computer) -> tuple[list[str] | None, Path | None]:
    """The jail's argv and its hold folder, or (None, None) when the run is not jailed.

    The attempt names what the agent must never read (``private``) and its
    scratch folder. Where the machine refuses the jail, the agent runs as
    before and the trace says so (``jailed: false``).
    """
    attempt = computer.attempt
    if not attempt.private or available() is not None:
        return None, None
    view = agent_view(attempt.private, attempt.scratch)
    hold = hold_folder([*view.hide, *view.tmp])
    if attempt.scratch.is_dir():
        share(attempt.scratch)
    return jail_argv(view, hold), hold


async def _network_for(url: str, computer: Computer) -> JailNetwork | None:
    """The jail's own network (its MCP lane and the proxy), or None where the machine
    refuses a network namespace: the jail then shares the host's network, and the
    trace says so (``net_sealed: false``, with why in ``net_refused``)."""
    port = urlsplit(url).port
    if port is None:
        raise AgentError(f"the MCP lane's URL {url!r} names no port")
    try:
        return await JailNetwork.open(port, computer.trace)
    except ProctorError as exc:
        computer.trace("net_refused", why=str(exc))
        return None


async def _feed(process: asyncio.subprocess.Process, brief: str) -> None:
    """Write the brief on stdin and close it (an agent that never reads it is fine)."""
    stdin = process.stdin
    if stdin is None:
        return
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        stdin.write(brief.encode("utf-8") + b"\n")
        await stdin.drain()
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        stdin.close()


async def _pump(
    stream: asyncio.StreamReader, kind: str, computer: Computer, tail: bytearray | None = None
) -> None:
    """Copy a pipe into the trace, one event per line, each and in all bounded; ``tail``
    keeps its last ``STDERR_TAIL`` bytes."""
    kept = dropped = 0
    buffer = b""
    skipping = False  # inside a line too long to keep whole

    def emit(raw: bytes) -> None:
        nonlocal kept, dropped
        if kept >= LINES_MAX:
            dropped += 1
            return
        line = raw.decode("utf-8", errors="replace").rstrip("\r")
        if len(line) > LINE_MAX:
            line = line[:LINE_MAX] + f"... ({len(line) - LINE_MAX} more characters)"
        computer.trace(kind, line=line)
        kept += 1

    while chunk := await stream.read(65536):
        if tail is not None:
            tail += chunk
            del tail[:-STDERR_TAIL]
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            if not skipping:
                emit(raw)
            skipping = False
        if len(buffer) > LINE_MAX * 4 and not skipping:  # keep a very long line's head
            emit(buffer)
            skipping = True
        if skipping:
            buffer = b""
    if buffer and not skipping:
        emit(buffer)
    if dropped:
        computer.trace(kind, line=f"... {dropped} more line(s) not kept", dropped=dropped)


__all__ = ["CommandAgent"]


def _provider_fault(net: JailNetwork) -> ProviderFault:
    """The agent ended without ``done`` after its proxy failed to reach a destination it
    may reach: the provider or the network failed it, so the try is infra, not scored."""
    more = f" (and {len(net.faults) - 1} more)" if len(net.faults) > 1 else ""
    return ProviderFault(
        f"the agent's proxy could not reach {net.faults[0]}{more}, and the agent ended "
        "without done: its model provider, or the network to it, failed"
    )
