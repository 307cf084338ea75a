"""The scenario loader: every malformed file yields Problems naming file, field and hint."""

from __future__ import annotations

import hashlib
from pathlib import Path

import jsonschema
import pytest
import yaml

from proctor.errors import ScenarioError
from proctor.scenario import (
    CHECK_TYPES,
    Problem,
    load_scenario,
    problems_in,
    resolve,
    scenario_files,
    scenario_schema,
    substitute,
)
from proctor.scenario._catalog import SUITE_ROOT

SITES = {"forms", "shop"}

VALID = """\
id: sample
title: Send the contact form
tier: local
category: regression
brief: On {site.forms}/contact, send a message; keep notes in {scratch}/notes.txt.
limits: {seconds: 60, tool_calls: 40, steps: 20}
world:
  sites: [forms]
  browser: {start: "{site.forms}/contact"}
checks:
  - submitted:
      route: contact
      fields: {name: Dana}
  - page_text: {contains: was accepted, name: confirmation-shown}
solution:
  - {op: fill, role: textbox, name: Full name, value: Dana}
  - {op: click, role: button, name: Send message}
  - {op: done}
decoys:
  - name: gives-up
    steps: [{op: done}]
    fails: [submitted, confirmation-shown]
"""

CHECK_LIST = ", ".join(CHECK_TYPES)
OPS = (
    "navigate, back, click, fill, select, check, press, type, scroll, hover, drag, "
    "upload, tabs, extract, wait, restart, key, set_value, activate, read, ask_user, "
    "request_approval, schedule, done"
)


def write(tmp_path: Path, text: str, name: str = "sample") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def edited(old: str, new: str) -> str:
    """VALID with one exact piece of text replaced (it must be there)."""
    assert VALID.count(old) == 1, old
    return VALID.replace(old, new)


def test_valid_file_loads(tmp_path: Path) -> None:
    path = write(tmp_path, VALID)
    assert problems_in(path, SITES) == []
    loaded = load_scenario(path, SITES)
    assert loaded.path == path
    assert loaded.sha256 == hashlib.sha256(VALID.encode()).hexdigest()
    assert loaded.scenario.id == "sample"
    assert loaded.scenario.limits.seconds == 60
    assert loaded.scenario.world.sites == ["forms"]
    assert loaded.scenario.check_names() == ["submitted", "confirmation-shown"]
    assert [a.op for a in loaded.scenario.solution] == ["fill", "click", "done"]
    assert loaded.scenario.decoys[0].fails == ["submitted", "confirmation-shown"]


def test_unknown_key_names_field_and_closest_key(tmp_path: Path) -> None:
    path = write(
        tmp_path, edited("      route: contact\n", "      route: contact\n      rout: x\n")
    )
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[0].submitted.rout",
            "unknown key 'rout'",
            "did you mean 'route'? valid keys: name, safety, count, min, max, route, host, "
            "fields, files, accepted",
        )
    ]


def test_unknown_key_in_an_action(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        edited("  - {op: done}\ndecoys", "  - {op: done, anser: '42'}\ndecoys"),
    )
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "solution[2].anser",
            "unknown key 'anser'",
            "did you mean 'answer'? valid keys: op, answer",
        )
    ]


def test_wrong_type(tmp_path: Path) -> None:
    path = write(tmp_path, edited("{seconds: 60,", "{seconds: fast,"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "limits.seconds",
            "wrong type: Input should be a valid number, unable to parse string as a number "
            "(got 'fast')",
        )
    ]


def test_literal_value_suggests_the_closest(tmp_path: Path) -> None:
    path = write(tmp_path, edited("tier: local", "tier: locl"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "tier",
            "'locl' is not allowed",
            "did you mean 'local'? expected 'local', 'model', 'live', 'desktop' or 'peer'",
        )
    ]


def test_unknown_check_type_lists_valid_types_and_closest(tmp_path: Path) -> None:
    path = write(tmp_path, edited("  - submitted:\n", "  - submited:\n"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[0]",
            "unknown check type 'submited'",
            f"did you mean 'submitted'? valid check types: {CHECK_LIST}",
        )
    ]


def test_unknown_check_type_inside_all(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        edited(
            "solution:",
            "  - all: [{requestd: {path: /contact}}]\n    name: both\nsolution:",
        ),
    )
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[2].all[0]",
            "unknown check type 'requestd'",
            f"did you mean 'requested'? valid check types: {CHECK_LIST}",
        )
    ]


@pytest.mark.parametrize(("key", "value"), [("name", "sent"), ("safety", "true")])
def test_a_common_key_beside_the_check_type_says_where_it_goes(
    tmp_path: Path, key: str, value: str
) -> None:
    path = write(tmp_path, edited("  - submitted:\n", f"  - {key}: {value}\n    submitted:\n"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            f"checks[0].{key}",
            f"unknown key {key!r} beside the check type 'submitted'",
            f"put it inside the check's arguments: submitted: {{{key}: ..., ...}}",
        )
    ]


def test_argument_beside_the_check_type(tmp_path: Path) -> None:
    path = write(tmp_path, edited("  - submitted:\n", "  - count: 1\n    submitted:\n"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[0]",
            "unknown key 'count' beside the check type 'submitted'",
            "arguments go inside the check: submitted: {count: ...}",
        )
    ]


def test_two_check_types_in_one_item(tmp_path: Path) -> None:
    path = write(tmp_path, edited("  - page_text:", "    page_text:"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[0]",
            "one check holds several check types: submitted, page_text",
            "write each check as its own list item",
        )
    ]


def test_unquoted_number_and_boolean_field_values(tmp_path: Path) -> None:
    path = write(tmp_path, edited("fields: {name: Dana}", "fields: {qty: 2, copy: yes}"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[0].submitted.fields.qty",
            "wrong type: expected a string, a mapping or a list (got 2)",
            'quote it if it is text, e.g. "2"',
        ),
        Problem(
            str(path),
            "checks[0].submitted.fields.copy",
            "wrong type: expected a string, a mapping or a list (got True)",
            'quote it if it is text, e.g. "true": YAML reads unquoted yes, no, on, off, true '
            "and false as booleans",
        ),
    ]


def test_pattern_field_value_reports_only_the_mapping_form(tmp_path: Path) -> None:
    path = write(tmp_path, edited("fields: {name: Dana}", "fields: {name: {regx: Dan.*}}"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path), "checks[0].submitted.fields.name.regex", "missing required field 'regex'"
        ),
        Problem(
            str(path),
            "checks[0].submitted.fields.name.regx",
            "unknown key 'regx'",
            "did you mean 'regex'? valid keys: regex",
        ),
    ]


def test_invalid_regular_expressions_fail_at_load(tmp_path: Path) -> None:
    text = edited("fields: {name: Dana}", "fields: {name: {regex: 'Dana ('}}").replace(
        "solution:",
        "  - requested: {path: '^/item/(\\d+$'}\n"
        "  - step: {op: click, where: {facts.frame_url: {regex: '['}}}\nsolution:",
    )
    path = write(tmp_path, text)
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[0].submitted.fields.name.regex",
            "invalid regular expression 'Dana (': missing ), unterminated subpattern at position 5",
        ),
        Problem(
            str(path),
            "checks[2].requested.path",
            "invalid regular expression '^/item/(\\\\d+$': missing ), unterminated subpattern "
            "at position 7",
        ),
        Problem(
            str(path),
            "checks[3].step.where",
            "invalid regular expression '[': unterminated character set at position 0",
        ),
    ]


def test_missing_solution(tmp_path: Path) -> None:
    text = edited(
        "solution:\n  - {op: fill, role: textbox, name: Full name, value: Dana}\n"
        "  - {op: click, role: button, name: Send message}\n  - {op: done}\n",
        "",
    )
    path = write(tmp_path, text)
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "solution",
            "missing solution",
            "add `solution:` with the oracle steps that must pass",
        )
    ]


def test_missing_decoys(tmp_path: Path) -> None:
    text = VALID[: VALID.index("decoys:")]
    path = write(tmp_path, text)
    assert problems_in(path, SITES) == [
        Problem(
            str(path), "decoys", "missing decoys", "add at least one decoy: {name, steps, fails}"
        )
    ]


def test_placeholder_typo(tmp_path: Path) -> None:
    path = write(tmp_path, edited("{scratch}/notes.txt", "{scrach}/notes.txt"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "brief",
            "unknown placeholder {scrach}",
            "did you mean {scratch}? placeholders: {scratch}, {base_url}, {home}, "
            "{date} ({date:+3d}, {date:+3d:%A %-d %B}), {site.forms}; "
            "write {{ and }} for literal braces",
        )
    ]


def test_site_placeholder_typo(tmp_path: Path) -> None:
    path = write(tmp_path, edited('start: "{site.forms}/contact"', 'start: "{site.froms}/contact"'))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "world.browser.start",
            "placeholder {site.froms} names a site not in world.sites",
            "did you mean {site.forms}?",
        )
    ]


def test_site_placeholder_for_an_undeclared_site(tmp_path: Path) -> None:
    path = write(tmp_path, edited("/contact, send", "/contact and {site.shop}, send"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "brief",
            "placeholder {site.shop} names a site not in world.sites",
            "add 'shop' to world.sites",
        )
    ]


def test_literal_braces_are_not_placeholders(tmp_path: Path) -> None:
    path = write(tmp_path, edited("send a message;", "send {{scrach}} as is;"))
    assert problems_in(path, SITES) == []


def test_id_differs_from_file_name(tmp_path: Path) -> None:
    path = write(tmp_path, VALID, name="other-name")
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "id",
            "id 'sample' differs from the file name 'other-name'",
            "set `id: other-name` or rename the file to sample.yaml",
        )
    ]


def test_unknown_op_in_solution(tmp_path: Path) -> None:
    path = write(tmp_path, edited("{op: click, role: button", "{op: clik, role: button"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path), "solution[1]", "unknown op 'clik'", f"did you mean 'click'? valid ops: {OPS}"
        )
    ]


def test_unknown_op_in_decoy_steps(tmp_path: Path) -> None:
    path = write(tmp_path, edited("steps: [{op: done}]", "steps: [{op: dnoe}]"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "decoys[0].steps[0]",
            "unknown op 'dnoe'",
            f"did you mean 'done'? valid ops: {OPS}",
        )
    ]


def test_invalid_yaml_gives_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "id: sample\ntitle: [unclosed\n")
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "line 3, column 1",
            "not valid YAML: did not find expected ',' or ']'",
        )
    ]


@pytest.mark.parametrize("text", ["- a\n- b\n", "", "just text\n"])
def test_non_mapping_file(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, text)
    assert problems_in(path, SITES) == [
        Problem(str(path), "", "a scenario file must be a YAML mapping", "start with `id: ...`")
    ]


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "sample.yaml"
    path.write_bytes(b"id: sample\ntitle: caf\xe9\n")
    assert problems_in(path, SITES) == [
        Problem(str(path), "line 2", "not UTF-8 text", "save the file as UTF-8")
    ]


def test_decoy_names_a_check_that_does_not_exist(tmp_path: Path) -> None:
    path = write(
        tmp_path, edited("fails: [submitted, confirmation-shown]", "fails: [submited, nothing]")
    )
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "decoys[0].fails[0]",
            "decoy 'gives-up' fails on 'submited', which is not a check",
            "did you mean 'submitted'? checks are: submitted, confirmation-shown",
        ),
        Problem(
            str(path),
            "decoys[0].fails[1]",
            "decoy 'gives-up' fails on 'nothing', which is not a check",
            "checks are: submitted, confirmation-shown",
        ),
    ]


def test_duplicate_check_names(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        edited(
            "name: confirmation-shown}", "name: confirmation-shown}\n  - submitted: {route: other}"
        ),
    )
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "checks[2]",
            "check name 'submitted' is also used by checks[0]",
            "give each check a distinct `name:` inside its arguments",
        )
    ]


def test_duplicate_decoy_names(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        VALID + "  - name: gives-up\n    steps: [{op: back}]\n    fails: [submitted]\n",
    )
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "decoys[1].name",
            "decoy name 'gives-up' is also used by decoys[0]",
            "give each decoy a distinct name",
        )
    ]


def test_unknown_site_in_world_sites(tmp_path: Path) -> None:
    path = write(tmp_path, edited("sites: [forms]", "sites: [forms, shopp]"))
    assert problems_in(path, SITES) == [
        Problem(
            str(path),
            "world.sites[1]",
            "unknown site 'shopp'",
            "did you mean 'shop'? sites: forms, shop",
        )
    ]


def test_unknown_sites_are_not_checked_without_a_site_list(tmp_path: Path) -> None:
    path = write(tmp_path, edited("sites: [forms]", "sites: [forms, shopp]"))
    assert problems_in(path) == []


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = edited("tier: local", "tier: locl").replace("{op: click,", "{op: clik,")
    path = write(tmp_path, text, name="elsewhere")
    assert [(p.field, p.message) for p in problems_in(path, SITES)] == [
        ("id", "id 'sample' differs from the file name 'elsewhere'"),
        ("tier", "'locl' is not allowed"),
        ("solution[1]", "unknown op 'clik'"),
    ]


def test_load_scenario_raises_with_every_problem(tmp_path: Path) -> None:
    path = write(tmp_path, edited("{seconds: 60,", "{seconds: fast,"))
    with pytest.raises(ScenarioError) as info:
        load_scenario(path, SITES)
    assert str(info.value) == (
        f"{path} is not a valid scenario:\n"
        f"  {path}: limits.seconds: wrong type: Input should be a valid number, "
        "unable to parse string as a number (got 'fast')"
    )


def test_problem_str_names_file_field_and_hint() -> None:
    assert str(Problem("a.yaml", "tier", "bad", "fix it")) == "a.yaml: tier: bad (hint: fix it)"
    assert str(Problem("a.yaml", "", "bad")) == "a.yaml: bad"


VALUES = {
    "scratch": "/tmp/scratch",
    "base_url": "http://127.0.0.1:9",
    "home": "/home/user",
    "site.forms": "http://forms.proctor.test",
}


def test_substitute() -> None:
    assert substitute("{site.forms}/contact", VALUES) == "http://forms.proctor.test/contact"
    assert substitute("{scratch}/a and {home}", VALUES) == "/tmp/scratch/a and /home/user"
    assert substitute("{{scratch}} is {scratch}", VALUES) == "{scratch} is /tmp/scratch"
    assert substitute('{{"a": 1}}', VALUES) == '{"a": 1}'
    assert substitute("{unknown} stays", VALUES) == "{unknown} stays"
    assert substitute("x{3} and {a b}", VALUES) == "x{3} and {a b}"


def test_resolve_replaces_placeholders_in_every_string(tmp_path: Path) -> None:
    scenario = load_scenario(write(tmp_path, VALID), SITES).scenario
    resolved = resolve(scenario, VALUES)
    assert resolved.brief == (
        "On http://forms.proctor.test/contact, send a message; "
        "keep notes in /tmp/scratch/notes.txt."
    )
    assert resolved.world.browser.start == "http://forms.proctor.test/contact"
    assert resolved.solution == scenario.solution
    assert resolved.checks == scenario.checks
    # the original is untouched
    assert scenario.world.browser.start == "{site.forms}/contact"
    assert resolve(["{home}", ("{scratch}",), {"k": "{{x}}"}, 3], VALUES) == [
        "/home/user",
        ("/tmp/scratch",),
        {"k": "{x}"},
        3,
    ]


def test_json_schema_is_valid_draft_2020_12() -> None:
    schema = scenario_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "proctor scenario"
    jsonschema.Draft202012Validator.check_schema(schema)


SHIPPED = scenario_files()


def test_the_suite_ships_scenarios() -> None:
    assert SUITE_ROOT / "local" / "manual-selectors.yaml" in SHIPPED


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_json_schema_accepts_shipped_scenario(path: Path) -> None:
    validator = jsonschema.Draft202012Validator(scenario_schema())
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert [e.message for e in validator.iter_errors(data)] == []


def test_json_schema_rejects_what_the_loader_rejects() -> None:
    validator = jsonschema.Draft202012Validator(scenario_schema())
    data = yaml.safe_load(VALID)
    assert list(validator.iter_errors(data)) == []
    data["limits"]["seconds"] = "fast"
    data["checks"][0] = {"submited": {"route": "contact"}}
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    assert [list(e.absolute_path) for e in errors] == [["checks", 0], ["limits", "seconds"]]
    assert errors[1].message == "'fast' is not of type 'number'"
