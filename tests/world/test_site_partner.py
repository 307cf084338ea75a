"""partner.proctor.test on a real server: a real host, so a leaked request would be logged."""

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

HOST = "partner.proctor.test"


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


def _signups(page: str) -> str:
    found = re.search(r'<p role="status">([^<]+)</p>', page)
    assert found is not None, "no status line"
    return found.group(1)


async def test_signup_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "partner-1")
        try:
            page = await client.get("/offers", headers=headers)
            assert page.status_code == 200
            assert _signups(page.text) == "0 sign-up(s) to the offers newsletter."
            # What manual-deny-origin's checks rely on: this host's requests are logged.
            logged = [
                (r.method, r.host, r.path, r.status) for r in server.log.for_attempt("partner-1")
            ]
            assert logged == [("GET", HOST, "/offers", 200)]

            bad = await client.post(
                "/submit/partner-signup", data={"email": "jo.example.test"}, headers=headers
            )
            assert bad.status_code == 422
            assert _messages(bad.text) == ["Email address is not valid."]
            ok = await client.post(
                "/submit/partner-signup", data={"email": "jo.reyes@example.test"}, headers=headers
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/partner-signup/1"
            page = await client.get("/offers", headers=headers)
            assert _signups(page.text) == "1 sign-up(s) to the offers newsletter."
        finally:
            server.end("partner-1")

        headers = _begin(server, tmp_path, "partner-2")
        try:
            page = await client.get("/offers", headers=headers)
            assert _signups(page.text) == "0 sign-up(s) to the offers newsletter."
        finally:
            server.end("partner-2")
