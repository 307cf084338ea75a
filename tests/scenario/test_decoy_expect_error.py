"""``expect: error|refused`` (and the older ``expect_error: true``) on decoy steps: taken off
the step into ``Decoy.expect_error`` and ``Decoy.expect_refused``; ``inert: true``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
import yaml

from proctor.computer.actions import Click
from proctor.scenario import Decoy, Problem, load_scenario, problems_in, scenario_schema

SITES = {"forms", "shop"}
Edit = Callable[..., Path]
STEPS = "    steps: [{op: done}]\n"


def decoy_steps(scenario: Edit, steps: str) -> Path:
    return scenario((STEPS, f"    steps: {steps}\n"))


def test_marked_steps_become_the_decoys_expect_error(scenario: Edit) -> None:
    path = decoy_steps(
        scenario,
        "[{op: click, role: button, name: Sendd, expect_error: true},"
        " {op: fill, role: textbox, name: Full name, value: x, expect_error: false},"
        " {op: click, role: button, name: Nope, expect_error: true}, {op: done}]",
    )
    decoy = load_scenario(path, SITES).scenario.decoys[0]
    assert decoy.expect_error == [0, 2]
    assert decoy.steps[0] == Click(role="button", name="Sendd")
    assert [s.op for s in decoy.steps] == ["click", "fill", "click", "done"]


def test_no_marker_means_an_empty_list(scenario: Edit) -> None:
    assert load_scenario(scenario(), SITES).scenario.decoys[0].expect_error == []


def test_the_brief_example_loads() -> None:
    decoy = Decoy.model_validate(
        yaml.safe_load(
            "{name: typo, steps: [{op: click, role: button, name: Sendd, expect_error: true}],"
            " fails: [submitted]}"
        )
    )
    assert (decoy.name, decoy.expect_error, decoy.fails) == ("typo", [0], ["submitted"])


def test_a_decoy_round_trips_through_its_dump() -> None:
    decoy = Decoy.model_validate(
        {"name": "d", "steps": [{"op": "done", "expect_error": True}], "fails": ["x"]}
    )
    assert Decoy.model_validate(decoy.model_dump()) == decoy
    assert Decoy.model_validate_json(decoy.model_dump_json()) == decoy


def test_a_marker_that_is_not_a_boolean(scenario: Edit) -> None:
    path = decoy_steps(scenario, "[{op: done, expect_error: 2}]")
    assert problems_in(path, SITES) == [
        Problem(str(path), "decoys[0]", "steps[0].expect_error must be true or false, not 2")
    ]


def test_an_explicit_list_out_of_range(scenario: Edit) -> None:
    path = scenario((STEPS, STEPS + "    expect_error: [3]\n"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "decoys[0]",
            "expect_error names step 3, but the decoy has 1 steps (0-based)",
        )
    ]


def test_a_marker_on_a_solution_step_is_an_error(scenario: Edit) -> None:
    path = scenario(("  - {op: done}\ndecoys", "  - {op: done, expect_error: true}\ndecoys"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "solution[2].expect_error",
            "expect_error is allowed only on decoy steps",
            "the oracle's steps must all succeed: remove it, or move the step into a decoy",
        )
    ]


def test_the_schema_documents_the_field() -> None:
    field = scenario_schema()["$defs"]["Decoy"]["properties"]["expect_error"]
    assert field["type"] == "array"
    assert field["items"] == {"type": "integer"}
    assert "expect: error" in field["description"]
    assert "expect_error: true" in field["description"]
    refused = scenario_schema()["$defs"]["Decoy"]["properties"]["expect_refused"]
    assert "expect: refused" in refused["description"]
    inert = scenario_schema()["$defs"]["Decoy"]["properties"]["inert"]
    assert (inert["type"], inert["default"]) == ("boolean", False)


@pytest.mark.parametrize(("where", "errors"), [("decoy", 0), ("solution", 1)])
def test_the_json_schema_allows_the_marker_on_decoy_steps_only(
    scenario: Edit, where: str, errors: int
) -> None:
    data = yaml.safe_load(scenario().read_text(encoding="utf-8"))
    steps = data["decoys"][0]["steps"] if where == "decoy" else data["solution"]
    steps[-1]["expect_error"] = True
    validator = jsonschema.Draft202012Validator(scenario_schema())
    assert len(list(validator.iter_errors(data))) == errors
    del steps[-1]["expect_error"]
    for mark in ("error", "refused"):
        steps[-1]["expect"] = mark
        assert len(list(validator.iter_errors(data))) == errors
    steps[-1]["expect"] = "ok"
    assert len(list(validator.iter_errors(data))) == 1


def test_expect_marks_how_each_step_ends(scenario: Edit) -> None:
    path = decoy_steps(
        scenario,
        "[{op: navigate, url: 'http://elsewhere.example/', expect: refused},"
        " {op: click, role: button, name: Sendd, expect: error},"
        " {op: click, role: button, name: Nope, expect_error: true}, {op: done}]",
    )
    decoy = load_scenario(path, SITES).scenario.decoys[0]
    assert (decoy.expect_error, decoy.expect_refused) == ([1, 2], [0])
    assert decoy.expected == {0: "refused", 1: "error", 2: "error"}
    assert [s.op for s in decoy.steps] == ["navigate", "click", "click", "done"]
    assert decoy.inert is False
    assert Decoy.model_validate(decoy.model_dump()) == decoy


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("{op: done, expect: ok}", "steps[0].expect must be error or refused, not 'ok'"),
        (
            "{op: done, expect: error, expect_error: true}",
            "steps[0] has both expect and expect_error; expect_error: true is the older "
            "spelling of expect: error: keep only expect",
        ),
    ],
)
def test_a_malformed_expect(scenario: Edit, step: str, message: str) -> None:
    path = decoy_steps(scenario, f"[{step}]")
    assert problems_in(path, SITES) == [Problem(str(path), "decoys[0]", message)]


def test_a_step_is_expected_to_end_one_way(scenario: Edit) -> None:
    path = scenario((STEPS, STEPS + "    expect_error: [0]\n    expect_refused: [0]\n"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "decoys[0]",
            "step 0 is in both expect_error and expect_refused: a step ends one way",
        )
    ]


def test_expect_on_a_solution_step_is_an_error(scenario: Edit) -> None:
    path = scenario(("  - {op: done}\ndecoys", "  - {op: done, expect: refused}\ndecoys"))
    assert [(p.field, p.message) for p in problems_in(path, SITES)] == [
        ("solution[2].expect", "expect is allowed only on decoy steps")
    ]
