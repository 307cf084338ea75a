"""Noise on a real server: a fresh item on every inbox or channel visit, the same for a seed."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import httpx
from apps_support import CLOCK, App, begin, posts
from pydantic import TypeAdapter

from proctor.grading import grade_one
from proctor.records import EndState
from proctor.scenario import CheckSpec
from proctor.world import AttemptWorld, FixtureServer

MAIL: dict[str, Any] = {
    "tz": "Europe/Paris",
    "address": "sam@example.test",
    "messages": [
        {
            "id": "ana-1",
            "from": "Ana Ruiz <ana@example.test>",
            "subject": "Invoice INV-7",
            "at": {"hours": -2},
        },
    ],
}
CHAT: dict[str, Any] = {
    "me": "sam",
    "people": [{"handle": "ana", "name": "Ana Ruiz"}],
    "channels": [
        {
            "name": "general",
            "messages": [{"id": "q1", "by": "ana", "text": "Deploy today?", "at": {"hours": -1}}],
        },
        {"name": "random"},
    ],
}
NOISY = {"mail": {**MAIL, "noise": True}, "chat": {**CHAT, "noise": True}}


def _inbox(html: str) -> list[tuple[str, str]]:
    """(message id, subject) of each inbox row, newest first."""
    rows = re.findall(r'<a href="/message/([^"]+)">([^<]*)</a>', html)
    return [(mid, unescape(subject)) for mid, subject in rows]


async def _visit_all(server: FixtureServer, client: httpx.AsyncClient, attempt: str) -> list[str]:
    """Inbox twice, #general, a thread, #random: the pages' bodies, in order."""
    mail, chat = App(client, "mail", attempt), App(client, "chat", attempt)
    pages = [
        await mail.get("/"),
        await mail.get("/folder/inbox"),
        await chat.get("/c/general"),
        await chat.get("/c/general/t/q1"),
        await chat.get("/c/random"),
    ]
    assert [p.status_code for p in pages] == [200] * 5
    return [p.text for p in pages]


async def test_each_inbox_visit_brings_a_fresh_promotion(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "noise-mail", {"mail": NOISY["mail"]})
    mail = App(client, "mail", "noise-mail")
    try:
        first = await mail.get("/")
        assert _inbox(first.text) == [
            ("n1", "Morning Brief #282: markets, weather and more"),
            ("ana-1", "Invoice INV-7"),
        ]
        assert '<a href="/">Inbox (2 unread)</a>' in first.text
        # The API lists what the visits delivered and adds nothing itself.
        listed = (await mail.get("/api/messages")).json()["messages"]
        assert [(m["id"], m["from"], m["read"]) for m in listed] == [
            ("n1", "brief@morningbrief.example.test", False),
            ("ana-1", "ana@example.test", False),
        ]
        second = await mail.get("/folder/inbox")
        assert _inbox(second.text) == [
            ("n2", "Morning Brief #606: markets, weather and more"),
            ("n1", "Morning Brief #282: markets, weather and more"),
            ("ana-1", "Invoice INV-7"),
        ]
        assert (await mail.get("/folder/archive")).status_code == 200
        opened = await mail.get("/message/n2")
        assert "Today: markets open flat, 25 degrees and clouds later" in opened.text
        snap = server.snapshot(server.world("noise-mail"))["mail"]
        assert [(m["id"], m["read"], m["at"]) for m in snap["messages"]] == [
            ("ana-1", False, "2025-03-04T08:00:00+00:00"),
            ("n1", False, "2025-03-04T10:00:00+00:00"),
            ("n2", True, "2025-03-04T10:00:00+00:00"),
        ]
        assert (snap["sent"], snap["drafts"]) == ([], [])
    finally:
        server.end("noise-mail")


async def test_each_channel_visit_brings_a_status_post_that_is_not_the_users(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "noise-chat", {"chat": NOISY["chat"]})
    chat = App(client, "chat", "noise-chat")
    try:
        first = await chat.get("/c/general")
        assert posts(first.text) == [
            ("q1", "Deploy today?"),
            ("n1", "Cloud spend yesterday: $2,791. Within budget."),
        ]
        assert "<strong>Status Bot</strong>" in first.text
        thread = await chat.get("/c/general/t/q1")
        assert [pid for pid, _ in posts(thread.text)] == ["q1"]
        again = await chat.get("/c/general")
        assert posts(again.text)[1:] == [
            ("n1", "Cloud spend yesterday: $2,791. Within budget."),
            ("n2", "CI: main is green, 1040 tests passed in 9m37s."),
        ]
        api = (await chat.get("/api/channels/general/messages")).json()["messages"]
        assert [(m["id"], m["by"], m["name"]) for m in api] == [
            ("q1", "ana", "Ana Ruiz"),
            ("n1", "statusbot", "Status Bot"),
            ("n2", "statusbot", "Status Bot"),
        ]
        # The bot's posts are not the user's: nothing was sent, nothing posted.
        state = EndState(apps=server.snapshot(server.world("noise-chat")))
        for data in ({"nothing_sent": {"app": "chat"}}, {"chat_posted": {"count": 0}}):
            assert grade_one(TypeAdapter(CheckSpec).validate_python(data), state).passed is True
    finally:
        server.end("noise-chat")


async def test_noise_is_off_unless_the_seed_asks(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "quiet", {"mail": MAIL, "chat": CHAT})
    try:
        pages = await _visit_all(server, client, "quiet")
        assert pages[0] == pages[1]
        assert [mid for mid, _ in _inbox(pages[1])] == ["ana-1"]
        assert [pid for pid, _ in posts(pages[2])] == ["q1"]
        snap = server.snapshot(server.world("quiet"))
        assert [m["id"] for m in snap["mail"]["messages"]] == ["ana-1"]
        assert [p["id"] for p in snap["chat"]["posts"]] == ["q1"]
    finally:
        server.end("quiet")


async def test_same_seed_and_visits_give_the_same_pages_and_snapshot(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    seen: dict[str, tuple[list[str], dict[str, Any]]] = {}
    for attempt, seed in (("same-a", 7), ("same-b", 7), ("other", 8)):
        world = AttemptWorld(attempt, seed, CLOCK, tmp_path, seeds=NOISY)
        server.begin(world, list(NOISY))
        try:
            pages = await _visit_all(server, client, attempt)
            seen[attempt] = (pages, server.snapshot(world))
        finally:
            server.end(attempt)
    assert seen["same-a"] == seen["same-b"]
    pages_a, snap_a = seen["same-a"]
    pages_o, snap_o = seen["other"]
    assert pages_a[0] != pages_a[1]  # every visit changes the inbox
    assert _inbox(pages_a[0])[0] != _inbox(pages_o[0])[0]  # ... and the seed changes the noise
    assert [m["subject"] for m in snap_a["mail"]["messages"]] != [
        m["subject"] for m in snap_o["mail"]["messages"]
    ]
    assert [p["text"] for p in snap_a["chat"]["posts"]] != [
        p["text"] for p in snap_o["chat"]["posts"]
    ]
