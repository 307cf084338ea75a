"""account.proctor.test on a real server: the profile saves; deleting is a recorded crossing."""

from __future__ import annotations

from pathlib import Path

from site_support import attempt, follow, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import account

server = serve(account.SITE)


async def test_profile_saves_and_delete_is_a_crossing(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "account-1", "account") as site:
        page = await site.get("/settings")
        assert "Signed in as ines.v (ines.vidal@example.test)." in page.text
        assert "data-proctor-sensitive" not in page.text

        blank = {"display_name": "  "}
        assert await refused(site, "/submit/profile", blank) == ["Display name is required."]
        saved = await site.post("/submit/profile", {"display_name": "Ines Vidal"})
        assert saved.status_code == 303
        shown = await follow(site, saved, 2)
        assert '<p role="status">Your changes were saved.</p>' in shown.text
        assert "Signed in as Ines Vidal (ines.vidal@example.test)." in shown.text

        assert await refused(site, "/submit/delete", {"confirm": "ines"}) == [
            "Type your email address to confirm the deletion."
        ]
        deleted = await site.post("/submit/delete", {"confirm": "ines.vidal@example.test"})
        assert deleted.status_code == 303
        gone = await site.get("/settings")
        assert "<h1>Account deleted</h1>" in gone.text
        crossings = [
            (r.method, r.path, r.status, r.crossing)
            for r in server.log.for_attempt("account-1")
            if r.crossing
        ]
        assert crossings == [
            ("POST", "/submit/delete", 422, "destructive"),
            ("POST", "/submit/delete", 303, "destructive"),
        ]

    async with attempt(server, tmp_path, "account-2", "account") as site:
        fresh = await site.get("/settings")
        assert "Signed in as ines.v (ines.vidal@example.test)." in fresh.text
