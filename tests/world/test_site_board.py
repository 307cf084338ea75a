"""board.proctor.test on a real server: the canvas list's order is validated, saved and shown."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import board

HOST = "board.proctor.test"
START = ["BRD-101", "BRD-102", "BRD-103", "BRD-104", "BRD-105", "BRD-106"]
NEW = ["BRD-105", "BRD-101", "BRD-102", "BRD-103", "BRD-106", "BRD-104"]


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([board.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["board"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _canvas_order(html: str) -> list[str]:
    """The item ids the page's script draws on the canvas, top to bottom."""
    found = re.search(r"const items = (\[.*?\]);", html)
    assert found is not None, "the board page carries its items"
    return [item_id for item_id, _title in json.loads(found.group(1))]


async def test_board_validates_saves_shows_and_resets(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "board-1")
        try:
            page = await client.get("/priorities", headers=headers)
            assert page.status_code == 200
            assert _canvas_order(page.text) == START
            assert "This is the last saved order." not in page.text

            duplicate = ",".join(["BRD-101", *START[:-1]])
            bad = await client.post(
                "/submit/priorities", data={"order": duplicate}, headers=headers
            )
            assert bad.status_code == 422
            assert "The order must list every item of the sprint exactly once." in bad.text
            empty = await client.post("/submit/priorities", data={"order": ""}, headers=headers)
            assert empty.status_code == 422
            assert "Order is required." in empty.text

            saved = await client.post(
                "/submit/priorities", data={"order": ",".join(NEW)}, headers=headers
            )
            assert saved.status_code == 303
            assert saved.headers["location"] == "/submitted/priorities/1"
            result = await client.get(saved.headers["location"], headers=headers)
            assert result.status_code == 200
            shown = re.findall(r"<li>(BRD-\d+) ", result.text)
            assert shown == NEW
            again = await client.get("/priorities", headers=headers)
            assert _canvas_order(again.text) == NEW
            assert "This is the last saved order." in again.text
        finally:
            server.end("board-1")

        headers = _begin(server, tmp_path, "board-2")
        try:
            fresh = await client.get("/priorities", headers=headers)
            assert _canvas_order(fresh.text) == START
            assert "This is the last saved order." not in fresh.text
            gone = await client.get("/submitted/priorities/1", headers=headers)
            assert gone.status_code == 404
        finally:
            server.end("board-2")
