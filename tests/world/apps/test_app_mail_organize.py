"""mail.proctor.test on a real server: folders, labels, moves, bulk actions, rules, later
mail and attachments: each post's redirect and notice, each refusal's named problem."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import httpx
from apps_support import App, alerts, begin, status_text

from proctor.world import FixtureServer
from proctor.world.apps import deliver, mail

SEEDS: dict[str, Any] = {
    "mail": {
        "tz": "Europe/Berlin",
        "address": "priya@example.test",
        "folders": ["Receipts"],
        "labels": ["Bills", "Travel"],
        "rules": [{"from": "orders@shop.example.test", "folder": "Receipts", "label": "Bills"}],
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
                "labels": ["Travel"],
                "read": True,
            },
            {
                "id": "receipt",
                "from": "orders@shop.example.test",
                "subject": "Your receipt",
                "at": {"days": -3, "at": "08:00"},
            },
            {
                "id": "kept",
                "from": "orders@shop.example.test",
                "subject": "Kept receipt",
                "at": {"days": -20, "at": "08:00"},
                "folder": "receipts",
            },
        ],
    }
}


def rows(html: str) -> list[str]:
    """Message ids of a list page's rows, in order."""
    return re.findall(r'<tr[^>]*>\s*<td[^>]*>.*?<a href="/message/([^"]+)"', html, re.S)


def where(world: Any) -> dict[str, tuple[str, list[str], bool]]:
    """Message id -> (folder, labels, read) in the end-state snapshot."""
    snap = mail.snapshot(world)
    assert snap is not None
    return {m["id"]: (m["folder"], m["labels"], m["read"]) for m in snap["messages"]}


async def test_folders_are_made_listed_and_refused_with_the_reason(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "org-1", SEEDS)
    app = App(client, "mail", "org-1")
    try:
        made = await app.post("/folders", {"name": "  Invoices "})
        assert (made.status_code, made.headers["location"]) == (303, "/folders?created=Invoices")
        page = await app.get(made.headers["location"])
        assert status_text(page.text) == "Folder Invoices created."
        assert '<a href="/folder/Invoices">Invoices</a>' in page.text  # in the folder nav
        for name, why in [
            ("invoices", "There is already a folder called 'Invoices'."),
            ("Spam", "'Spam' is a name the mailbox uses itself; choose another folder name."),
            ("", "Give the folder a name."),
        ]:
            refused = await app.post("/folders", {"name": name})
            assert (refused.status_code, alerts(refused.text)) == (400, [why])
            assert f'name="name" type="text" value="{name}"' in refused.text  # kept as typed
        assert (await app.get("/folder/INVOICES")).status_code == 200
        missing = await app.get("/folder/Nope")
        assert (missing.status_code, alerts(missing.text)) == (
            404,
            ["There is no folder called 'Nope'."],
        )
        api = (await app.get("/api/folders")).json()
        assert [(f["name"], f["system"], f["messages"]) for f in api["folders"]] == [
            ("inbox", True, 3),
            ("archive", True, 1),
            ("spam", True, 0),
            ("Receipts", False, 1),
            ("Invoices", False, 0),
        ]
        assert mail.snapshot(world)["folders"] == ["Receipts", "Invoices"]  # type: ignore[index]
    finally:
        server.end("org-1")


async def test_move_and_unarchive_return_to_the_list_with_a_notice(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "org-2", SEEDS)
    app = App(client, "mail", "org-2")
    try:
        moved = await app.post("/message/inv/move", {"folder": "receipts"})
        assert moved.headers["location"] == "/?done=move&n=1&to=Receipts"
        inbox = await app.get(moved.headers["location"])
        assert status_text(inbox.text) == "1 message moved to Receipts."
        assert rows(inbox.text) == ["news", "receipt"]
        assert rows((await app.get("/folder/Receipts")).text) == ["inv", "kept"]
        assert "<dt>Folder</dt><dd>Receipts</dd>" in (await app.get("/message/inv")).text

        back = await app.post("/message/old/unarchive", {})
        assert back.headers["location"] == "/folder/archive?done=inbox&n=1"
        assert status_text((await app.get(back.headers["location"])).text) == (
            "1 message moved to Inbox."
        )
        archived = await app.post("/message/news/archive", {})
        assert archived.headers["location"] == "/?done=archive&n=1"
        assert where(world)["inv"][0] == "Receipts"
        assert where(world)["old"][0] == "inbox"
        assert where(world)["news"][0] == "archive"

        for form, why in [
            ({"folder": "Nope"}, "There is no folder called 'Nope'."),
            ({"folder": ""}, "Choose a folder to move the message to."),
        ]:
            refused = await app.post("/message/inv/move", form)
            assert (refused.status_code, alerts(refused.text)) == (400, [why])
        again = await app.post("/message/old/unarchive", {})
        assert alerts(again.text) == ["This message is already in the Inbox."]
        assert (await app.post("/message/zz/move", {"folder": "spam"})).status_code == 404
        assert where(world)["inv"][0] == "Receipts"
    finally:
        server.end("org-2")


async def test_labels_are_made_added_shown_and_removed(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "org-3", SEEDS)
    app = App(client, "mail", "org-3")
    try:
        made = await app.post("/labels", {"name": "Clients"})
        assert made.headers["location"] == "/labels?created=Clients"
        assert status_text((await app.get(made.headers["location"])).text) == (
            "Label Clients created."
        )
        dupe = await app.post("/labels", {"name": "bills"})
        assert alerts(dupe.text) == ["There is already a label called 'Bills'."]
        added = await app.post("/message/inv/label", {"label": "clients"})
        assert added.headers["location"] == "/message/inv?done=label&n=1&to=Clients"
        page = await app.get(added.headers["location"])
        assert status_text(page.text) == "Label Clients added to 1 message."
        assert 'aria-label="Remove label Clients"' in page.text
        assert rows((await app.get("/label/Clients")).text) == ["inv"]
        assert rows((await app.get("/label/travel")).text) == ["old"]  # any folder
        api = (await app.get("/api/messages?folder=all&label=Travel")).json()["messages"]
        assert [m["id"] for m in api] == ["old"]
        assert where(world)["inv"][1] == ["Clients"]

        removed = await app.post("/message/inv/unlabel", {"label": "Clients"})
        assert removed.headers["location"] == "/message/inv?done=unlabel&n=1&to=Clients"
        assert where(world)["inv"][1] == []
        not_there = await app.post("/message/inv/unlabel", {"label": "Clients"})
        assert alerts(not_there.text) == ["This message does not have the label 'Clients'."]
        unknown = await app.post("/message/inv/label", {"label": "Work"})
        assert (unknown.status_code, alerts(unknown.text)) == (
            400,
            ["There is no label called 'Work'."],
        )
        assert (await app.get("/label/Work")).status_code == 404
    finally:
        server.end("org-3")


async def test_bulk_actions_change_every_ticked_message_and_refuse_what_they_cannot(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "org-4", SEEDS)
    app = App(client, "mail", "org-4")

    async def bulk(ids: list[str], **form: str) -> httpx.Response:
        data = {"back": "/", **form}
        return await client.post("/bulk", data={**data, "ids": ids}, headers=app.headers)

    try:
        page = await app.get("/")
        assert 'aria-label="Select Invoice INV-0412 from Northwind Billing"' in page.text
        read = await bulk(["inv", "news"], action="read")
        assert read.headers["location"] == "/?done=read&n=2"
        assert status_text((await app.get("/?done=read&n=2")).text) == "2 messages marked as read."
        assert [where(world)[m][2] for m in ("inv", "news", "receipt")] == [True, True, False]
        labelled = await bulk(["inv", "receipt"], action="label", label="Bills")
        assert labelled.headers["location"] == "/?done=label&n=2&to=Bills"
        moved = await bulk(["inv", "news"], action="move", folder="Receipts")
        assert moved.headers["location"] == "/?done=move&n=2&to=Receipts"
        back = await bulk(["news"], action="inbox", back="/folder/Receipts")
        assert back.headers["location"] == "/folder/Receipts?done=inbox&n=1"
        archived = await bulk(["news", "receipt"], action="archive", back="https://evil.test/")
        assert archived.headers["location"] == "/?done=archive&n=2"
        assert where(world) == {
            "inv": ("Receipts", ["Bills"], True),
            "news": ("archive", [], True),
            "old": ("archive", ["Travel"], True),
            "receipt": ("archive", ["Bills"], False),
            "kept": ("Receipts", [], False),
        }
        for ids, form, why in [
            ([], {"action": "archive"}, ["Select at least one message first."]),
            (["inv"], {"action": "delete"}, ["Unknown action 'delete'."]),
            (["zz"], {"action": "read"}, ["A selected message no longer exists; reload the page."]),
            (
                ["inv"],
                {"action": "move", "folder": "Nope"},
                ["Choose the folder to move the selected messages to."],
            ),
            (
                ["inv"],
                {"action": "label", "label": ""},
                ["Choose the label to apply to the selected messages."],
            ),
        ]:
            refused = await bulk(ids, **form)
            assert (refused.status_code, alerts(refused.text)) == (400, why)
        assert where(world)["inv"] == ("Receipts", ["Bills"], True)
    finally:
        server.end("org-4")


RULE = {"from": "", "to": "", "subject": "", "body": "", "folder": "", "label": "", "read": ""}


async def test_the_rule_editor_saves_applies_to_existing_and_refuses_bad_rules(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "org-5", SEEDS)
    app = App(client, "mail", "org-5")
    try:
        form = {**RULE, "from": "northwind", "subject": "invoice", "folder": "Receipts"}
        saved = await app.post("/rules", {**form, "existing": "yes"})
        assert saved.headers["location"] == "/rules?saved=r2&existing=yes"
        page = await app.get(saved.headers["location"])
        assert (
            status_text(page.text) == "Rule saved. It acted on 1 message already in your mailbox."
        )
        assert (
            "From contains &#34;northwind&#34; and Subject contains &#34;invoice&#34;" in page.text
        )
        assert where(world)["inv"][0] == "Receipts"
        assert where(world)["news"][0] == "inbox"
        quiet = await app.post("/rules", {**RULE, "body": "nothing like this", "read": "yes"})
        assert quiet.headers["location"] == "/rules?saved=r3"
        assert status_text((await app.get(quiet.headers["location"])).text) == "Rule saved."
        for fields, why in [
            ({"read": "yes"}, "Give at least one condition: From, To, Subject or Body contains."),
            ({"from": "x"}, "Choose at least one action: move to a folder, apply a label or "
             "mark as read."),
            ({"from": "x", "folder": "inbox"},
             "Mail already arrives in the Inbox: choose another folder, or none."),
            ({"from": "x", "label": "Work"}, "There is no label called 'Work'."),
            ({"from": "x" * 201, "read": "yes"}, "A condition has at most 200 characters."),
            ({"from": "northwind", "subject": "invoice", "folder": "receipts"},
             "You already have this rule."),
        ]:  # fmt: skip
            refused = await app.post("/rules", {**RULE, **fields})
            assert (refused.status_code, alerts(refused.text)) == (400, [why])
        kept = await app.post("/rules", {**RULE, "subject": "keep me"})
        assert 'value="keep me"' in kept.text  # the editor keeps what was typed
        rules = (await app.get("/api/rules")).json()["rules"]
        assert [
            (r["id"], r["conditions"], r["folder"], r["seeded"], r["existing"]) for r in rules
        ] == [
            ("r1", {"from": "orders@shop.example.test"}, "Receipts", True, 0),
            ("r2", {"from": "northwind", "subject": "invoice"}, "Receipts", False, 1),
            ("r3", {"body": "nothing like this"}, None, False, 0),
        ]
        deleted = await app.post("/rules/r3/delete", {})
        assert deleted.headers["location"] == "/rules?deleted=r3"
        assert status_text((await app.get("/rules?deleted=r3")).text) == "Rule deleted."
        assert (await app.post("/rules/r3/delete", {})).status_code == 404
        snap = mail.snapshot(world)
        assert snap is not None
        assert [r["id"] for r in snap["rules"]] == ["r1", "r2"]
        assert next(m for m in snap["messages"] if m["id"] == "inv")["rules"] == ["r2"]
    finally:
        server.end("org-5")


LATER: dict[str, Any] = {
    "mail": {
        "folders": ["Invoices"],
        "messages": [
            {"id": "now", "from": "a@example.test", "subject": "Here", "at": {"hours": -1}},
            {
                "id": "inv-2",
                "from": "Billing <billing@northwind.example.test>",
                "subject": "Invoice INV-2",
                "arrives_after": 3,
                "at": {"minutes": 5},
            },
            {"id": "first", "from": "b@example.test", "subject": "Early", "arrives_after": 0},
        ],
    }
}


async def test_later_mail_arrives_after_n_requests_through_the_rules_saved_by_then(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "org-6", LATER)
    app = App(client, "mail", "org-6")
    try:
        assert mail.snapshot(world)["messages"][-1]["delivered"] == "end"  # type: ignore[index]
        ids = [m["id"] for m in (await app.get("/api/messages")).json()["messages"]]  # 1
        assert ids == ["first", "now"]
        saved = await app.post(  # 2
            "/rules", {**RULE, "from": "billing@northwind", "folder": "Invoices"}
        )
        assert saved.status_code == 303
        inbox = await app.get("/")  # 3
        assert rows(inbox.text) == ["first", "now"]
        folder = await app.get("/folder/Invoices")  # 4: three were answered, so it is here
        assert rows(folder.text) == ["inv-2"]
        snap = mail.snapshot(world)
        assert snap is not None
        late = next(m for m in snap["messages"] if m["id"] == "inv-2")
        assert (late["folder"], late["rules"], late["delivered"], late["at"]) == (
            "Invoices",
            ["r1"],
            "attempt",
            "2025-03-04T10:05:00+00:00",
        )
        assert [m["delivered"] for m in snap["messages"]] == ["setup", "attempt", "attempt"]
    finally:
        server.end("org-6")


async def test_mail_due_when_the_attempt_ends_is_delivered_in_the_snapshot_only(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "org-7", LATER)
    app = App(client, "mail", "org-7")
    try:
        await app.post("/rules", {**RULE, "subject": "invoice", "folder": "Invoices"})  # 1
        for _ in range(3):
            snap = mail.snapshot(world)
            assert snap is not None
            assert [(m["id"], m["folder"], m["delivered"]) for m in snap["messages"]] == [
                ("now", "inbox", "setup"),
                ("first", "inbox", "attempt"),
                ("inv-2", "Invoices", "end"),
            ]
        # the snapshot changed nothing: the mailbox still waits for request 4
        assert [
            m["id"] for m in (await app.get("/api/messages?folder=all")).json()["messages"]
        ] == [
            "first",
            "now",
        ]
        # another site's mail arrives at once, through the same rules, and never takes a
        # later message's id
        mid = deliver(world, sender="billing@acme.example.test", subject="Invoice A-1")
        assert mid == "m1"
        assert where(world)["m1"][0] == "Invoices"
    finally:
        server.end("org-7")


async def test_compose_attaches_uploads_and_a_forwards_files_and_refuses_bad_ones(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "org-8", SEEDS)
    app = App(client, "mail", "org-8")
    blank = {"to": "bo@example.test", "cc": "", "subject": "Files", "body": "see", "draft": ""}

    async def compose(data: dict[str, Any], files: list[tuple[str, Any]]) -> httpx.Response:
        return await client.post(
            "/compose", data={"reply_to": "", **data}, files=files, headers=app.headers
        )

    try:
        forward = await app.get("/compose?forward=inv")
        assert '<input type="hidden" name="forward_of" value="inv">' in forward.text
        assert 'name="keep" value="1" checked> Include INV-0412.csv (19 bytes)' in forward.text
        assert 'accept=".txt,.csv,.pdf,' in forward.text
        report = b"month,total\nMarch,1310\n"
        sent = await compose(
            {**blank, "forward_of": "inv", "keep": "1", "action": "send"},
            [("files", ("report.csv", report, "application/vnd.ms-excel"))],
        )
        assert sent.headers["location"] == "/sent?sent=s1"
        item = await app.get("/sent/s1")
        assert re.findall(r'download="([^"]+)"', item.text) == ["INV-0412.csv", "report.csv"]
        got = await app.get("/sent/s1/attachments/2")
        assert (got.content, got.headers["content-type"]) == (report, "text/csv; charset=utf-8")
        snap = mail.snapshot(world)
        assert snap is not None
        assert [(a["name"], a["type"], a["sha256"]) for a in snap["sent"][0]["attachments"]] == [
            ("INV-0412.csv", "text/csv", hashlib.sha256(b"item,eur\nwork,1240\n").hexdigest()),
            ("report.csv", "text/csv", hashlib.sha256(report).hexdigest()),
        ]

        unticked = await compose({**blank, "forward_of": "inv", "action": "save"}, [])
        assert unticked.headers["location"] == "/drafts?saved=d1"
        only_file = await compose(
            {**blank, "to": "", "subject": "", "body": "", "action": "save"},
            [("files", ("note.txt", b"hello", "text/plain"))],
        )
        assert only_file.headers["location"] == "/drafts?saved=d2"  # a file is not empty
        editing = await app.get("/compose?draft=d2")
        assert 'name="keep" value="1" checked> Include note.txt (5 bytes)' in editing.text
        resent = await app.post_json(
            "/api/send", {"draft": "d2", "to": "cy@example.test", "body": "x"}
        )
        assert resent.json()["sent"]["attachments"][0]["name"] == "note.txt"
        snap = mail.snapshot(world)
        assert snap is not None
        assert [d["attachments"] for d in snap["drafts"]] == [[]]

        refused = await compose(
            {**blank, "action": "send"},
            [
                ("files", ("run.exe", b"MZ", "application/octet-stream")),
                ("files", ("empty.txt", b"", "text/plain")),
                ("files", ("big.pdf", b"%" * (5 * 1024 * 1024 + 1), "application/pdf")),
                ("files", ("ok.txt", b"fine", "text/plain")),
            ],
        )
        assert refused.status_code == 422
        assert alerts(refused.text) == [
            "run.exe cannot be attached: only .txt, .csv, .pdf, .png, .jpg, .jpeg, .gif, .md, "
            ".json, .xml, .docx, .xlsx, .pptx, .odt, .ods, .zip files can.",
            "empty.txt is empty.",
            "big.pdf is over 5 MB.",
            "Choose the files to attach again.",
        ]
        stale = await compose({**blank, "forward_of": "inv", "keep": "7", "action": "send"}, [])
        assert alerts(stale.text) == [
            "An attachment you kept is no longer there; open the message again."
        ]
        gone = await compose({**blank, "forward_of": "zz", "action": "send"}, [])
        assert gone.status_code == 404
        snap = mail.snapshot(world)
        assert snap is not None
        assert [s["id"] for s in snap["sent"]] == ["s1", "s2"]
    finally:
        server.end("org-8")


async def test_seeded_rules_act_on_arriving_mail_never_on_the_seeded_messages(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "org-9", SEEDS)
    app = App(client, "mail", "org-9")
    try:
        assert where(world)["receipt"] == ("inbox", [], False)  # seeded: never filtered
        mid = deliver(world, sender="Shop <orders@shop.example.test>", subject="Receipt 3")
        assert where(world)[mid] == ("Receipts", ["Bills"], False)
        assert rows((await app.get("/folder/receipts")).text) == [mid, "kept"]
        assert rows((await app.get("/label/Bills")).text) == [mid]
    finally:
        server.end("org-9")
