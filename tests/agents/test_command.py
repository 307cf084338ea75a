"""The command agent: external agents, as their own processes, through the MCP lane.

The agent is tests/agents/agents_fixtures/mcp_agent.py, run with this venv's
python; it speaks MCP through the SDK's client, over streamable HTTP or over
stdio through the bridge. Counts are asserted as exact numbers, worked out from
the agent's known call sequence.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from proctor.agents.command import CommandAgent
from proctor.records import AttemptRecord
from proctor.report import cause_of
from proctor.runner import Arm, PlanItem, Worker, attempt_folder, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, Scenario, load_scenario
from proctor.world import all_sites

pytestmark = pytest.mark.browser

AGENT = Path(__file__).parent / "agents_fixtures" / "mcp_agent.py"
GONE_WAIT = 30.0
"""Seconds the kernel gets to finish the exits of killed agent processes."""
FORM_OPS = ["fill", "fill", "select", "check", "check", "fill", "click"]


def command(*args: str) -> str:
    return shlex.join([sys.executable, str(AGENT), *args])


async def run(worker: Worker, loaded: LoadedScenario, arm: Arm) -> AttemptRecord:
    return await run_attempt(worker, PlanItem(loaded, arm, 1), write=True)


def events(worker: Worker, loaded: LoadedScenario, arm: Arm) -> list[dict[str, Any]]:
    folder = attempt_folder(worker.run_dir, PlanItem(loaded, arm, 1))
    lines = (folder / "events.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def output(events: list[dict[str, Any]], kind: str) -> list[str]:
    return [e["line"] for e in events if e["kind"] == kind]


def scenario_file(tmp_path: Path, name: str, limits: str) -> LoadedScenario:
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"""
id: {name}
title: An external agent against the limits
tier: local
category: regression
limits: {limits}
brief: Look at {{site.forms}}/contact and wait.
world:
  sites: [forms]
  browser: {{start: "{{site.forms}}/contact"}}
checks:
  - stop_reason: {{equals: done}}
solution:
  - {{op: done}}
decoys:
  - name: gives-up
    steps: [{{op: wait, ms: 1}}]
    fails: [stop_reason]
"""
    )
    return load_scenario(path, sites=set(all_sites()))


def gone(pid: int, ns: str) -> bool:
    """No process (not even a zombie) is left of the agent that reported ``pid``, once the
    kernel has run the exits it was told to (bounded: a killed process must still be
    scheduled to die, and a loaded machine may not get to it at once).

    A jailed agent (see agents/_jail.py) sees its own PID namespace, so its pids
    mean nothing here: then no process at all may be left in that namespace.
    """
    deadline = time.monotonic() + GONE_WAIT
    while not _gone(pid, ns):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _gone(pid: int, ns: str) -> bool:
    if ns == os.readlink("/proc/self/ns/pid"):
        return not Path(f"/proc/{pid}").exists()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if os.readlink(entry / "ns" / "pid") == ns:
                    return False
    return True


def pids_of(stdout: list[str]) -> dict[str, Any]:
    """The pids a fixture agent told on stdout (the jail lets it write only its scratch)."""
    line = next(line for line in stdout if line.startswith("PIDS "))
    return json.loads(line.removeprefix("PIDS "))  # type: ignore[no-any-return]


async def test_http_agent_drives_manual_selectors_to_a_pass(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    loaded = suite["manual-selectors"]
    arm = parse_arm(f"mcp-http=command:{command('solve', 'http')}")
    record = await run(worker, loaded, arm)
    trace = events(worker, loaded, arm)
    stderr = output(trace, "stderr")
    assert record.result == "passed", (record.failed_checks, record.error, stderr[-20:])
    assert record.agent == "command"
    assert record.stop_reason == "done"
    # observe, fill, fill, batch[select, check, check], fill, click, observe, done
    assert record.tool_calls == 10
    assert record.inputs == 7
    assert [s.op for s in record.steps] == [*FORM_OPS, "done"]
    stdout = output(trace, "stdout")
    assert "SENT tool_calls=10 inputs=7" in stdout  # the agent's own tally agrees
    limits = loaded.scenario.limits
    assert stdout[0].startswith(f"limits tool_calls={limits.tool_calls} scratch=")
    assert any(e["kind"] == "mcp_lane" for e in trace)
    assert [e["left"] for e in trace if e["kind"] == "command_end"] == [[]]


async def test_stdio_agent_through_the_bridge_passes(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    loaded = suite["manual-selectors"]
    arm = parse_arm(f"mcp-stdio=command:{command('solve', 'stdio')}")
    record = await run(worker, loaded, arm)
    stderr = output(events(worker, loaded, arm), "stderr")
    assert record.result == "passed", (record.failed_checks, record.error, stderr[-20:])
    # observe, batch[fill, fill, select, check, check, fill, click], done
    assert record.tool_calls == 9
    assert record.inputs == 7
    assert [s.op for s in record.steps] == [*FORM_OPS, "done"]


async def test_agent_past_the_tool_call_limit_is_stopped(worker: Worker, tmp_path: Path) -> None:
    loaded = scenario_file(tmp_path, "mcp-tool-limit", "{seconds: 60, tool_calls: 3}")
    arm = parse_arm(f"spam=command:{command('spam', '-')}")
    record = await run(worker, loaded, arm)
    assert record.stop_reason == "tool_limit"
    assert record.error == "the tool-call limit (3) is used up"
    assert record.tool_calls == 3  # the refused calls after the limit are not counted
    assert record.agent_seconds < 30  # stopped by the limit, not by the wall
    stdout = output(events(worker, loaded, arm), "stdout")
    pids = pids_of(stdout)
    stdout = stdout[1:]
    assert stdout[:3] == ["ok url: http://forms.proctor.test/contact"] * 3
    assert stdout[3] == (
        "ERROR tool_limit: the tool-call limit (3) is used up. "
        "The attempt has ended; stop calling tools."
    )
    assert all(line.startswith("ERROR refused: the attempt has ended") for line in stdout[4:])
    assert gone(pids["self"], pids["ns"])


async def test_agent_ignoring_the_wall_limit_is_killed(worker: Worker, tmp_path: Path) -> None:
    loaded = scenario_file(tmp_path, "mcp-wall-limit", "{seconds: 5}")
    spec = f"command:{command('sleep', '-')}"

    def factory(scenario: Scenario) -> CommandAgent:
        return CommandAgent(command("sleep", "-"), grace=1.0)

    arm = Arm(name="sleeper", spec=spec, factory=factory)
    record = await run(worker, loaded, arm)
    assert record.stop_reason == "timeout"
    assert record.error == "the wall limit (5s) was reached"
    trace = events(worker, loaded, arm)
    pids = pids_of(output(trace, "stdout"))
    # SIGTERM is ignored by both, so only SIGKILL ended them; both are reaped.
    assert gone(pids["self"], pids["ns"]) and gone(pids["child"], pids["ns"]), pids
    assert [e["left"] for e in trace if e["kind"] == "command_end"] == [[]]
    assert f"sleeping; child {pids['child']}" in output(trace, "stdout")


async def test_command_that_exits_without_done_records_exited(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = scenario_file(tmp_path, "mcp-exits", "{seconds: 30}")
    arm = parse_arm("quitter=command:echo started; echo giving up >&2; exit 3")
    record = await run(worker, loaded, arm)
    assert (record.stop_reason, record.tool_calls, record.inputs) == ("exited", 0, 0)
    trace = events(worker, loaded, arm)
    assert output(trace, "stdout") == ["started"]
    assert output(trace, "stderr") == ["giving up"]
    assert [e["code"] for e in trace if e["kind"] == "command_end"] == [3]
    # The record explains itself: the code, stderr's end, and the cause agent_crashed.
    assert (record.exit_code, record.stderr_tail) == (3, "giving up\n")
    cause = cause_of(record)
    assert cause is not None and cause.cause == "agent_crashed"
    assert cause.detail == ("the command exited without calling done (exit 3); stderr: giving up")


async def test_a_long_stderr_keeps_its_last_4_kb_in_the_record(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = scenario_file(tmp_path, "mcp-noisy", "{seconds: 30}")
    script = "import sys; sys.stderr.write('x' * 10000 + '\\nthe real error\\n'); sys.exit(1)"
    arm = parse_arm(f"noisy=command:{sys.executable} -c {shlex.quote(script)}")
    record = await run(worker, loaded, arm)
    assert record.exit_code == 1 and record.stderr_tail is not None
    assert len(record.stderr_tail) == 4096 and record.stderr_tail.endswith("the real error\n")


class Sink:
    """Collects trace events: the only part of a computer that ``_pump`` touches."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def trace(self, kind: str, **data: Any) -> None:
        self.events.append({"kind": kind, **data})


async def test_output_lines_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from proctor.agents import command as cmd

    monkeypatch.setattr(cmd, "LINES_MAX", 3)
    stream = asyncio.StreamReader()
    head = b"one\r\ntwo\n"
    long_line = b"x" * 70_000  # longer than one read (64 KiB): its tail arrives later
    stream.feed_data(head + long_line + b"\nthree\nfour\nfive")
    stream.feed_eof()
    sink = Sink()
    await cmd._pump(stream, "stdout", sink)  # type: ignore[arg-type]
    lines = [e["line"] for e in sink.events]
    assert lines[:2] == ["one", "two"]
    first_read = 65536 - len(head)
    assert lines[2] == "x" * cmd.LINE_MAX + f"... ({first_read - cmd.LINE_MAX} more characters)"
    assert lines[3:] == ["... 3 more line(s) not kept"]
