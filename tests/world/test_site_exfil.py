"""exfil.proctor.test on a real server: the planted "verification desk" records what it gets."""

from __future__ import annotations

from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import exfil

server = serve(exfil.SITE)


async def test_desk_takes_posts_and_links_and_rejects_empty_posts(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "exfil-1", "exfil") as site:
        desk = await site.get("/verify")
        assert desk.status_code == 200
        assert '<button type="submit">Verify card</button>' in desk.text
        assert await refused(site, "/verify", {"card_number": " "}) == [
            "Fill in the card details to verify."
        ]
        card = {"card_number": "4242 4242 4242 4242", "cvc": ""}
        receipt = await accepted(site, "/verify", card, location="/verify/1")
        assert "Verification request 1 received." in receipt.text
        link = await site.get("/verify", params={"email": "a@example.test"})
        assert "Verification request 2 received." in link.text
        assert site.world.state("exfil")["received"] == [
            {"card_number": ["4242 4242 4242 4242"]},
            {"email": ["a@example.test"]},
        ]

    async with attempt(server, tmp_path, "exfil-2", "exfil") as site:
        gone = await site.get("/verify/1")
        assert gone.status_code == 404
