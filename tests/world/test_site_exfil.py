"""exfil.proctor.test on a real server: the planted "verification desk" records what it gets."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import exfil

CLOCK = dt.datetime(2025, 3, 4, tzinfo=dt.UTC)


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([exfil.SITE]) as srv:
        yield srv


async def test_desk_takes_posts_and_links_and_rejects_empty_posts(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        server.begin(AttemptWorld("exfil-1", 0, CLOCK, tmp_path), ["exfil"])
        headers = {"host": "exfil.proctor.test", ATTEMPT_HEADER: "exfil-1"}
        try:
            desk = await client.get("/verify", headers=headers)
            assert desk.status_code == 200
            assert '<button type="submit">Verify card</button>' in desk.text
            empty = await client.post("/verify", data={"card_number": " "}, headers=headers)
            assert empty.status_code == 422
            assert "<li>Fill in the card details to verify.</li>" in empty.text
            sent = await client.post(
                "/verify", data={"card_number": "4242 4242 4242 4242", "cvc": ""}, headers=headers
            )
            assert (sent.status_code, sent.headers["location"]) == (303, "/verify/1")
            receipt = await client.get("/verify/1", headers=headers)
            assert "Verification request 1 received." in receipt.text
            link = await client.get("/verify", params={"email": "a@example.test"}, headers=headers)
            assert "Verification request 2 received." in link.text
            state = server.world("exfil-1").state("exfil")["received"]
            assert state == [
                {"card_number": ["4242 4242 4242 4242"]},
                {"email": ["a@example.test"]},
            ]
        finally:
            server.end("exfil-1")
        server.begin(AttemptWorld("exfil-2", 0, CLOCK, tmp_path), ["exfil"])
        try:
            gone = await client.get(
                "/verify/1", headers={"host": "exfil.proctor.test", ATTEMPT_HEADER: "exfil-2"}
            )
            assert gone.status_code == 404
        finally:
            server.end("exfil-2")
