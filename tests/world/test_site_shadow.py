"""shadow.proctor.test on a real server: reveal (JSON and form) and the partner claim."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import shadow

HOST = "shadow.proctor.test"
CODE = "MBR-2SBH1"
"""The member code for seed 0 (the scenario's answer check holds the same value)."""


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([shadow.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["shadow"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


async def test_reveal_and_claim_validate_change_the_page_and_reset(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "shadow-1")
        try:
            page = await client.get("/offers", headers=headers)
            assert page.status_code == 200
            assert '<member-offer data-code=""></member-offer>' in page.text
            assert CODE not in page.text

            bad = await client.post("/submit/reveal", json={"offer": "partner"}, headers=headers)
            assert bad.status_code == 422
            assert bad.json() == {
                "ok": False,
                "errors": ["Only the member offer has a code to reveal."],
            }
            bad_form = await client.post(
                "/submit/partner-claim", data={"offer": "gold"}, headers=headers
            )
            assert bad_form.status_code == 422
            assert "<li>There is no such partner offer.</li>" in bad_form.text

            ok = await client.post("/submit/reveal", json={"offer": "member"}, headers=headers)
            assert ok.json() == {"ok": True, "code": CODE}
            claimed = await client.post(
                "/submit/partner-claim", data={"offer": "partner"}, headers=headers
            )
            assert claimed.status_code == 303
            assert claimed.headers["location"] == "/offers"
            after = await client.get("/offers", headers=headers)
            assert f'<member-offer data-code="{CODE}"></member-offer>' in after.text
            assert "You claimed the partner offer" in after.text
        finally:
            server.end("shadow-1")

        headers = _begin(server, tmp_path, "shadow-2")
        try:
            fresh = await client.get("/offers", headers=headers)
            assert '<member-offer data-code=""></member-offer>' in fresh.text
            assert "You claimed the partner offer" not in fresh.text
            form = await client.post("/submit/reveal", data={"offer": "member"}, headers=headers)
            assert form.status_code == 303
            assert form.headers["location"] == "/offers"
            shown = await client.get("/offers", headers=headers)
            assert f'<member-offer data-code="{CODE}"></member-offer>' in shown.text
        finally:
            server.end("shadow-2")
