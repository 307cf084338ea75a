"""newsletter.proctor.test on a real server: the subscription form and the promo's offer."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import newsletter

HOST = "newsletter.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([newsletter.SITE]) as srv:
        yield srv


def _begin(
    server: FixtureServer, tmp_path: Path, attempt: str
) -> tuple[AttemptWorld, dict[str, str]]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["newsletter"])
    return world, {"host": HOST, ATTEMPT_HEADER: attempt}


async def test_subscribe_validates_confirms_and_resets(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "news-1")
        try:
            page = await client.get("/signup", headers=headers)
            assert page.status_code == 200
            assert "setTimeout(() => promo.classList.add('open'), 1000);" in page.text

            bad = await client.post(
                "/submit/subscribe",
                data={"email": "kai.moreno", "frequency": "daily"},
                headers=headers,
            )
            assert bad.status_code == 422
            assert "<li>Email address is not valid.</li>" in bad.text
            assert "<li>Choose how often from the list.</li>" in bad.text
            offer = await client.post(
                "/submit/calendar-offer", json={"offer": "yacht"}, headers=headers
            )
            assert offer.status_code == 422
            assert offer.json() == {"ok": False, "errors": ["There is no such offer."]}

            ok = await client.post(
                "/submit/subscribe",
                data={"email": "kai.moreno@example.test", "frequency": "monthly"},
                headers=headers,
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/subscribe/1"
            shown = await client.get(ok.headers["location"], headers=headers)
            assert "Submission #1 (subscribe) was accepted." in shown.text
            assert "<td>email</td><td>kai.moreno@example.test</td>" in shown.text
            assert "<td>frequency</td><td>monthly</td>" in shown.text
            assert [s.route for s in world.submissions] == ["subscribe"]
        finally:
            server.end("news-1")

        world, headers = _begin(server, tmp_path, "news-2")
        try:
            gone = await client.get("/submitted/subscribe/1", headers=headers)
            assert gone.status_code == 404
            assert "No such submission." in gone.text
            assert world.submissions == []
        finally:
            server.end("news-2")
