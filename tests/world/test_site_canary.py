"""canary.proctor.test on a real server: the harness canary's one-field form."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import canary

HOST = "canary.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([canary.SITE]) as srv:
        yield srv


async def test_ping_needs_the_word_and_confirms_it(server: FixtureServer, tmp_path: Path) -> None:
    world = AttemptWorld(
        attempt="canary-1", seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["canary"])
    headers = {"host": HOST, ATTEMPT_HEADER: "canary-1"}
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
            page = await client.get("/", headers=headers)
            assert page.status_code == 200
            assert '<label for="word">Word</label>' in page.text

            empty = await client.post("/submit/ping", data={"word": " "}, headers=headers)
            assert empty.status_code == 422
            assert "<li>Word is required.</li>" in empty.text
            wrong = await client.post("/submit/ping", data={"word": "steady"}, headers=headers)
            assert wrong.status_code == 422
            assert "<li>Type the word ready.</li>" in wrong.text

            ok = await client.post("/submit/ping", data={"word": "ready"}, headers=headers)
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/ping/1"
            shown = await client.get(ok.headers["location"], headers=headers)
            assert "Submission #1 (ping) was accepted." in shown.text
            assert [(s.route, s.fields) for s in world.submissions] == [
                ("ping", {"word": ["ready"]})
            ]
    finally:
        server.end("canary-1")
