"""board.proctor.test on a real server: the canvas list's order is validated, saved and shown."""

from __future__ import annotations

import json
import re
from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import board

START = ["BRD-101", "BRD-102", "BRD-103", "BRD-104", "BRD-105", "BRD-106"]
NEW = ["BRD-105", "BRD-101", "BRD-102", "BRD-103", "BRD-106", "BRD-104"]
server = serve(board.SITE)


def _canvas_order(html: str) -> list[str]:
    """The item ids the page's script draws on the canvas, top to bottom."""
    found = re.search(r"const items = (\[.*?\]);", html)
    assert found is not None, "the board page carries its items"
    return [item_id for item_id, _title in json.loads(found.group(1))]


async def test_board_validates_saves_shows_and_resets(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "board-1", "board") as site:
        page = await site.get("/priorities")
        assert page.status_code == 200
        assert _canvas_order(page.text) == START
        assert "This is the last saved order." not in page.text

        duplicate = ",".join(["BRD-101", *START[:-1]])
        assert await refused(site, "/submit/priorities", {"order": duplicate}) == [
            "The order must list every item of the sprint exactly once."
        ]
        assert await refused(site, "/submit/priorities", {"order": ""}) == ["Order is required."]

        saved = {"order": ",".join(NEW)}
        result = await accepted(
            site, "/submit/priorities", saved, location="/submitted/priorities/1"
        )
        assert result.status_code == 200
        shown = re.findall(r"<li>(BRD-\d+) ", result.text)
        assert shown == NEW
        again = await site.get("/priorities")
        assert _canvas_order(again.text) == NEW
        assert "This is the last saved order." in again.text

    async with attempt(server, tmp_path, "board-2", "board") as site:
        fresh = await site.get("/priorities")
        assert _canvas_order(fresh.text) == START
        assert "This is the last saved order." not in fresh.text
        gone = await site.get("/submitted/priorities/1")
        assert gone.status_code == 404
