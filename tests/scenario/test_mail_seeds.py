"""The mail seed's folders, labels, rules and later mail: what it accepts and what it names."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from proctor.scenario import MailSeed, RuleSeed, message_texts, name_problem, rule_matches


def seed(**fields: Any) -> MailSeed:
    return MailSeed.model_validate(fields)


def problem(**fields: Any) -> str:
    with pytest.raises(ValidationError) as info:
        MailSeed.model_validate(fields)
    return "; ".join(e["msg"] for e in info.value.errors())


MSG = {"from": "ana@example.test", "subject": "Hi", "at": {"days": -1}}


def test_folders_labels_and_rules_are_kept_in_order() -> None:
    made = seed(
        folders=["Invoices", "Travel 2025"],
        labels=["Bills"],
        rules=[{"from": "billing@", "subject": "Invoice", "folder": "invoices", "read": True}],
        messages=[{**MSG, "folder": "Travel 2025", "labels": ["bills"]}],
    )
    assert (made.folders, made.labels) == (["Invoices", "Travel 2025"], ["Bills"])
    assert made.rules[0].conditions() == {"from": "billing@", "subject": "Invoice"}
    assert (made.messages[0].folder, made.messages[0].labels) == ("Travel 2025", ["bills"])


def test_unknown_folders_and_labels_are_named_with_where_they_are_used() -> None:
    assert problem(
        messages=[{**MSG, "folder": "Receipts", "labels": ["Bills"]}],
        rules=[{"to": "me@", "label": "Work"}],
    ) == (
        "Value error, messages[0]: unknown folder 'Receipts' (add it to folders); "
        "messages[0]: unknown label 'Bills' (add it to labels); "
        "rules[0]: unknown label 'Work' (add it to labels)"
    )
    assert "folder names must be unique: Bills, bills" in problem(folders=["Bills", "bills"])


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "Give the folder a name."),
        ("Inbox", "'Inbox' is a name the mailbox uses itself; choose another folder name."),
        ("Sent", "'Sent' is a name the mailbox uses itself; choose another folder name."),
        ("a/b", "A folder name starts with a letter or digit and may use letters, digits, "
         "spaces and . & ' ( ) + - _ only."),
        ("x" * 41, "A folder name has at most 40 characters."),
    ],
)  # fmt: skip
def test_folder_names_are_refused_with_the_reason(name: str, why: str) -> None:
    assert name_problem(name, "folder") == why
    assert why in problem(folders=[name])


def test_a_rule_needs_a_condition_and_an_action_and_never_files_into_the_inbox() -> None:
    with pytest.raises(ValidationError, match="give at least one condition"):
        RuleSeed.model_validate({"folder": "archive"})
    with pytest.raises(ValidationError, match="give at least one action"):
        RuleSeed.model_validate({"from": "x"})
    with pytest.raises(ValidationError, match="cannot move mail to the inbox"):
        RuleSeed.model_validate({"from": "x", "folder": "Inbox"})


def test_later_mail_needs_no_time_and_arrives_in_the_inbox() -> None:
    later = seed(messages=[{"from": "a@b.test", "subject": "Soon", "arrives_after": 3}])
    assert (later.messages[0].arrives_after, later.messages[0].at) == (3, None)
    assert "give `at` (when it arrived), or `arrives_after`" in problem(
        messages=[{"from": "a@b.test", "subject": "x"}]
    )
    assert "mail that arrives later arrives in the inbox" in problem(
        messages=[{"from": "a@b.test", "subject": "x", "arrives_after": 1, "folder": "spam"}]
    )
    assert "greater than or equal to 0" in problem(
        messages=[{"from": "a@b.test", "subject": "x", "arrives_after": -1}]
    )


def test_rule_matching_is_every_condition_contained_ignoring_case_and_spacing() -> None:
    texts = message_texts(
        "billing@northwind.example.test",
        "Northwind Billing",
        ["me@example.test"],
        ["cc@example.test"],
        "Invoice  INV-0419",
        "Total due",
    )
    assert texts["from"] == "Northwind Billing <billing@northwind.example.test>"
    assert texts["to"] == "me@example.test cc@example.test"
    assert rule_matches({"from": "NORTHWIND billing", "subject": "invoice inv-0419"}, texts)
    assert rule_matches({"to": "cc@example"}, texts)
    assert not rule_matches({"from": "northwind", "subject": "receipt"}, texts)
    assert not rule_matches({}, texts)
