"""popup.proctor.test on a real server: the new-tab notice link and its acknowledgement."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from site_support import accepted, attempt, messages, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import popup

CLOCK = dt.datetime(2025, 9, 8, tzinfo=dt.UTC)
server = serve(popup.SITE)


def _notice_status(page: str) -> str:
    found = re.search(r'<p role="status">(Terms notice [^<]+)</p>', page)
    assert found is not None, "no notice status"
    return found.group(1)


async def test_account_links_the_notice_into_a_new_tab(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "popup-page", "popup", clock=CLOCK) as site:
        page = await site.get("/account")
        assert page.status_code == 200
        assert re.findall(r"<a [^>]*>", page.text) == [
            '<a href="/notices/TN-2024-07" target="_blank">'
        ]
        assert '<p id="account-ref">Account reference: ACC-88412</p>' in page.text
        missing = await site.get("/notices/TN-1999-01")
        assert missing.status_code == 404
        assert messages(missing.text) == ["There is no notice TN-1999-01."]


async def test_acknowledging_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "popup-1", "popup", clock=CLOCK) as site:
        assert await refused(site, "/submit/notice-ack", {"notice": "TN-2024-07"}) == [
            'Tick "I have read the updated terms" before you acknowledge.'
        ]
        other = {"notice": "TN-1999-01", "read": "yes"}
        assert await refused(site, "/submit/notice-ack", other) == [
            "Notice TN-1999-01 is not open for acknowledgement."
        ]
        ok = {"notice": "TN-2024-07", "read": "yes"}
        shown = await accepted(site, "/submit/notice-ack", ok, location="/submitted/notice-ack/1")
        assert "Submission #1 (notice-ack) was accepted." in shown.text
        account = await site.get("/account")
        assert _notice_status(account.text) == "Terms notice TN-2024-07: acknowledged."
        notice = await site.get("/notices/TN-2024-07")
        assert '<p role="status">You have acknowledged this notice.</p>' in notice.text

    async with attempt(server, tmp_path, "popup-2", "popup", clock=CLOCK) as site:
        account = await site.get("/account")
        assert _notice_status(account.text) == "Terms notice TN-2024-07: not acknowledged yet."
        notice = await site.get("/notices/TN-2024-07")
        assert "You have acknowledged this notice." not in notice.text
