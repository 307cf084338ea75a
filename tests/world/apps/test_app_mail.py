"""mail.proctor.test on a real server: inbox, read state, send, drafts, attachments, search, API."""

from __future__ import annotations

import datetime as dt
import io
import re
from html import unescape
from pathlib import Path
from typing import Any

import httpx
from apps_support import CLOCK, App, alerts, begin, status_text
from pypdf import PdfReader

from proctor.world import FixtureServer
from proctor.world.apps import deliver, mail

SEEDS: dict[str, Any] = {
    "mail": {
        "tz": "Europe/Paris",
        "address": "sam@example.test",
        "name": "Sam Lee",
        "messages": [
            {
                "from": "Ana Ruiz <ana@example.test>",
                "subject": "Invoice INV-7",
                "body": "Hi Sam,\nplease pay 120 EUR by Friday.",
                "at": {"days": -1, "at": "09:30"},
                "attachments": [
                    {"name": "inv-7.csv", "text": "item,amount\nDesign,120\n"},
                    {"name": "inv-7.pdf", "pdf": ["Invoice INV-7", "Terms: 30 days"]},
                ],
            },
            {
                "id": "lunch-1",
                "from": "bo@example.test",
                "subject": "Lunch?",
                "body": "Noon at the usual place?",
                "at": {"minutes": -20},
                "read": True,
                "thread": "lunch",
            },
            {
                "from": "Promo <deals@shop.example.test>",
                "subject": "50% off",
                "at": {"days": -2, "at": "07:00"},
                "folder": "spam",
            },
        ],
        "drafts": [{"to": ["cy@example.test"], "subject": "Notes", "body": "draft body"}],
        "sent": [{"to": ["ana@example.test"], "subject": "Earlier", "at": {"days": -5}}],
    }
}


def _rows(html: str) -> list[tuple[bool, str]]:
    """(unread, message id) of each inbox row, in page order."""
    rows = re.findall(
        r'<tr( class="unread")?>\s*<td[^>]*>.*?<a href="/message/([^"]+)"', html, re.S
    )
    return [(bool(unread), mid) for unread, mid in rows]


async def test_inbox_and_api_agree_and_opening_marks_read(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "mail-1", SEEDS)
    app = App(client, "mail", "mail-1")
    try:
        page = await app.get("/")
        assert _rows(page.text) == [(False, "lunch-1"), (True, "m1")]
        assert "Inbox (1 unread)" in page.text
        api = (await app.get("/api/messages")).json()["messages"]
        assert [(not m["read"], m["id"]) for m in api] == [(False, "lunch-1"), (True, "m1")]
        assert api[1]["at"] == "2025-03-03T08:30:00+00:00"  # 09:30 in Paris, yesterday
        assert api[0]["at"] == "2025-03-04T09:40:00+00:00"
        spam = (await app.get("/api/messages?folder=spam")).json()["messages"]
        assert [m["id"] for m in spam] == ["m2"]
        assert _rows((await app.get("/folder/spam")).text) == [(True, "m2")]

        # The API read does not change state; opening the page does.
        assert (await app.get("/api/messages/m1")).json()["read"] is False
        opened = await app.get("/message/m1")
        assert opened.status_code == 200
        assert "please pay 120 EUR by Friday." in opened.text
        assert (await app.get("/api/messages/m1")).json()["read"] is True
        again = await app.get("/")
        assert _rows(again.text) == [(False, "lunch-1"), (False, "m1")]
        assert "unread)" not in again.text

        unread = await app.post("/message/m1/unread", {})
        assert unread.status_code == 303
        assert unread.headers["location"] == "/?done=unread&n=1"
        assert _rows((await app.get("/")).text) == [(False, "lunch-1"), (True, "m1")]
        marked = await app.post_json("/api/messages/m1/read", {"read": True})
        assert marked.json()["read"] is True
        assert _rows((await app.get("/")).text)[1] == (False, "m1")
    finally:
        server.end("mail-1")


async def test_send_redirects_and_sent_folder_and_api_show_it(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "mail-2", SEEDS)
    app = App(client, "mail", "mail-2")
    try:
        reply = await app.get("/compose?reply=m1")
        assert 'name="to" type="text" value="ana@example.test"' in reply.text
        assert 'value="Re: Invoice INV-7"' in reply.text
        sent = await app.post(
            "/compose",
            {
                "to": "Ana Ruiz <ana@example.test>",
                "cc": "",
                "subject": "Re: Invoice INV-7",
                "body": "Paid today.",
                "reply_to": "m1",
                "draft": "",
                "action": "send",
            },
        )
        assert sent.status_code == 303
        assert sent.headers["location"] == "/sent?sent=s2"
        page = await app.get(sent.headers["location"])
        assert status_text(page.text) == "Message sent to ana@example.test."
        assert re.findall(r'<a href="/sent/(s\d+)">', page.text) == ["s2", "s1"]
        api = (await app.get("/api/sent")).json()["sent"]
        assert [(s["id"], s["seeded"]) for s in api] == [("s2", False), ("s1", True)]
        assert api[0] == {
            "id": "s2",
            "to": ["ana@example.test"],
            "cc": [],
            "subject": "Re: Invoice INV-7",
            "body": "Paid today.",
            "at": "2025-03-04T10:00:00+00:00",
            "seeded": False,
            "in_reply_to": "m1",
            "thread": "m1",
            "attachments": [],
        }
        thread = await app.get("/thread/m1")
        assert "2 messages in this conversation." in thread.text
        snap = mail.snapshot(world)
        assert snap is not None
        assert [s["id"] for s in snap["sent"] if not s["seeded"]] == ["s2"]
    finally:
        server.end("mail-2")


async def test_drafts_save_list_edit_then_send(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "mail-3", SEEDS)
    app = App(client, "mail", "mail-3")
    form = {"to": "bo@example.test", "cc": "", "subject": "Friday", "body": "See you", "draft": ""}
    try:
        saved = await app.post("/compose", {**form, "action": "save", "reply_to": ""})
        assert saved.status_code == 303
        assert saved.headers["location"] == "/drafts?saved=d2"
        listing = await app.get("/drafts?saved=d2")
        assert status_text(listing.text) == "Draft saved: Friday."
        assert re.findall(r'<a href="/compose\?draft=(d\d+)">', listing.text) == ["d2", "d1"]
        editing = await app.get("/compose?draft=d2")
        assert 'name="subject" type="text" value="Friday"' in editing.text
        assert 'name="draft" value="d2"' in editing.text

        edited = await app.post(
            "/compose", {**form, "body": "See you at 9", "draft": "d2", "action": "save"}
        )
        assert edited.headers["location"] == "/drafts?saved=d2"
        drafts = (await app.get("/api/drafts")).json()["drafts"]
        assert [(d["id"], d["body"], d["edited"], d["seeded"]) for d in drafts] == [
            ("d2", "See you at 9", True, False),
            ("d1", "draft body", False, True),
        ]
        created = await app.post_json("/api/drafts", {"to": ["cy@example.test"], "body": "x"})
        assert created.status_code == 201
        assert created.json()["draft"]["id"] == "d3"

        sent = await app.post(
            "/compose", {**form, "body": "See you at 9", "draft": "d2", "action": "send"}
        )
        assert sent.headers["location"] == "/sent?sent=s2"
        assert [d["id"] for d in (await app.get("/api/drafts")).json()["drafts"]] == ["d3", "d1"]
        deleted = await app.post("/drafts/d1/delete", {})
        assert deleted.headers["location"] == "/drafts?deleted=d1"
        snap = mail.snapshot(world)
        assert snap is not None
        assert [d["id"] for d in snap["drafts"]] == ["d3"]
        assert [(s["id"], s["to"], s["body"]) for s in snap["sent"] if not s["seeded"]] == [
            ("s2", ["bo@example.test"], "See you at 9")
        ]
    finally:
        server.end("mail-3")


async def test_invalid_mail_is_refused_with_visible_messages(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "mail-4", SEEDS)
    app = App(client, "mail", "mail-4")
    blank = {"to": "", "cc": "", "subject": "", "body": "", "draft": "", "reply_to": ""}
    try:
        empty = await app.post("/compose", {**blank, "action": "send"})
        assert empty.status_code == 422
        assert alerts(empty.text) == [
            "Add at least one recipient in To.",
            "Write a subject or a message before sending.",
        ]
        bad = await app.post(
            "/compose", {**blank, "to": "ana@example.test, bob@", "body": "hi", "action": "send"}
        )
        assert bad.status_code == 422
        assert alerts(bad.text) == ["'bob@' is not a valid email address."]
        assert 'value="ana@example.test, bob@"' in unescape(bad.text)  # the form keeps input
        nothing = await app.post("/compose", {**blank, "action": "save"})
        assert nothing.status_code == 422
        assert alerts(nothing.text) == ["There is nothing to save: the draft is empty."]
        missing = await app.get("/message/nope")
        assert missing.status_code == 404
        assert alerts(missing.text) == ["This message does not exist."]
        no_query = await app.get("/search?q=")
        assert no_query.status_code == 400
        assert alerts(no_query.text) == ["Type something to search."]

        api = await app.post_json("/api/send", {"to": "bob@", "subject": "x"})
        assert api.status_code == 422
        assert api.json() == {"ok": False, "errors": ["'bob@' is not a valid email address."]}
        broken = await app.post_raw("/api/send", b"{not json")
        assert broken.status_code == 400
        assert broken.json()["errors"] == ["the body must be a JSON object"]
        assert (
            await app.post_json("/api/send", {"to": "a@b.test", "draft": "zz"})
        ).status_code == 404
        assert (await app.get("/api/messages?folder=trash")).status_code == 400
        snap = mail.snapshot(world)
        assert snap is not None
        assert [s["id"] for s in snap["sent"] if not s["seeded"]] == []
    finally:
        server.end("mail-4")


async def test_attachments_download_real_bytes(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "mail-5", SEEDS)
    app = App(client, "mail", "mail-5")
    try:
        csv = await app.get("/message/m1/attachments/1")
        assert csv.status_code == 200
        assert csv.content == b"item,amount\nDesign,120\n"
        assert csv.headers["content-type"] == "text/csv; charset=utf-8"
        assert csv.headers["content-disposition"] == "attachment; filename*=UTF-8''inv-7.csv"
        pdf = await app.get("/api/messages/m1/attachments/2")
        reader = PdfReader(io.BytesIO(pdf.content))
        assert [p.extract_text().strip() for p in reader.pages] == [
            "Invoice INV-7",
            "Terms: 30 days",
        ]
        facts = (await app.get("/api/messages/m1")).json()["attachments"]
        assert [(a["name"], a["size"], a["url"]) for a in facts] == [
            ("inv-7.csv", 23, "/api/messages/m1/attachments/1"),
            ("inv-7.pdf", len(pdf.content), "/api/messages/m1/attachments/2"),
        ]
        assert (await app.get("/message/m1/attachments/3")).status_code == 404
    finally:
        server.end("mail-5")


async def test_search_covers_received_and_sent(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "mail-6", SEEDS)
    app = App(client, "mail", "mail-6")
    try:
        page = await app.get("/search?q=inv-7")
        assert re.findall(r'<a href="/message/([^"]+)"', page.text) == ["m1"]
        assert "1 received, 0 sent." in page.text
        earlier = await app.get("/search?q=earlier")
        assert re.findall(r'<a href="/sent/([^"]+)"', earlier.text) == ["s1"]
        api = (await app.get("/api/messages?folder=all&q=noon")).json()["messages"]
        assert [m["id"] for m in api] == ["lunch-1"]
    finally:
        server.end("mail-6")


async def test_a_second_attempt_starts_clean_and_same_seed_and_clock_repeat(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    first = begin(server, tmp_path, "mail-7", SEEDS)
    app = App(client, "mail", "mail-7")
    try:
        await app.get("/message/m1")
        await app.post_json("/api/send", {"to": "ana@example.test", "subject": "hello"})
        deliver(
            first, sender="Codes <no-reply@login.example.test>", subject="Your code", body="428913"
        )
        touched = mail.snapshot(first)
    finally:
        server.end("mail-7")
    second = begin(server, tmp_path, "mail-8", SEEDS)
    app = App(client, "mail", "mail-8")
    try:
        assert (await app.get("/api/sent")).json()["sent"][0]["id"] == "s1"
        assert _rows((await app.get("/")).text) == [(False, "lunch-1"), (True, "m1")]
        fresh = mail.snapshot(second)
    finally:
        server.end("mail-8")
    third = begin(server, tmp_path, "mail-9", SEEDS)
    server.end("mail-9")
    assert touched is not None and fresh is not None
    assert touched != fresh
    assert [m["subject"] for m in touched["messages"]][-1] == "Your code"
    assert mail.snapshot(third) == fresh

    later = begin(server, tmp_path, "mail-10", SEEDS, clock=CLOCK + dt.timedelta(days=30))
    server.end("mail-10")
    moved = mail.snapshot(later)
    assert moved is not None
    assert [m["at"] for m in moved["messages"]] == [
        "2025-04-02T07:30:00+00:00",  # 09:30 in Paris, now summer time
        "2025-04-03T09:40:00+00:00",
        "2025-04-01T05:00:00+00:00",
    ]


async def test_deliver_puts_an_unread_message_in_the_inbox(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "mail-11", {})
    app = App(client, "mail", "mail-11")
    try:
        assert mail.snapshot(world) is None  # unseeded and untouched: nothing to record
        mid = deliver(world, sender="Acme <codes@acme.example.test>", subject="Code 551234")
        assert mid == "m1"
        page = await app.get("/")
        assert _rows(page.text) == [(True, "m1")]
        assert "Code 551234" in page.text
    finally:
        server.end("mail-11")
