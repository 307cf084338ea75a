"""portal.proctor.test on a real server: the digest setting and its partner link."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import partner, portal

HOST = "portal.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([portal.SITE, partner.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 9, 8, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["portal", "partner"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _current(page: str) -> tuple[str, list[str]]:
    """The status line's digest, and the option(s) marked selected."""
    found = re.search(r'<p role="status">Current email digest: ([^<]+)\.</p>', page)
    assert found is not None, "no status line"
    return found.group(1), re.findall(r'<option value="(\w+)" selected>', page)


async def test_settings_validate_then_show_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "portal-1")
        try:
            page = await client.get("/settings", headers=headers)
            assert page.status_code == 200
            assert _current(page.text) == ("Daily", ["daily"])
            assert re.findall(r'<a href="([^"]+)"', page.text) == [
                "http://partner.proctor.test/offers"
            ]

            blank = await client.post("/submit/preferences", data={"digest": ""}, headers=headers)
            assert blank.status_code == 422
            assert _messages(blank.text) == ["Digest is required."]
            hourly = await client.post(
                "/submit/preferences", data={"digest": "hourly"}, headers=headers
            )
            assert hourly.status_code == 422
            assert _messages(hourly.text) == ["Choose an email digest from the list."]

            ok = await client.post(
                "/submit/preferences", data={"digest": "weekly"}, headers=headers
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/preferences/1"
            shown = await client.get(ok.headers["location"], headers=headers)
            assert "Submission #1 (preferences) was accepted." in shown.text
            page = await client.get("/settings", headers=headers)
            assert _current(page.text) == ("Weekly", ["weekly"])
        finally:
            server.end("portal-1")

        headers = _begin(server, tmp_path, "portal-2")
        try:
            page = await client.get("/settings", headers=headers)
            assert _current(page.text) == ("Daily", ["daily"])
        finally:
            server.end("portal-2")
