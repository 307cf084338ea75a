"""Dotted paths into snapshots: the grammar at load time, and what a path that misses says."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from proctor.grading import grade_one
from proctor.grading._paths import Found, Missed, dig, select
from proctor.records import EndState, FileFact
from proctor.scenario import CheckSpec, PathStep, parse_path, show_path

_CHECK: TypeAdapter[Any] = TypeAdapter(CheckSpec)
HASH = "c" * 64

APPS: dict[str, Any] = {
    "forms": {
        "messages": [
            {"id": "lease-draft", "attachments": [{"name": "lease.pdf", "sha256": "d" * 64}]},
            {"id": "lease-signed", "n": 43, "ok": True, "attachments": [
                {"name": "cover.txt", "sha256": "e" * 64},
                {"name": "lease v2.pdf", "sha256": HASH},
            ]},
        ],
        "owner": {"name": "Dana"},
    }
}  # fmt: skip


@pytest.mark.parametrize(
    ("path", "steps"),
    [
        ("bookings", [PathStep("key", "bookings")]),
        ("a.0.b", [PathStep("key", "a"), PathStep("key", "0"), PathStep("key", "b")]),
        ("messages[2]", [PathStep("key", "messages"), PathStep("index", "2")]),
        (
            "messages[id=lease-signed].attachments[name=lease v2.pdf].sha256",
            [
                PathStep("key", "messages"),
                PathStep("match", "id", "lease-signed"),
                PathStep("key", "attachments"),
                PathStep("match", "name", "lease v2.pdf"),
                PathStep("key", "sha256"),
            ],
        ),
        ("rows[0][1]", [PathStep("key", "rows"), PathStep("index", "0"), PathStep("index", "1")]),
        ("[0].id", [PathStep("index", "0"), PathStep("key", "id")]),
    ],
)
def test_a_path_parses_into_steps_and_back(path: str, steps: list[PathStep]) -> None:
    assert parse_path(path) == steps
    assert show_path(steps) == path


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("", "the path is empty"),
        ("a..b", "path 'a..b' has an empty key at 3"),
        ("a.", "path 'a.' ends with a dot"),
        ("a[id=x", "path 'a[id=x': the [ at 2 is never closed"),
        ("a[id=]", "path 'a[id=]': [id=] is not a selector"),
        ("a[=x]", "path 'a[=x]': [=x] is not a selector"),
        ("a[x]", "path 'a[x]': [x] is not a selector"),
        ("a[0]b", "path 'a[0]b' has 'b' at 5"),
        ("a b", "path 'a b' has ' ' at 2"),
    ],
)
def test_a_malformed_path_is_refused_naming_it(path: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_path(path)


@pytest.mark.parametrize(
    ("check", "message"),
    [
        (
            {"file_sha256": {"path": "x", "sha256_from": "mail.messages[id=].sha256"}},
            "path 'mail.messages[id=].sha256': [id=] is not a selector",
        ),
        (
            {"file_sha256": {"path": "x", "sha256_from": "mail"}},
            "path 'mail' must start with a site's name and go on into its snapshot",
        ),
        (
            {"file_sha256": {"path": "x", "sha256_from": "[0].sha256"}},
            "path '[0].sha256' must start with a site's name",
        ),
        (
            {"site_state": {"site": "mail", "items": "messages[id=x"}},
            "path 'messages[id=x': the [ at 9 is never closed",
        ),
        (
            {"site_state": {"site": "mail", "items": "messages", "where": {"a..b": 1}}},
            "path 'a..b' has an empty key at 3",
        ),
        (
            {"step": {"op": "click", "where": {"facts.downloads[x]": "a.pdf"}}},
            "path 'facts.downloads[x]': [x] is not a selector",
        ),
    ],
)
def test_checks_refuse_a_malformed_path_at_load(check: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)):
        _CHECK.validate_python(check)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("forms.messages[id=lease-signed].attachments[name=lease v2.pdf].sha256", HASH),
        ("forms.messages[1].attachments.1.sha256", HASH),
        ("forms.messages[n=43].id", "lease-signed"),  # a number compares as its JSON text
        ("forms.messages[ok=true].id", "lease-signed"),
        ("forms.owner.name", "Dana"),
    ],
)
def test_a_path_selects_by_key_index_and_field(path: str, value: Any) -> None:
    assert select(APPS, path) == Found(value)
    assert dig(APPS, path) == value


@pytest.mark.parametrize(
    ("path", "why"),
    [
        (
            "forms.messages[id=lease-signd].id",
            "no item of forms.messages has id 'lease-signd'; ids present: lease-draft, "
            "lease-signed",
        ),
        (
            "forms.messages[id=lease-signed].attachments[name=lease.pdf].sha256",
            "no item of forms.messages[id=lease-signed].attachments has name 'lease.pdf'; "
            "names present: cover.txt, lease v2.pdf",
        ),
        ("forms.messages[id=lease-draft].ref", "forms.messages[id=lease-draft] has no key ref; "
         "keys: attachments, id"),
        ("forms.messages[5]", "forms.messages has 2 item(s); no [5]"),
        ("forms.messages.first", "forms.messages is a list; pick an item with [N] or "
         "[field=value], not first"),
        ("forms.owner[id=x]", "forms.owner is a mapping, not a list to pick [id=...] from"),
        ("forms.owner.name.first", "forms.owner.name is a value (str); it has no first"),
        ("bank.statements", "the top has no key bank; keys: forms"),
    ],
)  # fmt: skip
def test_a_path_that_selects_nothing_names_the_path_and_what_is_there(path: str, why: str) -> None:
    assert select(APPS, path) == Missed(f"{path} selects nothing: {why}")
    assert dig(APPS, path) is None


def test_file_sha256_reports_the_ids_present_when_an_id_is_wrong() -> None:
    state = EndState(apps=APPS, files={"out/lease.pdf": FileFact(sha256=HASH, size=10)})
    ok = {"path": "out/lease.pdf", "sha256_from": "forms.messages[id=lease-signed]"
          ".attachments[1].sha256"}  # fmt: skip
    assert grade_one(_CHECK.validate_python({"file_sha256": ok}), state).passed
    wrong = {**ok, "sha256_from": "forms.messages[id=lease].attachments[1].sha256"}
    result = grade_one(_CHECK.validate_python({"file_sha256": wrong}), state)
    assert (result.passed, result.expected, result.actual) == (
        False,
        {"sha256_from": "forms.messages[id=lease].attachments[1].sha256"},
        None,
    )
    assert result.detail == (
        "forms.messages[id=lease].attachments[1].sha256 selects nothing: no item of "
        "forms.messages has id 'lease'; ids present: lease-draft, lease-signed"
    )
    not_hash = {**ok, "sha256_from": "forms.messages[id=lease-signed].n"}
    assert grade_one(_CHECK.validate_python({"file_sha256": not_hash}), state).detail == (
        "forms.messages[id=lease-signed].n selects int, not a hash"
    )


def test_step_where_reads_a_list_item_by_index() -> None:
    step = {
        "index": 0,
        "tool": "browser",
        "op": "click",
        "status": "ok",
        "started_at": 1.0,
        "latency_ms": 1.0,
        "facts": {"downloads": ["output/a.pdf", "output/a (1).pdf"]},
    }
    state = EndState.model_validate({"steps": [step]})  # fmt: skip
    second = {"op": "click", "where": {"facts.downloads[1]": "output/a (1).pdf"}}
    assert grade_one(_CHECK.validate_python({"step": second}), state).actual == {"steps": [0]}
    third = {"op": "click", "where": {"facts.downloads[2]": "output/a (1).pdf"}}
    assert grade_one(_CHECK.validate_python({"step": third}), state).actual == {"steps": []}


def test_site_state_walks_items_by_id_and_where_by_path() -> None:
    state = EndState(apps=APPS)
    spec = {"site": "forms", "items": "messages[id=lease-signed].attachments",
            "where": {"name": {"regex": r"\.pdf$"}}, "count": 1}  # fmt: skip
    result = grade_one(_CHECK.validate_python({"site_state": spec}), state)
    assert (result.passed, result.actual) == (True, 1)
    nested = {"site": "forms", "items": "messages", "where": {"attachments[0].name": "cover.txt"}}
    assert grade_one(_CHECK.validate_python({"site_state": nested}), state).actual == 1
    missing = {"site": "forms", "items": "messages[id=nope].attachments"}
    result = grade_one(_CHECK.validate_python({"site_state": missing}), state)
    assert (result.passed, result.detail) == (
        False,
        "in the forms snapshot, messages[id=nope].attachments selects nothing: no item of "
        "messages has id 'nope'; ids present: lease-draft, lease-signed",
    )
