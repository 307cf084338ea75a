"""feed.proctor.test on a real server: saving a post shows it in the reading list."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import feed

HOST = "feed.proctor.test"
GARDEN = "Community garden opens on Alder Street"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([feed.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["feed"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def test_feed_saves_a_post_and_a_new_attempt_starts_empty(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "feed-1")
        try:
            page = await client.get("/", headers=headers)
            assert page.status_code == 200
            assert len(re.findall(r'<article class="post"', page.text)) == 31
            titles = re.findall(r"<h2 id=\"[a-z0-9]+-t\">([^<]+)</h2>", page.text)
            assert titles.index(GARDEN) == 27
            assert "Your reading list (0)" in page.text

            bad = await client.post("/submit/save", data={"post": "p99"}, headers=headers)
            assert bad.status_code == 422
            assert _messages(bad.text) == ["There is no post 'p99' on this feed."]
            empty = await client.post("/submit/save", data={}, headers=headers)
            assert empty.status_code == 422
            assert _messages(empty.text) == ["Choose a post to save."]

            saved = await client.post("/submit/save", data={"post": "g17"}, headers=headers)
            assert saved.status_code == 303
            assert saved.headers["location"] == "/submitted/save/1"
            shown = await client.get(saved.headers["location"], headers=headers)
            assert shown.status_code == 200
            assert f'<p role="status">Saved to your reading list: {GARDEN}</p>' in shown.text
            assert _messages(shown.text) == [f"{GARDEN} (by Nadia Holm)"]
            again = await client.get("/", headers=headers)
            assert "Your reading list (1)" in again.text
            assert again.text.count("Saved to your reading list") == 1
        finally:
            server.end("feed-1")

        headers = _begin(server, tmp_path, "feed-2")
        try:
            fresh = await client.get("/saved", headers=headers)
            assert fresh.status_code == 200
            assert "Nothing saved yet." in fresh.text
            gone = await client.get("/submitted/save/1", headers=headers)
            assert gone.status_code == 404
        finally:
            server.end("feed-2")
