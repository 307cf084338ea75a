"""popup.proctor.test on a real server: the new-tab notice link and its acknowledgement."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import popup

HOST = "popup.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([popup.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 9, 8, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["popup"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _notice_status(page: str) -> str:
    found = re.search(r'<p role="status">(Terms notice [^<]+)</p>', page)
    assert found is not None, "no notice status"
    return found.group(1)


async def test_account_links_the_notice_into_a_new_tab(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "popup-page")
        try:
            page = await client.get("/account", headers=headers)
            assert page.status_code == 200
            assert re.findall(r"<a [^>]*>", page.text) == [
                '<a href="/notices/TN-2024-07" target="_blank">'
            ]
            assert '<p id="account-ref">Account reference: ACC-88412</p>' in page.text
            missing = await client.get("/notices/TN-1999-01", headers=headers)
            assert missing.status_code == 404
            assert _messages(missing.text) == ["There is no notice TN-1999-01."]
        finally:
            server.end("popup-page")


async def test_acknowledging_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "popup-1")
        try:
            unticked = await client.post(
                "/submit/notice-ack", data={"notice": "TN-2024-07"}, headers=headers
            )
            assert unticked.status_code == 422
            assert _messages(unticked.text) == [
                'Tick "I have read the updated terms" before you acknowledge.'
            ]
            other = await client.post(
                "/submit/notice-ack", data={"notice": "TN-1999-01", "read": "yes"}, headers=headers
            )
            assert other.status_code == 422
            assert _messages(other.text) == ["Notice TN-1999-01 is not open for acknowledgement."]

            ok = await client.post(
                "/submit/notice-ack", data={"notice": "TN-2024-07", "read": "yes"}, headers=headers
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/notice-ack/1"
            shown = await client.get(ok.headers["location"], headers=headers)
            assert "Submission #1 (notice-ack) was accepted." in shown.text
            account = await client.get("/account", headers=headers)
            assert _notice_status(account.text) == "Terms notice TN-2024-07: acknowledged."
            notice = await client.get("/notices/TN-2024-07", headers=headers)
            assert '<p role="status">You have acknowledged this notice.</p>' in notice.text
        finally:
            server.end("popup-1")

        headers = _begin(server, tmp_path, "popup-2")
        try:
            account = await client.get("/account", headers=headers)
            assert _notice_status(account.text) == "Terms notice TN-2024-07: not acknowledged yet."
            notice = await client.get("/notices/TN-2024-07", headers=headers)
            assert "You have acknowledged this notice." not in notice.text
        finally:
            server.end("popup-2")
