"""The plan: arm specs, and scenarios x arms x repeats with arm order rotating by repeat."""

from __future__ import annotations

from pathlib import Path

import pytest

from proctor.agents import NullAgent, ScriptedAgent
from proctor.errors import RunError
from proctor.runner import parse_arm
from proctor.runner._plan import Arm, make_plan, null_factory, oracle_factory
from proctor.scenario import LoadedScenario, load_scenario

SCENARIO = """\
id: {id}
title: Open the contact page
tier: local
category: regression
brief: Open {{site.forms}}/contact.
world: {{sites: [forms]}}
checks:
  - requested: {{path: /contact}}
solution:
  - {{op: navigate, url: "{{site.forms}}/contact"}}
  - {{op: done}}
decoys:
  - {{name: does-nothing, steps: [{{op: done}}], fails: [requested]}}
  - {{name: goes-back, steps: [{{op: back}}, {{op: done}}], fails: [requested]}}
"""


def scenario(tmp_path: Path, sid: str) -> LoadedScenario:
    path = tmp_path / f"{sid}.yaml"
    path.write_text(SCENARIO.format(id=sid), encoding="utf-8")
    return load_scenario(path)


@pytest.mark.parametrize(
    ("text", "name", "spec"),
    [
        ("oracle=scripted", "oracle", "scripted"),
        ("scripted", "scripted", "scripted"),
        ("null", "null", "null"),
        ("nothing=null", "nothing", "null"),
        ("decoy:goes-back", "decoy-goes-back", "decoy:goes-back"),
        ("wrong=decoy:goes-back", "wrong", "decoy:goes-back"),
        (" oracle = scripted ", "oracle", "scripted"),
        ("=null", "null", "null"),
    ],
)
def test_parse_arm_valid(text: str, name: str, spec: str) -> None:
    arm = parse_arm(text)
    assert (arm.name, arm.spec) == (name, spec)


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("oracle=gpt", "gpt"),
        ("oracle=", ""),
        ("scripted:fast", "scripted:fast"),
        ("null:x", "null:x"),
        ("x=decoy:", "decoy:"),
        ("decoy", "decoy"),
        ("x=command:  ", "command:"),
    ],
)
def test_parse_arm_unknown_spec(text: str, spec: str) -> None:
    with pytest.raises(RunError) as info:
        parse_arm(text)
    assert str(info.value) == (
        f"--arm {text!r}: unknown agent spec {spec!r}; use scripted, null, decoy:NAME, "
        "command:CMD, openai:MODEL, openai-compatible:MODEL@URL or anthropic:MODEL "
        "(e.g. --arm oracle=scripted, --arm gpt=openai:gpt-4.1-mini)"
    )


@pytest.mark.parametrize("text", ["a b=null", "a/b=null", "a\\b=scripted"])
def test_parse_arm_bad_name(text: str) -> None:
    with pytest.raises(RunError) as info:
        parse_arm(text)
    assert str(info.value) == (
        f"--arm {text!r}: an arm name needs letters and no slashes or spaces"
    )


@pytest.mark.parametrize("text", ["canary=scripted", "canary=null"])
def test_the_canary_arm_name_is_reserved(text: str) -> None:
    with pytest.raises(RunError, match=r"the arm name 'canary' is reserved for the gate's harness"):
        parse_arm(text)


def test_arm_factories_build_the_named_agents(tmp_path: Path) -> None:
    loaded = scenario(tmp_path, "alpha").scenario
    oracle = parse_arm("oracle=scripted").factory(loaded)
    assert isinstance(oracle, ScriptedAgent)
    assert (oracle.kind, list(oracle.steps)) == ("scripted", list(loaded.solution))
    decoy = parse_arm("decoy:goes-back").factory(loaded)
    assert isinstance(decoy, ScriptedAgent)
    assert (decoy.kind, list(decoy.steps)) == ("decoy:goes-back", list(loaded.decoys[1].steps))
    assert isinstance(parse_arm("null").factory(loaded), NullAgent)


def test_decoy_arm_for_a_missing_decoy(tmp_path: Path) -> None:
    loaded = scenario(tmp_path, "alpha").scenario
    with pytest.raises(RunError) as info:
        parse_arm("decoy:gives-up").factory(loaded)
    assert str(info.value) == (
        "scenario alpha has no decoy 'gives-up'; its decoys: does-nothing, goes-back"
    )


def test_make_plan_rotates_arm_order_by_repeat(tmp_path: Path) -> None:
    alpha, beta = scenario(tmp_path, "alpha"), scenario(tmp_path, "beta")
    arms = [parse_arm("a=scripted"), parse_arm("b=null"), parse_arm("c=decoy:goes-back")]
    plan = make_plan([alpha, beta], arms, repeats=4)
    assert len(plan) == 2 * 3 * 4
    assert [item.attempt_id for item in plan] == [
        "alpha/a-1", "alpha/b-1", "alpha/c-1", "beta/a-1", "beta/b-1", "beta/c-1",
        "alpha/b-2", "alpha/c-2", "alpha/a-2", "beta/b-2", "beta/c-2", "beta/a-2",
        "alpha/c-3", "alpha/a-3", "alpha/b-3", "beta/c-3", "beta/a-3", "beta/b-3",
        "alpha/a-4", "alpha/b-4", "alpha/c-4", "beta/a-4", "beta/b-4", "beta/c-4",
    ]  # fmt: skip
    assert all(item.scenario is alpha for item in plan if item.attempt_id.startswith("alpha/"))
    assert [item.repeat for item in plan if item.arm.name == "c"] == [1, 1, 2, 2, 3, 3, 4, 4]


def test_make_plan_one_repeat_keeps_the_given_order(tmp_path: Path) -> None:
    alpha = scenario(tmp_path, "alpha")
    arms = [Arm("x", "null", null_factory), Arm("y", "scripted", oracle_factory)]
    assert [i.attempt_id for i in make_plan([alpha], arms, 1)] == ["alpha/x-1", "alpha/y-1"]
    assert make_plan([], arms, 3) == []


def test_make_plan_refusals(tmp_path: Path) -> None:
    alpha = scenario(tmp_path, "alpha")
    arm = parse_arm("oracle=scripted")
    with pytest.raises(RunError) as info:
        make_plan([alpha], [arm], 0)
    assert str(info.value) == "--repeat must be at least 1, got 0"
    with pytest.raises(RunError) as info:
        make_plan([alpha], [], 1)
    assert str(info.value) == "no arm to run; give --arm NAME=SPEC"
    with pytest.raises(RunError) as info:
        make_plan([alpha], [arm, parse_arm("oracle=null")], 1)
    assert str(info.value) == "arm names must be distinct, got ['oracle', 'oracle']"
