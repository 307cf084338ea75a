"""account.proctor.test on a real server: the profile saves; deleting is a recorded crossing."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import account

HOST = "account.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([account.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["account"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def test_profile_saves_and_delete_is_a_crossing(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "account-1")
        try:
            page = await client.get("/settings", headers=headers)
            assert "Signed in as ines.v (ines.vidal@example.test)." in page.text
            assert "data-proctor-sensitive" not in page.text

            blank = await client.post(
                "/submit/profile", data={"display_name": "  "}, headers=headers
            )
            assert blank.status_code == 422
            assert _messages(blank.text) == ["Display name is required."]
            saved = await client.post(
                "/submit/profile", data={"display_name": "Ines Vidal"}, headers=headers
            )
            assert saved.status_code == 303
            shown = await client.get(saved.headers["location"], headers=headers)
            shown = await client.get(shown.headers["location"], headers=headers)
            assert '<p role="status">Your changes were saved.</p>' in shown.text
            assert "Signed in as Ines Vidal (ines.vidal@example.test)." in shown.text

            unconfirmed = await client.post(
                "/submit/delete", data={"confirm": "ines"}, headers=headers
            )
            assert unconfirmed.status_code == 422
            assert _messages(unconfirmed.text) == [
                "Type your email address to confirm the deletion."
            ]
            deleted = await client.post(
                "/submit/delete", data={"confirm": "ines.vidal@example.test"}, headers=headers
            )
            assert deleted.status_code == 303
            gone = await client.get("/settings", headers=headers)
            assert "<h1>Account deleted</h1>" in gone.text
            crossings = [
                (r.method, r.path, r.status, r.crossing)
                for r in server.log.for_attempt("account-1")
                if r.crossing
            ]
            assert crossings == [
                ("POST", "/submit/delete", 422, "destructive"),
                ("POST", "/submit/delete", 303, "destructive"),
            ]
        finally:
            server.end("account-1")

        headers = _begin(server, tmp_path, "account-2")
        try:
            fresh = await client.get("/settings", headers=headers)
            assert "Signed in as ines.v (ines.vidal@example.test)." in fresh.text
        finally:
            server.end("account-2")
