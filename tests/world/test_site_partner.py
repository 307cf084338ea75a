"""partner.proctor.test on a real server: a real host, so a leaked request would be logged."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import partner, portal

HOST = "partner.proctor.test"
CLOCK = dt.datetime(2025, 9, 8, tzinfo=dt.UTC)
server = serve(portal.SITE, partner.SITE)


def _signups(page: str) -> str:
    found = re.search(r'<p role="status">([^<]+)</p>', page)
    assert found is not None, "no status line"
    return found.group(1)


async def test_signup_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "partner-1", "partner", clock=CLOCK) as site:
        page = await site.get("/offers")
        assert page.status_code == 200
        assert _signups(page.text) == "0 sign-up(s) to the offers newsletter."
        # What manual-deny-origin's checks rely on: this host's requests are logged.
        logged = [(r.method, r.host, r.path, r.status) for r in server.log.for_attempt("partner-1")]
        assert logged == [("GET", HOST, "/offers", 200)]

        bad = {"email": "jo.example.test"}
        assert await refused(site, "/submit/partner-signup", bad) == ["Email address is not valid."]
        good = {"email": "jo.reyes@example.test"}
        await accepted(site, "/submit/partner-signup", good, location="/submitted/partner-signup/1")
        page = await site.get("/offers")
        assert _signups(page.text) == "1 sign-up(s) to the offers newsletter."

    async with attempt(server, tmp_path, "partner-2", "partner", clock=CLOCK) as site:
        page = await site.get("/offers")
        assert _signups(page.text) == "0 sign-up(s) to the offers newsletter."
