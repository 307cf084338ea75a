"""A model is offered the tools its scenario's surface and world need, never fewer."""

from __future__ import annotations

import pytest

from proctor.agents.llm._offer import CORE, offered_tools
from proctor.computer.actions import ops_on
from proctor.scenario import LoadedScenario, Scenario


def test_no_shipped_oracle_needs_a_tool_its_scenario_is_not_offered(
    suite: dict[str, LoadedScenario],
) -> None:
    hidden = {
        sid: sorted({a.op for a in loaded.scenario.solution} - offered_tools(loaded.scenario))
        for sid, loaded in suite.items()
    }
    assert {sid: ops for sid, ops in hidden.items() if ops} == {}


@pytest.mark.parametrize(
    ("sid", "extra"),
    [
        ("form-fill", set()),  # a search box and buttons
        ("header-enumeration", {"tabs"}),  # Careers opens a new tab
        ("model-verification-gate", {"check"}),  # the "I'm not a robot" box
    ],
)
def test_the_model_tier_is_offered_the_core_and_what_its_pages_hold(
    suite: dict[str, LoadedScenario], sid: str, extra: set[str]
) -> None:
    assert offered_tools(suite[sid].scenario) == frozenset(CORE) | extra


def _with(scenario: Scenario, **world: object) -> Scenario:
    return scenario.model_copy(update={"world": scenario.world.model_copy(update=world)})


def test_files_a_user_and_approvals_each_add_their_tool(
    suite: dict[str, LoadedScenario],
) -> None:
    form = suite["form-fill"].scenario
    files = _with(form, dirs=["output"])
    assert offered_tools(files) - offered_tools(form) == {"upload"}
    demo = suite["user-approval-demo"].scenario  # a vault item and an approval rule
    assert {"ask_user", "request_approval"} <= offered_tools(demo)
    assert "schedule" not in offered_tools(demo)
    timed = suite["price-watch-three-days"].scenario  # a timeline
    assert {"schedule", "ask_user"} <= offered_tools(timed)
    assert "request_approval" not in offered_tools(timed)


def test_a_site_that_has_not_declared_its_controls_gets_every_browser_tool(
    suite: dict[str, LoadedScenario],
) -> None:
    form = suite["form-fill"].scenario
    mixed = _with(form, sites=["search", "feed"])  # feed declares nothing
    assert offered_tools(mixed) == set(ops_on("browser")) - {
        "ask_user", "request_approval", "schedule"
    }  # fmt: skip
    assert "restart" in offered_tools(suite["session-profile"].scenario)


def test_a_desktop_is_offered_its_own_verbs(suite: dict[str, LoadedScenario]) -> None:
    calc = suite["desktop-calc-short-goal"].scenario
    assert offered_tools(calc) == {"press", "type", "wait", "key", "set_value", "activate",
                                   "read", "done"}  # fmt: skip
