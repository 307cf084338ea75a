"""newsletter.proctor.test on a real server: the subscription form and the promo's offer."""

from __future__ import annotations

from pathlib import Path

from site_support import accepted, attempt, messages, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import newsletter

server = serve(newsletter.SITE)


async def test_subscribe_validates_confirms_and_resets(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "news-1", "newsletter") as site:
        page = await site.get("/signup")
        assert page.status_code == 200
        assert "setTimeout(() => promo.classList.add('open'), 1000);" in page.text

        bad = {"email": "kai.moreno", "frequency": "daily"}
        assert await refused(site, "/submit/subscribe", bad) == [
            "Email address is not valid.",
            "Choose how often from the list.",
        ]
        offer = await site.post("/submit/calendar-offer", json={"offer": "yacht"})
        assert offer.status_code == 422
        assert offer.json() == {"ok": False, "errors": ["There is no such offer."]}

        ok = {"email": "kai.moreno@example.test", "frequency": "monthly"}
        shown = await accepted(site, "/submit/subscribe", ok, location="/submitted/subscribe/1")
        assert "Submission #1 (subscribe) was accepted." in shown.text
        assert "<td>email</td><td>kai.moreno@example.test</td>" in shown.text
        assert "<td>frequency</td><td>monthly</td>" in shown.text
        assert [s.route for s in site.world.submissions] == ["subscribe"]

    async with attempt(server, tmp_path, "news-2", "newsletter") as site:
        gone = await site.get("/submitted/subscribe/1")
        assert gone.status_code == 404
        assert messages(gone.text) == ["No such submission."]
        assert site.world.submissions == []
