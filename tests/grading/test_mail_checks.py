"""The mail-organizing checks over constructed end states: verdicts, and what they report."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from proctor.grading import grade_one
from proctor.records import CheckResult, EndState
from proctor.scenario import CheckSpec

_CHECK: TypeAdapter[Any] = TypeAdapter(CheckSpec)
AT = "2025-03-04T10:00:00+00:00"
PDF = hashlib.sha256(b"pdf").hexdigest()
CSV = hashlib.sha256(b"csv").hexdigest()


def run(data: dict[str, Any], state: EndState) -> CheckResult:
    return grade_one(_CHECK.validate_python(data), state)


def message(mid: str, sender: str, subject: str, folder: str = "inbox", **extra: Any) -> Any:
    return {
        "id": mid,
        "folder": folder,
        "thread": mid,
        "from": sender,
        "from_name": extra.pop("from_name", ""),
        "to": ["me@example.test"],
        "cc": [],
        "subject": subject,
        "body": extra.pop("body", ""),
        "at": AT,
        "read": False,
        "attachments": extra.pop("attachments", []),
        "labels": extra.pop("labels", []),
        "rules": extra.pop("rules", []),
        "delivered": extra.pop("delivered", "setup"),
    }


def rule(rid: str, conditions: dict[str, str], **actions: Any) -> Any:
    base = {"folder": None, "label": None, "read": False, "seeded": False, "existing": 0}
    return {"id": rid, "conditions": conditions, **base, **actions}


def sent(sid: str, files: list[tuple[str, str]]) -> Any:
    attachments = [{"name": n, "type": "application/pdf", "size": 3, "sha256": h} for n, h in files]
    return {
        "id": sid,
        "to": ["bo@example.test"],
        "cc": [],
        "subject": "Fwd: invoice",
        "body": "",
        "at": AT,
        "seeded": False,
        "in_reply_to": None,
        "thread": sid,
        "attachments": attachments,
    }


def state(**mail: Any) -> EndState:
    snapshot = {
        "now": AT,
        "tz": "UTC",
        "address": "me@example.test",
        "name": "Me",
        "messages": [
            message(
                "inv-1",
                "billing@northwind.example.test",
                "Invoice INV-1",
                "Invoices",
                from_name="Northwind Billing",
                attachments=[{"name": "INV-1.pdf", "type": "application/pdf", "size": 3,
                              "sha256": PDF}],
            ),
            message("inv-2", "billing@northwind.example.test", "Invoice INV-2", delivered="end"),
            message("news", "news@northwind.example.test", "Invoice portal news", "Invoices",
                    labels=["Bills"]),
            message("other", "billing@hostwell.example.test", "Invoice HW-1", labels=["bills"]),
        ],
        "drafts": [],
        "sent": [],
        "folders": ["Invoices"],
        "labels": ["Bills"],
        "rules": [],
        **mail,
    }  # fmt: skip
    return EndState(apps={"mail": snapshot}, originals={"input/report.pdf": PDF})


def test_mail_in_folder_selects_by_id_subject_and_sender_and_names_each_miss() -> None:
    end = state()
    hit = run({"mail_in_folder": {"id": "inv-1", "folder": "invoices"}}, end)
    assert (hit.passed, hit.actual, hit.detail) == (True, {"inv-1": "Invoices"}, "")
    late = run({"mail_in_folder": {"id": ["inv-1", "inv-2"], "folder": "Invoices"}}, end)
    assert (late.passed, late.detail) == (
        False,
        "inv-2 is in inbox (arrived after the attempt ended)",
    )
    by_sender = run(
        {"mail_in_folder": {"from": "Billing <BILLING@northwind.example.test>", "folder": "inbox"}},
        end,
    )
    assert (by_sender.passed, by_sender.actual) == (False, {"inv-1": "Invoices", "inv-2": "inbox"})
    assert by_sender.expected == {
        "from": "Billing <BILLING@northwind.example.test>",
        "count": "at least 1",
        "folder": "inbox",
    }
    by_subject = run(
        {"mail_in_folder": {"subject_contains": "invoice  hw", "folder": "inbox", "count": 1}}, end
    )
    assert (by_subject.passed, by_subject.actual) == (True, {"other": "inbox"})
    counted = run(
        {"mail_in_folder": {"subject_contains": "invoice", "folder": "x", "count": 2}}, end
    )
    assert counted.detail.startswith("the selectors pick 4 messages, not 2")
    unknown = run({"mail_in_folder": {"id": "nope", "folder": "inbox"}}, end)
    assert (unknown.passed, unknown.detail) == (False, "no message 'nope'")
    nothing = run({"mail_in_folder": {"subject_contains": "lunch", "folder": "inbox"}}, end)
    assert (nothing.passed, nothing.detail) == (False, "no message matches the selectors")
    empty = run({"mail_in_folder": {"id": "inv-1", "folder": "inbox"}}, EndState())
    assert (empty.passed, empty.detail) == (False, "no mail in the end state")


def test_message_labels_has_and_lacks_ignore_case() -> None:
    end = state()
    hit = run({"message_labels": {"id": ["news", "other"], "has": ["BILLS"]}}, end)
    assert (hit.passed, hit.actual) == (True, {"news": ["Bills"], "other": ["bills"]})
    miss = run({"message_labels": {"subject_contains": "invoice", "lacks": ["bills"]}}, end)
    assert (miss.passed, miss.detail) == (False, "news has bills; other has bills")
    lacking = run({"message_labels": {"id": "inv-1", "has": ["Bills", "Clients"]}}, end)
    assert lacking.detail == "inv-1 lacks Bills; inv-1 lacks Clients"


def test_mail_rule_exists_judges_what_the_rule_catches_and_does() -> None:
    rules = [
        rule("r1", {"from": "northwind.example.test"}, folder="Invoices"),
        rule("r2", {"from": "billing@northwind", "subject": "invoice"}, folder="invoices"),
        rule("r3", {"subject": "invoice"}, label="Bills", read=True, seeded=True),
    ]
    end = state(rules=rules)
    args = {"catches": ["inv-1", "inv-2"], "spares": ["news", "other"], "folder": "Invoices"}
    hit = run({"mail_rule_exists": args}, end)
    assert (hit.passed, hit.actual) == (True, {"matching": ["r2"], "rules": 3})
    assert hit.detail == (
        "non-matching: r1 (from contains 'northwind.example.test'): also catches news | "
        "r3 (subject contains 'invoice'): also catches news; also catches other; "
        "moves nothing"
    )
    conditions = run(
        {"mail_rule_exists": {"conditions": {"from": "BILLING@", "subject": "Invoice"}}}, end
    )
    assert conditions.actual == {"matching": ["r2"], "rules": 3}
    seeded = run({"mail_rule_exists": {"label": "bills", "read": True, "new": False}}, end)
    assert seeded.actual["matching"] == ["r3"]
    none_new = run({"mail_rule_exists": {"label": "Bills", "new": True}}, end)
    assert none_new.passed is False
    too_many = run({"mail_rule_exists": {"folder": "Invoices", "count": 1}}, end)
    assert (too_many.passed, too_many.actual["matching"]) == (False, ["r1", "r2"])
    missing = run({"mail_rule_exists": {"catches": ["gone"]}}, end)
    assert missing.detail.startswith("no message gone in the end state; ")
    no_rules = run({"mail_rule_exists": {"folder": "Invoices"}}, state())
    assert (no_rules.passed, no_rules.detail) == (False, "no rules")


def test_mail_sent_attachments_by_name_scratch_file_and_forwarded_message() -> None:
    end = state(sent=[sent("s1", [("INV-1.pdf", PDF), ("notes.csv", CSV)])])
    forwarded = {"name": "INV-1.pdf", "from_message": "inv-1"}
    hit = run(
        {
            "mail_sent": {
                "attachments": [forwarded, {"file": "input/report.pdf"}, {"name": "NOTES.csv"}]
            }
        },
        end,
    )
    assert (hit.passed, hit.actual) == (True, {"matching": ["s1"], "sent": 1})
    assert hit.expected["attachments"] == [
        forwarded,
        {"file": "input/report.pdf"},
        {"name": "NOTES.csv"},
    ]
    wrong_bytes = run({"mail_sent": {"attachments": [{"name": "notes.csv", "sha256": PDF}]}}, end)
    assert wrong_bytes.detail == (
        f"non-matching: s1: lacks attachment name=notes.csv, sha256={PDF} "
        "(has: INV-1.pdf, notes.csv)"
    )
    unseeded = run({"mail_sent": {"attachments": [{"file": "input/none.pdf"}]}}, end)
    assert (
        unseeded.detail == "non-matching: s1: no seeded file input/none.pdf to compare attachment "
    )
    no_such = run({"mail_sent": {"attachments": [{"name": "x.pdf", "from_message": "inv-2"}]}}, end)
    assert no_such.detail == "non-matching: s1: message inv-2 has no attachment 'x.pdf'"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"mail_in_folder": {"folder": "inbox"}},
            "select messages by id, subject_contains or from",
        ),
        ({"mail_in_folder": {"from": "nobody", "folder": "inbox"}}, "is not an email address"),
        ({"message_labels": {"id": "m1"}}, "give has or lacks"),
        ({"mail_rule_exists": {"conditions": {"cc": "x"}}}, "Input should be 'from', 'to'"),
        ({"mail_sent": {"attachments": [{}]}}, "give name, file or sha256"),
        (
            {"mail_sent": {"attachments": [{"from_message": "m1", "file": "a.pdf"}]}},
            "from_message needs",
        ),
        ({"mail_sent": {"attachments": [{"file": "../x"}]}}, "has a .. segment"),
    ],
)
def test_bad_arguments_are_refused_at_load_time(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        _CHECK.validate_python(data)
