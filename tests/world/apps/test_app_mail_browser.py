"""Organizing mail in real Chromium: folders, moves, labels, bulk actions, rules, later mail
and attachments, graded by mail_in_folder, message_labels, mail_rule_exists and mail_sent.

Each test writes a one-off scenario whose steps use the mail app's own forms, runs it
through the session's worker (fixture server + Chromium) and reads the attempt's record:
the steps, the graded checks, the server's request log and the snapshot.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, dump_scenario, load_scenario
from proctor.world import all_sites

pytestmark = pytest.mark.browser

REPORT = "month,total\nMarch,1310\n"
MAIL: dict[str, Any] = {
    "tz": "Europe/Berlin",
    "address": "priya@example.test",
    "name": "Priya Nair",
    "folders": ["Receipts"],
    "labels": ["Bills"],
    "messages": [
        {
            "id": "inv",
            "from": "Northwind Billing <billing@northwind.example.test>",
            "subject": "Invoice INV-0412",
            "at": {"days": -1, "at": "08:00"},
            "attachments": [{"name": "INV-0412.csv", "text": "item,eur\nwork,1240\n"}],
        },
        {
            "id": "news",
            "from": "news@northwind.example.test",
            "subject": "Newsletter",
            "at": {"days": -2, "at": "08:00"},
        },
        {
            "id": "old",
            "from": "bo@example.test",
            "subject": "Old thing",
            "at": {"days": -9, "at": "08:00"},
            "folder": "archive",
            "read": True,
        },
        {
            "id": "receipt",
            "from": "orders@shop.example.test",
            "subject": "Your receipt",
            "at": {"days": -3, "at": "08:00"},
            "labels": ["Bills"],
        },
        {
            "id": "later",
            "from": "orders@shop.example.test",
            "subject": "Your second receipt",
            "arrives_after": 6,
        },
    ],
}
NOTHING = [{"op": "done"}]
PICK_INVOICE = {
    "op": "check",
    "role": "checkbox",
    "name": "Select Invoice INV-0412 from Northwind Billing",
}
PICK_NEWS = {
    "op": "check",
    "role": "checkbox",
    "name": "Select Newsletter from news@northwind.example.test",
}


def _scenario(
    folder: Path,
    sid: str,
    steps: list[dict[str, Any]],
    checks: list[dict[str, Any]],
    decoys: dict[str, list[dict[str, Any]]] | None = None,
) -> LoadedScenario:
    named = [_name(c) for c in checks]
    data = {
        "id": sid,
        "title": sid,
        "tier": "local",
        "category": "regression",
        "brief": "Tidy my mail.",
        "world": {
            "sites": ["mail"],
            "apps": {"mail": MAIL},
            "files": [{"path": "input/report.csv", "text": REPORT}],
            "browser": {"start": "{site.mail}/"},
        },
        "checks": checks,
        "solution": steps,
        "decoys": [
            {"name": name, "steps": decoy, "fails": named[:1]}
            for name, decoy in {"none": NOTHING, **(decoys or {})}.items()
        ],
    }
    path = folder / f"{sid}.yaml"
    path.write_text(dump_scenario(data), encoding="utf-8")
    return load_scenario(path, sites=set(all_sites()))


def _name(check: dict[str, Any]) -> str:
    (args,) = check.values()
    name: str = args["name"]
    return name


async def _run(
    worker: Worker, loaded: LoadedScenario, spec: str = "oracle=scripted"
) -> AttemptRecord:
    return await run_attempt(worker, PlanItem(loaded, parse_arm(spec), 1), write=False)


def _ok(record: AttemptRecord, steps: int) -> None:
    assert [s.status for s in record.steps] == ["ok"] * steps, [s.error for s in record.steps]


def _verdicts(record: AttemptRecord) -> list[tuple[str, bool]]:
    return [(c.name, c.passed) for c in record.checks]


def _posts(record: AttemptRecord) -> list[tuple[str, int]]:
    return [(r.path, r.status) for r in record.end_state.requests if r.method == "POST"]


def _mail(record: AttemptRecord) -> dict[str, Any]:
    snap: dict[str, Any] = record.end_state.apps["mail"]
    return snap


def _messages(record: AttemptRecord) -> dict[str, tuple[str, list[str], bool]]:
    return {m["id"]: (m["folder"], m["labels"], m["read"]) for m in _mail(record)["messages"]}


async def test_a_folder_is_made_and_messages_move_into_it_and_back(
    worker: Worker, tmp_path: Path
) -> None:
    steps = [
        {"op": "click", "role": "link", "name": "Folders"},
        {"op": "fill", "role": "textbox", "name": "Folder name", "value": "Tax 2025"},
        {"op": "click", "role": "button", "name": "Create folder"},
        {"op": "wait", "text": "Folder Tax 2025 created."},
        {"op": "navigate", "url": "{site.mail}/message/inv"},
        {"op": "select", "role": "combobox", "name": "Move to folder", "label": "Tax 2025"},
        {"op": "click", "role": "button", "name": "Move"},
        {"op": "wait", "text": "1 message moved to Tax 2025."},
        {"op": "navigate", "url": "{site.mail}/message/old"},
        {"op": "click", "role": "button", "name": "Move to Inbox"},
        {"op": "wait", "text": "1 message moved to Inbox."},
        {"op": "navigate", "url": "{site.mail}/"},
        PICK_NEWS,
        {**PICK_NEWS, "name": "Select Your receipt from orders@shop.example.test"},
        {"op": "select", "role": "combobox", "name": "Folder", "label": "Tax 2025"},
        {"op": "click", "role": "button", "name": "Move selected"},
        {"op": "wait", "text": "2 messages moved to Tax 2025."},
        {"op": "click", "role": "link", "name": "Tax 2025"},
        PICK_NEWS,
        {"op": "click", "role": "button", "name": "Move selected to Inbox"},
        {"op": "wait", "text": "1 message moved to Inbox."},
        {"op": "done"},
    ]
    checks: list[dict[str, Any]] = [
        {"mail_in_folder": {"name": "filed", "id": "inv", "folder": "tax 2025"}},
        {"mail_in_folder": {"name": "unarchived", "subject_contains": "old", "folder": "inbox"}},
    ]
    loaded = _scenario(tmp_path, "mail-folders", steps, checks)
    record = await _run(worker, loaded)
    _ok(record, len(steps))
    assert _verdicts(record) == [("filed", True), ("unarchived", True)]
    assert _posts(record) == [
        ("/folders", 303),
        ("/message/inv/move", 303),
        ("/message/old/unarchive", 303),
        ("/bulk", 303),
        ("/bulk", 303),
    ]
    assert _mail(record)["folders"] == ["Receipts", "Tax 2025"]
    folders = {mid: where[0] for mid, where in _messages(record).items()}
    assert folders == {
        "inv": "Tax 2025",
        "news": "inbox",
        "old": "inbox",
        "receipt": "Tax 2025",
        "later": "inbox",
    }
    assert record.end_state.url == "http://mail.proctor.test/folder/Tax%202025?done=inbox&n=1"
    assert "Invoice INV-0412" in record.end_state.page_text

    idle = await _run(worker, loaded, "none=decoy:none")
    assert _verdicts(idle) == [("filed", False), ("unarchived", False)]
    assert [c.detail for c in idle.checks] == ["inv is in inbox", "old is in archive"]


async def test_labels_and_select_many_actions_over_the_list_checkboxes(
    worker: Worker, tmp_path: Path
) -> None:
    steps = [
        {"op": "click", "role": "link", "name": "Labels"},
        {"op": "fill", "role": "textbox", "name": "Label name", "value": "Clients"},
        {"op": "click", "role": "button", "name": "Create label"},
        {"op": "navigate", "url": "{site.mail}/"},
        PICK_INVOICE,
        PICK_NEWS,
        {"op": "select", "role": "combobox", "name": "Label", "label": "Clients"},
        {"op": "click", "role": "button", "name": "Label selected"},
        {"op": "wait", "text": "Label Clients added to 2 messages."},
        PICK_INVOICE,
        {"op": "click", "role": "button", "name": "Mark selected as read"},
        {"op": "wait", "text": "1 message marked as read."},
        PICK_NEWS,
        {"op": "click", "role": "button", "name": "Archive selected"},
        {"op": "wait", "text": "1 message archived."},
        {"op": "navigate", "url": "{site.mail}/message/receipt"},
        {"op": "click", "role": "button", "name": "Remove label Bills"},
        {"op": "wait", "text": "Label Bills removed from 1 message."},
        {"op": "select", "role": "combobox", "name": "Label", "label": "Clients"},
        {"op": "click", "role": "button", "name": "Add label"},
        {"op": "wait", "text": "Label Clients added to 1 message."},
        {"op": "navigate", "url": "{site.mail}/label/Clients"},
        {"op": "done"},
    ]  # fmt: skip
    checks: list[dict[str, Any]] = [
        {"message_labels": {"name": "clients", "id": ["inv", "news"], "has": ["clients"]}},
        {
            "message_labels": {
                "name": "unbilled",
                "id": "receipt",
                "has": ["Clients"],
                "lacks": ["Bills"],
            }
        },
        {"mail_in_folder": {"name": "archived", "id": "news", "folder": "archive"}},
    ]
    loaded = _scenario(tmp_path, "mail-labels", steps, checks)
    record = await _run(worker, loaded)
    _ok(record, len(steps))
    assert _verdicts(record) == [("clients", True), ("unbilled", True), ("archived", True)]
    bulk = [r.form for r in record.end_state.requests if r.path == "/bulk"]
    assert [(f["ids"], f["action"]) for f in bulk] == [
        (["inv", "news"], ["label"]),
        (["inv"], ["read"]),
        (["news"], ["archive"]),
    ]
    assert {k: v for k, v in _messages(record).items() if k != "later"} == {
        "inv": ("inbox", ["Clients"], True),
        "news": ("archive", ["Clients"], False),
        "old": ("archive", [], True),
        "receipt": ("inbox", ["Clients"], True),
    }
    assert _mail(record)["labels"] == ["Bills", "Clients"]

    idle = await _run(worker, loaded, "none=decoy:none")
    assert _verdicts(idle) == [("clients", False), ("unbilled", False), ("archived", False)]
    assert idle.checks[0].detail == "inv lacks clients; news lacks clients"


RULE_STEPS = [
    {"op": "click", "role": "link", "name": "Rules"},
    {"op": "fill", "role": "textbox", "name": "From contains", "value": "orders@shop"},
    {"op": "select", "role": "combobox", "name": "Move to folder", "label": "Receipts"},
    {"op": "check", "role": "checkbox", "name": "Mark as read"},
    {"op": "click", "role": "button", "name": "Create rule"},
    {"op": "wait", "text": "Rule saved."},
]
RULE_CHECKS: list[dict[str, Any]] = [
    {
        "mail_rule_exists": {
            "name": "rule",
            "catches": ["later", "receipt"],
            "spares": ["inv", "news"],
            "folder": "Receipts",
            "read": True,
            "new": True,
        }
    },
    {"mail_in_folder": {"name": "later-filed", "id": "later", "folder": "Receipts"}},
    {"mail_in_folder": {"name": "receipt-stays", "id": "receipt", "folder": "inbox"}},
]


async def test_a_saved_rule_files_mail_that_arrives_later_in_the_attempt(
    worker: Worker, tmp_path: Path
) -> None:
    steps = [
        *RULE_STEPS,  # requests 1 (start) to 4: the rules page, the post, the page after it
        {"op": "navigate", "url": "{site.mail}/"},  # 5
        {"op": "navigate", "url": "{site.mail}/folder/Receipts"},  # 6: not there yet
        {"op": "navigate", "url": "{site.mail}/folder/Receipts"},  # 7: six answered: here
        {"op": "done"},
    ]
    stops = [*RULE_STEPS, {"op": "done"}]
    loaded = _scenario(tmp_path, "mail-rule", steps, RULE_CHECKS, {"stops-after-saving": stops})
    record = await _run(worker, loaded)
    _ok(record, len(steps))
    assert _verdicts(record) == [("rule", True), ("later-filed", True), ("receipt-stays", True)]
    assert _mail(record)["rules"] == [
        {
            "id": "r1",
            "conditions": {"from": "orders@shop"},
            "folder": "Receipts",
            "label": None,
            "read": True,
            "seeded": False,
            "existing": 0,
        }
    ]
    later = next(m for m in _mail(record)["messages"] if m["id"] == "later")
    assert (later["folder"], later["read"], later["rules"], later["delivered"]) == (
        "Receipts",
        True,
        ["r1"],
        "attempt",
    )
    assert later["at"] == _mail(record)["now"]  # stamped with the run clock
    assert "Your second receipt" in record.end_state.page_text

    # An agent that stops right after saving: the mail still due is filed for the end state.
    stopped = await _run(worker, loaded, "stops=decoy:stops-after-saving")
    assert _verdicts(stopped) == [("rule", True), ("later-filed", True), ("receipt-stays", True)]
    late = next(m for m in _mail(stopped)["messages"] if m["id"] == "later")
    assert (late["folder"], late["delivered"]) == ("Receipts", "end")

    idle = await _run(worker, loaded, "none=decoy:none")
    assert _verdicts(idle) == [("rule", False), ("later-filed", False), ("receipt-stays", True)]
    assert idle.checks[1].detail == "later is in inbox (arrived after the attempt ended)"


async def test_a_rule_can_also_act_on_mail_already_in_the_mailbox(
    worker: Worker, tmp_path: Path
) -> None:
    existing = [
        *RULE_STEPS[:4],
        {
            "op": "check",
            "role": "checkbox",
            "name": "Also apply to matching messages already in the mailbox",
        },
        *RULE_STEPS[4:5],
        {"op": "wait", "text": "Rule saved. It acted on 1 message already in your mailbox."},
        {"op": "done"},
    ]
    loaded = _scenario(tmp_path, "mail-rule-existing", existing, RULE_CHECKS)
    record = await _run(worker, loaded)
    _ok(record, len(existing))
    assert _verdicts(record) == [("rule", True), ("later-filed", True), ("receipt-stays", False)]
    assert record.checks[2].detail == "receipt is in Receipts"
    assert _mail(record)["rules"][0]["existing"] == 1
    assert _messages(record)["receipt"] == ("Receipts", ["Bills"], True)


async def test_compose_sends_an_uploaded_file_and_a_forwarded_attachment(
    worker: Worker, tmp_path: Path
) -> None:
    forward = [
        {"op": "navigate", "url": "{site.mail}/message/inv"},
        {"op": "click", "role": "link", "name": "Forward"},
        {"op": "fill", "role": "textbox", "name": "To", "value": "bo@example.test"},
        {"op": "upload", "selector": "#files", "files": ["{scratch}/input/report.csv"]},
    ]
    steps = [
        *forward,
        {"op": "click", "role": "button", "name": "Send"},
        {"op": "wait", "text": "Message sent to bo@example.test."},
        {"op": "click", "role": "link", "name": "Fwd: Invoice INV-0412"},
        {"op": "done"},
    ]
    untick = {"op": "check", "role": "checkbox", "checked": False}
    unticked = [
        *forward,
        {**untick, "name": "Include INV-0412.csv (19 bytes)"},
        {"op": "click", "role": "button", "name": "Send"},
        {"op": "done"},
    ]
    checks: list[dict[str, Any]] = [
        {
            "mail_sent": {
                "name": "sent-with-files",
                "to": "bo@example.test",
                "attachments": [
                    {"name": "INV-0412.csv", "from_message": "inv"},
                    {"name": "report.csv", "file": "input/report.csv"},
                ],
            }
        }
    ]
    loaded = _scenario(tmp_path, "mail-attach", steps, checks, {"drops-the-invoice": unticked})
    record = await _run(worker, loaded)
    _ok(record, len(steps))
    assert _verdicts(record) == [("sent-with-files", True)]
    (sent,) = _mail(record)["sent"]
    assert [(a["name"], a["type"], a["sha256"]) for a in sent["attachments"]] == [
        ("INV-0412.csv", "text/csv", hashlib.sha256(b"item,eur\nwork,1240\n").hexdigest()),
        ("report.csv", "text/csv", hashlib.sha256(REPORT.encode()).hexdigest()),
    ]
    (post,) = [r for r in record.end_state.requests if r.path == "/compose" and r.method == "POST"]
    assert (post.form["forward_of"], post.form["keep"]) == (["inv"], ["1"])
    assert [f["filename"] for f in post.files["files"]] == ["report.csv"]
    assert "report.csv" in record.end_state.page_text  # the sent message lists its files

    dropped = await _run(worker, loaded, "drops=decoy:drops-the-invoice")
    assert _verdicts(dropped) == [("sent-with-files", False)]
    assert dropped.checks[0].detail == (
        "non-matching: s1: lacks attachment name=INV-0412.csv, from_message=inv (has: report.csv)"
    )
