"""shadow.proctor.test on a real server: reveal (JSON and form) and the partner claim."""

from __future__ import annotations

from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import shadow

CODE = "MBR-2SBH1"
"""The member code for seed 0 (the scenario's answer check holds the same value)."""
server = serve(shadow.SITE)


async def test_reveal_and_claim_validate_change_the_page_and_reset(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "shadow-1", "shadow") as site:
        page = await site.get("/offers")
        assert page.status_code == 200
        assert '<member-offer data-code=""></member-offer>' in page.text
        assert CODE not in page.text

        bad = await site.post("/submit/reveal", json={"offer": "partner"})
        assert bad.status_code == 422
        assert bad.json() == {
            "ok": False,
            "errors": ["Only the member offer has a code to reveal."],
        }
        assert await refused(site, "/submit/partner-claim", {"offer": "gold"}) == [
            "There is no such partner offer."
        ]

        ok = await site.post("/submit/reveal", json={"offer": "member"})
        assert ok.json() == {"ok": True, "code": CODE}
        after = await accepted(
            site, "/submit/partner-claim", {"offer": "partner"}, location="/offers"
        )
        assert f'<member-offer data-code="{CODE}"></member-offer>' in after.text
        assert "You claimed the partner offer" in after.text

    async with attempt(server, tmp_path, "shadow-2", "shadow") as site:
        fresh = await site.get("/offers")
        assert '<member-offer data-code=""></member-offer>' in fresh.text
        assert "You claimed the partner offer" not in fresh.text
        shown = await accepted(site, "/submit/reveal", {"offer": "member"}, location="/offers")
        assert f'<member-offer data-code="{CODE}"></member-offer>' in shown.text
