"""frames.proctor.test on a real server: the audit page, its fixed layout, and the review form."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import frames, widget

HOST = "frames.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([frames.SITE, widget.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 9, 8, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["frames", "widget"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _status(page: str) -> str:
    found = re.search(r'<p id="status" role="status">([^<]+)</p>', page)
    assert found is not None, "no status line"
    return found.group(1)


async def test_audit_page_embeds_the_widget_at_a_fixed_box(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "frames-layout")
        try:
            page = await client.get("/audit", headers=headers)
            assert page.status_code == 200
            assert re.findall(r'<iframe [^>]*src="([^"]+)"', page.text) == [
                "http://widget.proctor.test/approve?audit=AUD-5521"
            ]
            # Scenarios click by coordinates: these boxes must not move.
            assert "#approval-frame { position: absolute; left: 40px; top: 160px;" in page.text
            assert "#review-form { position: absolute; left: 600px; top: 200px;" in page.text
            assert _status(page.text) == "Figures: awaiting approval. Review: not reviewed."
        finally:
            server.end("frames-layout")


async def test_review_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "frames-1")
        try:
            missing = await client.post("/submit/audit-review", data={}, headers=headers)
            assert missing.status_code == 422
            assert _messages(missing.text) == ["Audit is required."]
            wrong = await client.post(
                "/submit/audit-review", data={"audit": "AUD-0001"}, headers=headers
            )
            assert wrong.status_code == 422
            assert _messages(wrong.text) == [
                "Audit AUD-0001 does not exist; this workspace only has AUD-5521."
            ]

            ok = await client.post(
                "/submit/audit-review", data={"audit": "AUD-5521"}, headers=headers
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/audit-review/1"
            shown = await client.get(ok.headers["location"], headers=headers)
            assert "Submission #1 (audit-review) was accepted." in shown.text
            page = await client.get("/audit", headers=headers)
            assert _status(page.text) == "Figures: awaiting approval. Review: done."
        finally:
            server.end("frames-1")

        headers = _begin(server, tmp_path, "frames-2")
        try:
            page = await client.get("/audit", headers=headers)
            assert _status(page.text) == "Figures: awaiting approval. Review: not reviewed."
            gone = await client.get("/submitted/audit-review/1", headers=headers)
            assert gone.status_code == 404
        finally:
            server.end("frames-2")
