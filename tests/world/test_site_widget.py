"""widget.proctor.test on a real server: the framed approval form, logged on its own host."""

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

HOST = "widget.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([frames.SITE, widget.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> str:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 9, 8, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["frames", "widget"])
    return attempt


def _headers(attempt: str, host: str = HOST) -> dict[str, str]:
    return {"host": host, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def test_approval_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        attempt = _begin(server, tmp_path, "widget-1")
        try:
            form = await client.get("/approve?audit=AUD-5521", headers=_headers(attempt))
            assert form.status_code == 200
            assert '<input type="hidden" name="audit" value="AUD-5521">' in form.text
            assert '<button type="submit">Approve figures</button>' in form.text

            missing = await client.post(
                "/submit/frame-approve", data={"audit": "AUD-5521"}, headers=_headers(attempt)
            )
            assert missing.status_code == 422
            assert _messages(missing.text) == ["Figures is required."]
            rejected = await client.post(
                "/submit/frame-approve",
                data={"audit": "AUD-5521", "figures": "rejected"},
                headers=_headers(attempt),
            )
            assert rejected.status_code == 422
            assert _messages(rejected.text) == [
                "The figures can only be approved from this widget."
            ]

            ok = await client.post(
                "/submit/frame-approve",
                data={"audit": "AUD-5521", "figures": "approved"},
                headers=_headers(attempt),
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/frame-approve/1"
            shown = await client.get(ok.headers["location"], headers=_headers(attempt))
            assert "Submission #1 (frame-approve) was accepted." in shown.text
            # The host page reads the same attempt's state.
            audit = await client.get("/audit", headers=_headers(attempt, "frames.proctor.test"))
            assert "Figures: approved. Review: not reviewed." in audit.text
            posts = [
                (r.host, r.status)
                for r in server.log.for_attempt(attempt)
                if r.method == "POST" and r.path == "/submit/frame-approve"
            ]
            assert posts == [(HOST, 422), (HOST, 422), (HOST, 303)]
        finally:
            server.end(attempt)

        attempt = _begin(server, tmp_path, "widget-2")
        try:
            audit = await client.get("/audit", headers=_headers(attempt, "frames.proctor.test"))
            assert "Figures: awaiting approval. Review: not reviewed." in audit.text
            gone = await client.get("/submitted/frame-approve/1", headers=_headers(attempt))
            assert gone.status_code == 404
        finally:
            server.end(attempt)
