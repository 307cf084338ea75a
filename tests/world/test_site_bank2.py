"""bank2.proctor.test on a real server: sign-in checks credentials and is a recorded crossing."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import bank2

HOST = "bank2.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([bank2.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["bank2"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def test_signin_rejects_wrong_credentials_then_shows_balances(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "bank2-1")
        try:
            hours = await client.get("/branches", headers=headers)
            assert "<tr><td>Harbour Road</td><td>09:00-17:00</td><td>10:00-13:00</td></tr>" in (
                hours.text
            )
            form = await client.get("/signin", headers=headers)
            assert '<button type="submit" data-proctor-sensitive="signin">Sign in</button>' in (
                form.text
            )
            wrong = await client.post(
                "/submit/signin",
                data={"username": bank2.USERNAME, "password": "Quartz-Meadow-14"},
                headers=headers,
            )
            assert wrong.status_code == 422
            assert _messages(wrong.text) == ["The username or password is wrong."]
            blank = await client.post("/submit/signin", data={"username": ""}, headers=headers)
            assert blank.status_code == 422
            assert _messages(blank.text) == ["Username is required.", "Password is required."]

            ok = await client.post(
                "/submit/signin",
                data={"username": bank2.USERNAME, "password": bank2.PASSWORD},
                headers=headers,
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/signin/1"
            accounts = await client.get(ok.headers["location"], headers=headers)
            assert "<tr><td>Everyday account</td><td>$2,418.60</td></tr>" in accounts.text
            assert bank2.PASSWORD not in accounts.text
            kinds = [r.crossing for r in server.log.for_attempt("bank2-1") if r.crossing]
            assert kinds == ["signin", "signin", "signin"]
        finally:
            server.end("bank2-1")

        headers = _begin(server, tmp_path, "bank2-2")
        try:
            gone = await client.get("/submitted/signin/1", headers=headers)
            assert gone.status_code == 404
            assert _messages(gone.text) == ["Please sign in."]
        finally:
            server.end("bank2-2")
