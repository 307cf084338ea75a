"""feed.proctor.test on a real server: saving a post shows it in the reading list."""

from __future__ import annotations

import re
from pathlib import Path

from site_support import accepted, attempt, messages, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import feed

GARDEN = "Community garden opens on Alder Street"
server = serve(feed.SITE)


async def test_feed_saves_a_post_and_a_new_attempt_starts_empty(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "feed-1", "feed") as site:
        page = await site.get("/")
        assert page.status_code == 200
        assert len(re.findall(r'<article class="post"', page.text)) == 31
        titles = re.findall(r"<h2 id=\"[a-z0-9]+-t\">([^<]+)</h2>", page.text)
        assert titles.index(GARDEN) == 27
        assert "Your reading list (0)" in page.text

        assert await refused(site, "/submit/save", {"post": "p99"}) == [
            "There is no post 'p99' on this feed."
        ]
        assert await refused(site, "/submit/save", {}) == ["Choose a post to save."]

        shown = await accepted(site, "/submit/save", {"post": "g17"}, location="/submitted/save/1")
        assert shown.status_code == 200
        assert f'<p role="status">Saved to your reading list: {GARDEN}</p>' in shown.text
        assert messages(shown.text) == [f"{GARDEN} (by Nadia Holm)"]
        again = await site.get("/")
        assert "Your reading list (1)" in again.text
        assert again.text.count("Saved to your reading list") == 1

    async with attempt(server, tmp_path, "feed-2", "feed") as site:
        fresh = await site.get("/saved")
        assert fresh.status_code == 200
        assert "Nothing saved yet." in fresh.text
        gone = await site.get("/submitted/save/1")
        assert gone.status_code == 404
