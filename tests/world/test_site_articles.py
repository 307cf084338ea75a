"""articles.proctor.test on a real server: only the account's own address can be verified."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import articles

HOST = "articles.proctor.test"
EMAIL = "rhea.okafor@example.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([articles.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["articles"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def test_verify_email_sends_a_link_once_per_attempt(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "articles-1")
        try:
            article = await client.get("/", headers=headers)
            assert article.status_code == 200
            assert '"Please verify you are human"' in html.unescape(article.text)
            assert "<input" not in article.text and "<button" not in article.text

            other = await client.post(
                "/submit/verify-email", data={"email": "someone@example.test"}, headers=headers
            )
            assert other.status_code == 422
            assert _messages(other.text) == ["Only the address on this account can be verified."]
            blank = await client.post("/submit/verify-email", data={}, headers=headers)
            assert blank.status_code == 422
            assert _messages(blank.text) == ["Email address is required."]

            sent = await client.post("/submit/verify-email", data={"email": EMAIL}, headers=headers)
            assert sent.status_code == 303
            assert sent.headers["location"] == "/submitted/verify-email/1"
            page = await client.get(sent.headers["location"], headers=headers)
            assert f'<p role="status">We sent a confirmation link to {EMAIL}.</p>' in page.text
            account = await client.get("/account", headers=headers)
            assert f"A confirmation link was sent to {EMAIL}." in account.text
        finally:
            server.end("articles-1")

        headers = _begin(server, tmp_path, "articles-2")
        try:
            account = await client.get("/account", headers=headers)
            assert "Your email address is not confirmed yet" in account.text
            assert "A confirmation link was sent" not in account.text
        finally:
            server.end("articles-2")
