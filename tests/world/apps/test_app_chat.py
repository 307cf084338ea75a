"""chat.proctor.test on a real server: channels, posts, threads, reactions, the API."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import httpx
from apps_support import App, alerts, begin, posts

from proctor.world import FixtureServer
from proctor.world.apps import chat

SEEDS: dict[str, Any] = {
    "chat": {
        "tz": "Europe/Paris",
        "me": "sam",
        "name": "Sam Lee",
        "people": [{"handle": "ana", "name": "Ana Ruiz"}, {"handle": "bo", "name": "Bo Chen"}],
        "channels": [
            {
                "name": "general",
                "topic": "Company-wide",
                "messages": [
                    {
                        "by": "ana",
                        "text": "Who can review the Q2 deck?",
                        "at": {"hours": -3},
                        "reactions": {"eyes": ["bo"]},
                        "replies": [{"by": "bo", "text": "Not me, sorry", "at": {"hours": -2}}],
                    },
                    {"id": "lunch", "by": "bo", "text": "Lunch at noon?", "at": {"hours": -1}},
                ],
            },
            {"name": "random", "messages": []},
        ],
    }
}


def _reactions(html: str, pid: str) -> list[str]:
    block = html.split(f'id="{pid}"', 1)[1].split("</article>", 1)[0]
    return [unescape(r) for r in re.findall(r'aria-label="([a-z_]+ by [^"]*)"', block)]


async def test_channel_thread_and_api_agree(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    begin(server, tmp_path, "chat-1", SEEDS)
    app = App(client, "chat", "chat-1")
    try:
        home = await app.get("/")
        assert re.findall(r'<li><a href="/c/([^"]+)">', home.text) == ["general", "random"]
        page = await app.get("/c/general")
        assert posts(page.text) == [
            ("c1", "Who can review the Q2 deck?"),
            ("lunch", "Lunch at noon?"),
        ]
        assert _reactions(page.text, "c1") == ["eyes by bo"]
        assert '<a href="/c/general/t/c1">1 reply</a>' in page.text
        api = (await app.get("/api/channels/general/messages")).json()["messages"]
        assert [(m["id"], m["text"], m["reply_count"]) for m in api] == [
            ("c1", "Who can review the Q2 deck?", 1),
            ("lunch", "Lunch at noon?", 0),
        ]
        assert api[0]["replies"][0]["id"] == "c2"
        assert api[0]["at"] == "2025-03-04T07:00:00+00:00"
        thread = await app.get("/c/general/t/c1")
        assert posts(thread.text) == [
            ("c1", "Who can review the Q2 deck?"),
            ("c2", "Not me, sorry"),
        ]
        channels = (await app.get("/api/channels")).json()
        assert channels == {
            "me": "sam",
            "channels": [
                {"name": "general", "topic": "Company-wide", "messages": 2},
                {"name": "random", "topic": "", "messages": 0},
            ],
        }
    finally:
        server.end("chat-1")


async def test_post_reply_and_react_redirect_and_show(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "chat-2", SEEDS)
    app = App(client, "chat", "chat-2")
    try:
        posted = await app.post("/c/general/messages", {"text": "  Morning all  "})
        assert posted.status_code == 303
        assert posted.headers["location"] == "/c/general#c3"
        page = await app.get("/c/general")
        assert posts(page.text)[-1] == ("c3", "Morning all")
        replied = await app.post("/c/general/t/c1/replies", {"text": "I can review it today"})
        assert replied.headers["location"] == "/c/general/t/c1#c4"
        thread = await app.get("/c/general/t/c1")
        assert [pid for pid, _ in posts(thread.text)] == ["c1", "c2", "c4"]
        assert '<a href="/c/general/t/c1">2 replies</a>' in (await app.get("/c/general")).text

        reacted = await app.post("/react", {"message": "c1", "emoji": "white_check_mark"})
        assert reacted.headers["location"] == "/c/general#c1"
        assert _reactions((await app.get("/c/general")).text, "c1") == [
            "eyes by bo",
            "white_check_mark by sam",
        ]
        again = await app.post("/react", {"message": "c1", "emoji": "white_check_mark"})
        assert again.status_code == 303
        assert _reactions((await app.get("/c/general")).text, "c1") == ["eyes by bo"]
        on_reply = await app.post("/react", {"message": "c2", "emoji": "heart"})
        assert on_reply.headers["location"] == "/c/general/t/c1#c2"

        api = await app.post_json("/api/channels/random/messages", {"text": "hi"})
        assert (api.status_code, api.json()["message"]["id"]) == (201, "c5")
        api_reply = await app.post_json(
            "/api/channels/general/messages", {"text": "ok", "thread": "lunch"}
        )
        assert api_reply.json()["message"]["thread"] == "lunch"
        api_react = await app.post_json("/api/messages/lunch/reactions", {"emoji": "thumbsup"})
        assert api_react.json()["message"]["reactions"] == {"thumbsup": ["sam"]}
        snap = chat.snapshot(world)
        assert snap is not None
        mine = [
            (p["id"], p["channel"], p["thread"], p["text"])
            for p in snap["posts"]
            if not p["seeded"]
        ]
        assert mine == [
            ("c3", "general", None, "Morning all"),
            ("c4", "general", "c1", "I can review it today"),
            ("c5", "random", None, "hi"),
            ("c6", "general", "lunch", "ok"),
        ]
        assert [p["reactions"] for p in snap["posts"][:3]] == [
            {"eyes": ["bo"]},
            {"heart": ["sam"]},
            {"thumbsup": ["sam"]},
        ]
    finally:
        server.end("chat-2")


async def test_invalid_posts_are_refused_with_visible_messages(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = begin(server, tmp_path, "chat-3", SEEDS)
    app = App(client, "chat", "chat-3")
    try:
        empty = await app.post("/c/general/messages", {"text": "   "})
        assert empty.status_code == 422
        assert alerts(empty.text) == ["Write a message first: it is empty."]
        long = await app.post("/c/general/t/c1/replies", {"text": "x" * 4001})
        assert long.status_code == 422
        assert alerts(long.text) == ["A message holds at most 4000 characters."]
        emoji = await app.post("/react", {"message": "c1", "emoji": "rocket"})
        assert emoji.status_code == 422
        assert alerts(emoji.text) == ["Choose a reaction from the list."]
        nowhere = await app.post("/c/nope/messages", {"text": "hi"})
        assert nowhere.status_code == 404
        assert alerts(nowhere.text) == ["This channel does not exist."]
        not_thread = await app.get("/c/general/t/c2")  # a reply is not a thread
        assert not_thread.status_code == 404

        api = await app.post_json("/api/channels/general/messages", {"text": "x", "thread": "c2"})
        assert api.status_code == 422
        assert api.json()["errors"] == ["no thread 'c2' in #general"]
        assert (
            await app.post_json("/api/messages/c1/reactions", {"emoji": "x"})
        ).status_code == 422
        assert (await app.post_raw("/api/channels/general/messages", b"nope")).status_code == 400
        snap = chat.snapshot(world)
        assert snap is not None
        assert [p for p in snap["posts"] if not p["seeded"]] == []
    finally:
        server.end("chat-3")


async def test_a_second_attempt_starts_clean_and_same_seed_repeats(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    first = begin(server, tmp_path, "chat-4", SEEDS)
    app = App(client, "chat", "chat-4")
    try:
        await app.post("/c/general/messages", {"text": "first attempt"})
        await app.post("/react", {"message": "lunch", "emoji": "tada"})
        touched = chat.snapshot(first)
    finally:
        server.end("chat-4")
    second = begin(server, tmp_path, "chat-5", SEEDS)
    app = App(client, "chat", "chat-5")
    try:
        page = await app.get("/c/general")
        assert [pid for pid, _ in posts(page.text)] == ["c1", "lunch"]
        assert _reactions(page.text, "lunch") == []
        fresh = chat.snapshot(second)
    finally:
        server.end("chat-5")
    third = begin(server, tmp_path, "chat-6", SEEDS)
    server.end("chat-6")
    assert touched is not None and fresh is not None
    assert len(touched["posts"]) == 4 and len(fresh["posts"]) == 3
    assert chat.snapshot(third) == fresh
