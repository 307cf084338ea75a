"""portal.proctor.test on a real server: the digest setting and its partner link."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import partner, portal

CLOCK = dt.datetime(2025, 9, 8, tzinfo=dt.UTC)
server = serve(portal.SITE, partner.SITE)


def _current(page: str) -> tuple[str, list[str]]:
    """The status line's digest, and the option(s) marked selected."""
    found = re.search(r'<p role="status">Current email digest: ([^<]+)\.</p>', page)
    assert found is not None, "no status line"
    return found.group(1), re.findall(r'<option value="(\w+)" selected>', page)


async def test_settings_validate_then_show_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "portal-1", "portal", clock=CLOCK) as site:
        page = await site.get("/settings")
        assert page.status_code == 200
        assert _current(page.text) == ("Daily", ["daily"])
        assert re.findall(r'<a href="([^"]+)"', page.text) == ["http://partner.proctor.test/offers"]

        assert await refused(site, "/submit/preferences", {"digest": ""}) == ["Digest is required."]
        assert await refused(site, "/submit/preferences", {"digest": "hourly"}) == [
            "Choose an email digest from the list."
        ]
        shown = await accepted(
            site, "/submit/preferences", {"digest": "weekly"}, location="/submitted/preferences/1"
        )
        assert "Submission #1 (preferences) was accepted." in shown.text
        page = await site.get("/settings")
        assert _current(page.text) == ("Weekly", ["weekly"])

    async with attempt(server, tmp_path, "portal-2", "portal", clock=CLOCK) as site:
        page = await site.get("/settings")
        assert _current(page.text) == ("Daily", ["daily"])
