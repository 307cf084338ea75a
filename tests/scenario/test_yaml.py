"""The hardened YAML reader: aliases, duplicate keys, NUL, depth, huge integers, odd types."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from proctor.errors import ScenarioError
from proctor.scenario import Problem, dump_scenario, load_catalog, load_scenario, problems_in
from proctor.scenario._yaml import MAX_DEPTH, walk

SITES = {"forms", "shop"}
Edit = Callable[..., Path]
NO_ALIASES = (
    "write the value out in full: anchors (&), aliases (*) and merge keys (<<) "
    "are not allowed in a scenario (a file written by yaml.dump from data that shares "
    "objects has them: write it with proctor.scenario.dump_scenario)"
)


def bomb(levels: int = 8, width: int = 9) -> str:
    """Billion laughs: ``width ** levels`` strings in a few hundred bytes."""
    names = "abcdefghijklmnop"[:levels]
    lines = [f"{names[0]}: &{names[0]} [" + ",".join(["x"] * width) + "]"]
    for prev, name in itertools.pairwise(names):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_bomb_is_small() -> None:
    assert len(bomb()) < 330


def test_alias_bomb_fails_fast_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(bomb(), encoding="utf-8")
    started = time.process_time()
    problems = problems_in(path, SITES)
    elapsed = time.process_time() - started
    assert problems == [Problem(str(path), "line 2, column 8", "YAML alias *a", NO_ALIASES)]
    assert elapsed < 0.5


def test_alias_bomb_inside_a_scenario_fails_fast(scenario: Edit) -> None:
    # the aliased list would reach pydantic as 9**7 strings
    path = scenario(("tier: local\n", "tier: local\ncapabilities: *g\n"), prepend=bomb(7))
    started = time.process_time()
    problems = problems_in(path, SITES)
    assert time.process_time() - started < 0.5
    assert [(p.field, p.message) for p in problems] == [("line 2, column 8", "YAML alias *a")]


def test_a_single_alias_is_rejected_too(scenario: Edit) -> None:
    path = scenario(
        ("title: Send the contact form", "title: &t Send the contact form"),
        append="judge: [{name: j, criterion: *t}]\n",
    )
    assert problems_in(path, SITES) == [
        Problem(str(path), "line 22, column 30", "YAML alias *t", NO_ALIASES)
    ]


def test_a_recursive_alias_is_rejected(scenario: Edit) -> None:
    path = scenario(append="capabilities: &c [*c]\n")
    assert [(p.field, p.message) for p in problems_in(path, SITES)] == [
        ("line 22, column 19", "YAML alias *c")
    ]


def test_merge_keys_are_rejected(scenario: Edit) -> None:
    path = scenario(append="limits: {<<: {seconds: 30}, steps: 5}\n")
    assert problems_in(path, SITES) == [
        Problem(str(path), "line 22, column 10", "not valid YAML: merge keys (<<) are not allowed")
    ]


def test_an_anchor_no_alias_uses_is_harmless(scenario: Edit) -> None:
    path = scenario(("title: Send the contact form", "title: &t Send the contact form"))
    assert problems_in(path, SITES) == []


def test_list_command_with_a_bomb_folder_fails_fast(tmp_path: Path) -> None:
    (tmp_path / "bomb.yaml").write_text(bomb(), encoding="utf-8")
    started = time.process_time()
    with pytest.raises(ScenarioError, match=r"bomb\.yaml: line 2, column 8: YAML alias \*a"):
        load_catalog([tmp_path], shipped=False)
    assert time.process_time() - started < 0.5


def test_walk_visits_each_shared_node_once() -> None:
    """Even given an aliased tree built in Python, a walk is linear in its distinct nodes."""
    node: list[object] = ["{x}"] * 9
    for _ in range(8):
        node = [node] * 9  # 9**9 strings when expanded
    started = time.process_time()
    walked = walk({"a": node})
    assert time.process_time() - started < 0.1
    assert walked.braced == [("a" + "[0]" * 8 + f"[{i}]", "{x}") for i in range(9)]


def test_duplicate_key_names_the_mapping_the_key_and_its_line(scenario: Edit) -> None:
    path = scenario(("      route: contact\n", "      route: contact\n      route: other\n"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[0].submitted",
            "duplicate key 'route' (line 12)",
            "a key may appear once in a mapping: remove or merge the repeats",
        )
    ]


def test_duplicate_key_at_the_top_and_in_a_flow_mapping(scenario: Edit) -> None:
    path = scenario(
        ("fields: {name: Dana}", "fields: {name: Dana, name: Dan}"),
        append="title: Again\n",
    )
    assert [(p.field, p.message) for p in problems_in(path, SITES)] == [
        ("checks[0].submitted.fields", "duplicate key 'name' (line 12)"),
        ("title", "duplicate key 'title' (line 22)"),
    ]


def test_duplicate_key_fails_load_scenario(scenario: Edit) -> None:
    path = scenario(append="tier: local\n")
    with pytest.raises(
        ScenarioError, match=r"sample\.yaml: tier: duplicate key 'tier' \(line 22\)"
    ):
        load_scenario(path, SITES)


def test_nul_in_any_string_names_the_field(scenario: Edit) -> None:
    path = scenario(
        ("value: Dana}", 'value: "Da\\0na"}'),
        ("fields: {name: Dana}", 'fields: {"na\\0me": Dana}'),
    )
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[0].submitted.fields.'na\\x00me'",
            "the key holds a NUL character",
            "remove it",
        ),
        Problem(str(path), "solution[0].value", "holds a NUL character", "remove it"),
    ]


def test_raw_control_character_gives_the_line(tmp_path: Path) -> None:
    path = tmp_path / "sample.yaml"
    path.write_bytes(b"id: sample\ntitle: S\x00end\n")
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "line 2",
            "not valid YAML: control characters are not allowed (character '\\x00')",
            "remove it",
        )
    ]


def test_deep_nesting_is_rejected_before_validation(scenario: Edit) -> None:
    path = scenario(append="capabilities: " + "[" * 900 + "]" * 900 + "\n")
    started = time.process_time()
    problems = problems_in(path, SITES)
    assert time.process_time() - started < 0.5
    assert problems == [
        Problem(
            str(path),
            "capabilities" + "[0]" * (MAX_DEPTH - 1),
            f"nested deeper than {MAX_DEPTH} lists and mappings",
            "a scenario never needs this much nesting",
        )
    ]


@pytest.mark.parametrize(
    ("value", "where"),
    [("0x" + "f" * 400, "limits.seconds"), ("1" + "0" * 19, "limits.seconds")],
)
def test_integers_beyond_64_bits_are_rejected(scenario: Edit, value: str, where: str) -> None:
    path = scenario(append=f"limits: {{seconds: {value}}}\n")
    assert [(p.field, p.message) for p in problems_in(path, SITES)] == [
        (where, "integer too large")
    ]


def test_an_integer_too_long_to_read_is_a_yaml_error(scenario: Edit) -> None:
    path = scenario(append="limits: {seconds: " + "9" * 5000 + "}\n")
    assert problems_in(path, SITES) == [
        Problem(str(path), "line 22, column 19", "not valid YAML: integer too large")
    ]


def test_impossible_date_is_a_yaml_error(scenario: Edit) -> None:
    path = scenario(("title: Send the contact form", "title: 2024-02-30"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "line 2, column 8",
            "not valid YAML: not a valid timestamp: day is out of range for month",
        )
    ]


@pytest.mark.parametrize("tag", ["set", "omap", "pairs", "binary"])
def test_non_json_yaml_types_are_rejected(scenario: Edit, tag: str) -> None:
    value = "aGk=" if tag == "binary" else "{a: 1}" if tag == "set" else "[a: 1]"
    path = scenario(("title: Send the contact form", f"title: !!{tag} {value}"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "line 2, column 8",
            f"not valid YAML: the YAML type !!{tag} is not allowed in a scenario",
        )
    ]


@pytest.mark.parametrize(("key", "shown"), [("1", "1"), ("yes", "True"), ("null", "None")])
def test_keys_must_be_text(scenario: Edit, key: str, shown: str) -> None:
    path = scenario(("fields: {name: Dana}", f"fields: {{{key}: Dana}}"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            f"checks[0].submitted.fields.{shown}",
            f"key {shown} is not text",
            "quote it: YAML reads unquoted numbers, dates, null and yes/no/on/off/true/false "
            "as other types",
        )
    ]


def test_a_list_as_a_key_is_a_yaml_error(scenario: Edit) -> None:
    path = scenario(append="? [a]\n: b\n")
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "line 22, column 3",
            "not valid YAML: a key must be a string or a number, not a list or mapping",
        )
    ]


def test_long_values_are_cut_in_messages(scenario: Edit) -> None:
    path = scenario(("tier: local", "tier: " + "x" * 5000))
    (problem,) = problems_in(path, SITES)
    assert problem.field == "tier"
    assert problem.message == "'" + "x" * 56 + "... is not allowed"


def test_many_errors_are_reported_in_linear_time(scenario: Edit) -> None:
    path = scenario(append="judge: [" + ",".join(["1"] * 20_000) + "]\n")
    started = time.process_time()
    problems = problems_in(path, SITES)
    assert time.process_time() - started < 3
    assert len(problems) == 20_000
    assert problems[-1].field == "judge[19999]"


def test_dump_scenario_writes_shared_objects_out_so_the_loader_accepts_them(
    tmp_path: Path,
) -> None:
    done = {"op": "done"}
    data = {
        "id": "shared",
        "title": "Shared objects",
        "brief": "Open {site.forms}.",
        "tier": "local",
        "category": "regression",
        "world": {"sites": ["forms"]},
        "checks": [{"requested": {"path": "/"}}],
        "solution": [done],
        "decoys": [{"name": "same", "steps": [done], "fails": ["requested"]}],
    }
    assert "*id001" in yaml.safe_dump(data)  # what a plain dump would write
    path = tmp_path / "shared.yaml"
    path.write_text(dump_scenario(data), encoding="utf-8")
    loaded = load_scenario(path, sites={"forms"})
    assert [a.op for a in loaded.scenario.decoys[0].steps] == ["done"]
