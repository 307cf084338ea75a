"""An over-specified step runs by the first way of addressing and records what it ignored."""

from __future__ import annotations

import pytest

from proctor.agents import ScriptedAgent
from proctor.computer import actions as a
from proctor.runner import Arm, PlanItem, Worker, run_attempt
from proctor.scenario import LoadedScenario, Scenario

pytestmark = pytest.mark.browser


async def test_a_click_with_an_element_and_coordinates_clicks_the_element(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    loaded = suite["manual-selectors"]
    steps = list(loaded.scenario.solution)
    send = steps[-2]
    assert isinstance(send, a.Click)
    steps[-2] = a.Click(role=send.role, name=send.name, x=5, y=5, selector="#nowhere")

    def factory(scenario: Scenario) -> ScriptedAgent:
        return ScriptedAgent(steps, label="over-specified")

    record = await run_attempt(
        worker, PlanItem(loaded, Arm("over", "over", factory), 1), write=False
    )
    assert record.result == "passed", record.failed_checks
    click = record.steps[-2]
    assert (click.op, click.status, click.target) == ("click", "ok", "button 'Send message'")
    assert click.facts["ignored"] == ["selector", "x", "y"]
