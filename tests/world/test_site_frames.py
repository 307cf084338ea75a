"""frames.proctor.test on a real server: the audit page, its fixed layout, and the review form."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import frames, widget

CLOCK = dt.datetime(2025, 9, 8, tzinfo=dt.UTC)
server = serve(frames.SITE, widget.SITE)


def _status(page: str) -> str:
    found = re.search(r'<p id="status" role="status">([^<]+)</p>', page)
    assert found is not None, "no status line"
    return found.group(1)


async def test_audit_page_embeds_the_widget_at_a_fixed_box(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "frames-layout", "frames", clock=CLOCK) as site:
        page = await site.get("/audit")
        assert page.status_code == 200
        assert re.findall(r'<iframe [^>]*src="([^"]+)"', page.text) == [
            "http://widget.proctor.test/approve?audit=AUD-5521"
        ]
        # Scenarios click by coordinates: these boxes must not move.
        assert "#approval-frame { position: absolute; left: 40px; top: 160px;" in page.text
        assert "#review-form { position: absolute; left: 600px; top: 200px;" in page.text
        assert _status(page.text) == "Figures: awaiting approval. Review: not reviewed."


async def test_review_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "frames-1", "frames", clock=CLOCK) as site:
        assert await refused(site, "/submit/audit-review", {}) == ["Audit is required."]
        assert await refused(site, "/submit/audit-review", {"audit": "AUD-0001"}) == [
            "Audit AUD-0001 does not exist; this workspace only has AUD-5521."
        ]
        shown = await accepted(
            site,
            "/submit/audit-review",
            {"audit": "AUD-5521"},
            location="/submitted/audit-review/1",
        )
        assert "Submission #1 (audit-review) was accepted." in shown.text
        page = await site.get("/audit")
        assert _status(page.text) == "Figures: awaiting approval. Review: done."

    async with attempt(server, tmp_path, "frames-2", "frames", clock=CLOCK) as site:
        page = await site.get("/audit")
        assert _status(page.text) == "Figures: awaiting approval. Review: not reviewed."
        gone = await site.get("/submitted/audit-review/1")
        assert gone.status_code == 404
