"""The MCP lane, served in the harness's loop, called by the SDK's client in the same loop."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from proctor.agents import Computer, Outcome
from proctor.computer.actions import ops_on
from proctor.computer.mcp_lane import McpLane
from proctor.runner import Arm, PlanItem, Worker, run_attempt
from proctor.scenario import LoadedScenario, Scenario

pytestmark = pytest.mark.browser


def text(result: types.CallToolResult) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


@dataclass
class InProcessAgent:
    """Drives the lane with the SDK's client and keeps what it listed and got back."""

    calls: list[tuple[str, dict[str, Any]]]
    listed: list[types.Tool] = field(default_factory=list)
    results: list[types.CallToolResult] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "lane-test"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        async with McpLane(computer) as lane, Client(lane.url) as client:
            self.listed = (await client.list_tools()).tools
            for name, args in self.calls:
                self.results.append(await client.call_tool(name, args))
            assert lane.end is not None and lane.end.reason == "done"
        return Outcome(stop_reason="done")


async def attempt_with(
    worker: Worker, loaded: LoadedScenario, agent: InProcessAgent
) -> tuple[int, int]:
    def factory(scenario: Scenario) -> InProcessAgent:
        return agent

    arm = Arm(name="lane", spec="lane", factory=factory)
    record = await run_attempt(worker, PlanItem(loaded, arm, 1), write=False)
    assert record.error is None, record.error
    return record.tool_calls, record.inputs


async def test_tools_are_the_toolset_with_docstrings_as_descriptions(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    agent = InProcessAgent(calls=[("done", {})])
    await attempt_with(worker, suite["manual-selectors"], agent)
    untimed = [op for op in ops_on("browser") if op != "schedule"]  # only with a timeline
    assert [t.name for t in agent.listed] == [*untimed, "observe", "screenshot", "batch"]
    from proctor.computer._mcp_tools import Batch, Observe, Screenshot

    models = {**ops_on("browser"), "observe": Observe, "screenshot": Screenshot, "batch": Batch}
    for tool in agent.listed:
        assert tool.description == inspect.cleandoc(models[tool.name].__doc__ or ""), tool.name
        assert "op" not in tool.input_schema["properties"], tool.name
        assert tool.input_schema["type"] == "object"
    fill = next(t for t in agent.listed if t.name == "fill")
    assert fill.input_schema["required"] == ["value"]


async def test_every_call_counts_and_a_batch_stops_at_a_failure(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    failing = {"op": "upload", "role": "textbox", "name": "Full name", "files": ["no-such.pdf"]}
    agent = InProcessAgent(
        calls=[
            ("zap", {}),  # no such tool: 1 call
            ("click", {}),  # no target: 1 call
            ("batch", {"actions": []}),  # empty batch: 1 call, nothing runs
            (
                "batch",  # fill runs, upload fails, the last fill never runs: 2 calls, 2 inputs
                {
                    "actions": [
                        {"op": "fill", "role": "textbox", "name": "Full name", "value": "Dana"},
                        failing,
                        {"op": "fill", "role": "textbox", "name": "Message", "value": "x"},
                    ]
                },
            ),
            ("done", {"answer": "42"}),  # 1 call, not an input
            ("observe", {}),  # after done: refused, not counted
        ]
    )
    tool_calls, inputs = await attempt_with(worker, suite["manual-selectors"], agent)
    assert (tool_calls, inputs) == (6, 2)  # 3 bad calls, 2 batch members, done
    zap, click, empty, batch, done, late = agent.results
    assert zap.is_error and text(zap).startswith("there is no tool 'zap'; the tools are: navigate")
    assert click.is_error and text(click) == (
        "click: Value error, click needs a ref, role (+ name), selector, or x and y"
    )
    assert empty.is_error and text(empty).startswith("batch: actions: List should have at least 1")
    assert batch.is_error
    assert batch.structured_content is not None and batch.structured_content["ran"] == 2
    assert text(batch).splitlines()[1:] == [
        "[1] upload: error: no such file: no-such.pdf",
        "stopped: 2 of 3 actions ran",
    ]
    assert not done.is_error and text(done) == 'ok: done\ndata: "42"'
    assert late.is_error and text(late) == (
        "refused: the attempt has ended (done); stop calling tools"
    )


@dataclass
class RevokingAgent:
    """Fills one field, has the owner take control back, then tries to fill another."""

    results: list[types.CallToolResult] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "lane-lease"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        name = {"role": "textbox", "name": "Full name", "value": "Dana"}
        email = {"role": "textbox", "name": "Email address", "value": "dana@example.test"}
        async with McpLane(computer) as lane, Client(lane.url) as client:
            self.results.append(await client.call_tool("fill", name))
            computer.options.lease.revoke("test", "the owner typed")  # type: ignore[attr-defined]
            self.results.append(await client.call_tool("fill", email))
            self.results.append(await client.call_tool("done", {}))
        return Outcome(stop_reason="done")


async def test_lane_inputs_after_revocation_are_refused_with_a_receipt(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    agent = RevokingAgent()

    def factory(scenario: Scenario) -> RevokingAgent:
        return agent

    arm = Arm(name="lane-lease", spec="lane-lease", factory=factory)
    record = await run_attempt(worker, PlanItem(suite["manual-selectors"], arm, 1), write=False)
    filled, refused, done = agent.results
    assert not filled.is_error and not done.is_error
    assert refused.is_error
    assert text(refused) == "refused: the control lease was revoked by test (the owner typed)"
    assert refused.structured_content is not None
    assert refused.structured_content["facts"]["receipt"]["op"] == "fill"
    assert [(s.op, s.status) for s in record.steps] == [
        ("fill", "ok"),
        ("fill", "refused"),
        ("done", "ok"),
    ]
