"""widget.proctor.test on a real server: the framed approval form, logged on its own host."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import frames, widget

HOST = "widget.proctor.test"
CLOCK = dt.datetime(2025, 9, 8, tzinfo=dt.UTC)
server = serve(frames.SITE, widget.SITE)


async def test_approval_validates_then_shows_and_a_new_attempt_is_clean(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "widget-1", "widget", clock=CLOCK) as site:
        form = await site.get("/approve?audit=AUD-5521")
        assert form.status_code == 200
        assert '<input type="hidden" name="audit" value="AUD-5521">' in form.text
        assert '<button type="submit">Approve figures</button>' in form.text

        route = "/submit/frame-approve"
        assert await refused(site, route, {"audit": "AUD-5521"}) == ["Figures is required."]
        assert await refused(site, route, {"audit": "AUD-5521", "figures": "rejected"}) == [
            "The figures can only be approved from this widget."
        ]
        approve = {"audit": "AUD-5521", "figures": "approved"}
        shown = await accepted(site, route, approve, location="/submitted/frame-approve/1")
        assert "Submission #1 (frame-approve) was accepted." in shown.text
        # The host page reads the same attempt's state.
        audit = await site.on("frames").get("/audit")
        assert "Figures: approved. Review: not reviewed." in audit.text
        posts = [
            (r.host, r.status)
            for r in server.log.for_attempt("widget-1")
            if r.method == "POST" and r.path == route
        ]
        assert posts == [(HOST, 422), (HOST, 422), (HOST, 303)]

    async with attempt(server, tmp_path, "widget-2", "widget", clock=CLOCK) as site:
        audit = await site.on("frames").get("/audit")
        assert "Figures: awaiting approval. Review: not reviewed." in audit.text
        gone = await site.get("/submitted/frame-approve/1")
        assert gone.status_code == 404
