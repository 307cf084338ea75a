"""App seeds in scenario files: validated at load time, reported with file and field path."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from proctor.errors import ScenarioError
from proctor.scenario import Problem, load_scenario, problems_in
from proctor.scenario._seed import When, anchor
from proctor.scenario._sheets import parse_cell

SITES = {"mail", "sheets", "chat", "calendar"}

HEAD = """\
id: sample
title: File the invoice
tier: local
category: capability
brief: Put the invoice from {site.mail} into the ledger on {site.sheets}.
"""
TAIL = """\
checks:
  - sheet_cells: {workbook: ledger, cells: {A2: INV-7}}
solution:
  - {op: done}
decoys:
  - name: gives-up
    steps: [{op: done}]
    fails: [sheet_cells]
"""
WORLD = """\
world:
  sites: [mail, sheets]
  apps:
    mail:
      tz: Europe/Paris
      messages:
        - {from: ana@example.test, subject: One, at: {days: -1, at: "09:00"}}
        - {from: "Bo <bo@example.test>", subject: Two, at: {hours: -2}}
        - {from: ana.example.test, subject: Three, at: {days: -1, at: "25:00"}}
    sheets:
      workbooks:
        - id: ledger
          title: Ledger
          sheets: [{name: Invoices, rows: [[Invoice, Amount], [yes, 3]]}]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "sample.yaml"
    path.write_text(text)
    return path


def test_a_bad_seed_is_reported_with_its_field_path(tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + WORLD + TAIL)
    problems = problems_in(path, SITES)
    assert [(p.file, p.field, p.message) for p in problems] == [
        (
            str(path),
            "world.apps.mail.messages[2].from",
            "'ana.example.test' is not an email address (a@b.test or Name <a@b.test>)",
        ),
        (
            str(path),
            "world.apps.mail.messages[2].at.at",
            "String should match pattern '^([01][0-9]|2[0-3]):[0-5][0-9]$'",
        ),
        (
            str(path),
            "world.apps.sheets.workbooks[0].sheets[0].rows[1][0]",
            "wrong type: expected a string, an integer or a number (got True)",
        ),
    ]
    assert problems[2].hint.startswith('quote it if it is text, e.g. "true"')
    with pytest.raises(ScenarioError, match=r"world\.apps\.mail\.messages\[2\]\.from"):
        load_scenario(path, SITES)


def test_an_unknown_app_gets_a_hint(tmp_path: Path) -> None:
    world = "world:\n  sites: [mail, sheets]\n  apps:\n    mial: {}\n    sheets: {}\n"
    problems = problems_in(write(tmp_path, HEAD + world + TAIL), SITES)
    assert [(p.field, p.message) for p in problems] == [("world.apps.mial", "unknown key 'mial'")]
    # other seeded sites (e.g. shop) may follow the four apps in the list
    assert problems[0].hint.startswith(
        "did you mean 'mail'? valid keys: mail, calendar, sheets, chat"
    )


def test_an_unknown_seed_key_gets_a_hint(tmp_path: Path) -> None:
    world = (
        "world:\n  sites: [mail, sheets]\n  apps:\n    mail:\n      messages:\n"
        "        - {form: a@b.test, subject: x, at: {days: 0}}\n    sheets: {}\n"
    )
    problems = problems_in(write(tmp_path, HEAD + world + TAIL), SITES)
    assert [(p.field, p.message) for p in problems] == [
        ("world.apps.mail.messages[0].from", "missing required field 'from'"),
        ("world.apps.mail.messages[0].form", "unknown key 'form'"),
    ]
    assert problems[1].hint.startswith("did you mean 'from'?")


def test_a_seeded_app_must_be_a_listed_site(tmp_path: Path) -> None:
    world = "world:\n  sites: [mail]\n  apps:\n    sheets: {}\n"
    text = (HEAD + world + TAIL).replace(" on {site.sheets}", "")
    problems = problems_in(write(tmp_path, text), SITES)
    assert [(p.field, p.message) for p in problems] == [
        (
            "world",
            "world.apps seeds sheets but world.sites does not list it: add sheets to world.sites",
        )
    ]


def test_nothing_sent_alone_is_refused_and_paired_is_fine(tmp_path: Path) -> None:
    world = "world:\n  sites: [mail, sheets]\n"
    alone = TAIL.replace(
        "  - sheet_cells: {workbook: ledger, cells: {A2: INV-7}}\n",
        "  - nothing_sent: {app: mail}\n  - not_submitted: {route: pay}\n",
    ).replace("fails: [sheet_cells]", "fails: [nothing_sent]")
    problems = problems_in(write(tmp_path, HEAD + world + alone), SITES)
    assert problems == [
        Problem(
            str(tmp_path / "sample.yaml"),
            "checks[0]",
            "nothing_sent is the only kind of check, so an agent that does nothing passes",
            "pair it with a check that the task's precondition happened, "
            "e.g. draft_exists, sheet_cells or chat_posted",
        )
    ]
    paired = TAIL.replace(
        "  - sheet_cells: {workbook: ledger, cells: {A2: INV-7}}\n",
        "  - nothing_sent: {app: mail}\n  - draft_exists: {to: ana@example.test}\n",
    ).replace("fails: [sheet_cells]", "fails: [draft_exists]")
    assert problems_in(write(tmp_path, HEAD + world + paired), SITES) == []


def test_the_loaded_seed_is_typed_and_keeps_its_values(tmp_path: Path) -> None:
    good = WORLD.replace("ana.example.test", "cy@example.test").replace('"25:00"', '"08:15"')
    good = good.replace("[yes, 3]", '["yes", 3]')
    loaded = load_scenario(write(tmp_path, HEAD + good + TAIL), SITES)
    mail = loaded.scenario.world.apps.mail
    assert mail is not None
    assert [m.from_ for m in mail.messages] == [
        "ana@example.test",
        "Bo <bo@example.test>",
        "cy@example.test",
    ]
    assert loaded.scenario.world.apps.seeded() == ["mail", "sheets"]
    assert dict(loaded.scenario.world.apps)["sheets"].workbooks[0].sheets[0].rows[1] == ["yes", 3]


def test_anchors_follow_the_zone_and_its_daylight_saving() -> None:
    now = dt.datetime(2025, 3, 29, 23, 30, tzinfo=dt.UTC)  # already Sunday 30 March in Paris
    assert anchor(When(days=0, at="09:00"), now, "Europe/Paris").isoformat() == (
        "2025-03-30T09:00:00+02:00"
    )
    assert anchor(When(days=-1, at="09:00"), now, "Europe/Paris").isoformat() == (
        "2025-03-29T09:00:00+01:00"
    )
    assert anchor(When(minutes=-90), now, "UTC").isoformat() == "2025-03-29T22:00:00+00:00"
    with pytest.raises(ValueError, match="not both"):
        When(at="09:00", hours=1)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("42", 42),
        ("-3.5", -3.5),
        ("$1,250.50", 1250.5),
        ("1,23", "1,23"),
        ("  ", None),
        (" x ", "x"),
    ],
)
def test_parse_cell(typed: str, stored: object) -> None:
    assert parse_cell(typed) == stored
