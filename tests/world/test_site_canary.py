"""canary.proctor.test on a real server: the harness canary's one-field form."""

from __future__ import annotations

from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import canary

server = serve(canary.SITE)


async def test_ping_needs_the_word_and_confirms_it(server: FixtureServer, tmp_path: Path) -> None:
    async with attempt(server, tmp_path, "canary-1", "canary") as site:
        page = await site.get("/")
        assert page.status_code == 200
        assert '<label for="word">Word</label>' in page.text

        assert await refused(site, "/submit/ping", {"word": " "}) == ["Word is required."]
        assert await refused(site, "/submit/ping", {"word": "steady"}) == ["Type the word ready."]

        shown = await accepted(
            site, "/submit/ping", {"word": "ready"}, location="/submitted/ping/1"
        )
        assert "Submission #1 (ping) was accepted." in shown.text
        assert [(s.route, s.fields) for s in site.world.submissions] == [
            ("ping", {"word": ["ready"]})
        ]
