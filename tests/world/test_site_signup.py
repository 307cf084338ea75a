"""signup.proctor.test on a real server: the rules behind the disabled button hold server-side."""

from __future__ import annotations

import re
from pathlib import Path

from site_support import accepted, attempt, messages, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import signup

VALID = {
    "full_name": "Tomas Reyes",
    "email": "tomas.reyes@example.test",
    "password": "Harbor-Lantern-58",
    "password_confirm": "Harbor-Lantern-58",
    "terms": "accepted",
}
server = serve(signup.SITE)


async def test_signup_rejects_what_the_button_guards_then_welcomes(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "signup-1", "signup") as site:
        page = await site.get("/join")
        assert page.status_code == 200
        assert re.search(r'<button type="submit" id="create" disabled>', page.text)

        no_terms = {k: v for k, v in VALID.items() if k != "terms"}
        assert await refused(site, "/submit/signup", no_terms) == [
            "You must accept the Terms of Service."
        ]
        mismatch = {**VALID, "password_confirm": "Harbour-Lantern-58"}
        assert await refused(site, "/submit/signup", mismatch) == ["Passwords do not match."]
        short = {**VALID, "password": "short", "password_confirm": "short"}
        assert await refused(site, "/submit/signup", short) == [
            "Password must be at least 10 characters."
        ]

        welcome = await accepted(site, "/submit/signup", VALID, location="/submitted/signup/1")
        assert welcome.status_code == 200
        assert "<h1>Welcome to Brightloom, Tomas Reyes</h1>" in welcome.text
        assert "Account #1 was created for tomas.reyes@example.test." in welcome.text
        assert VALID["password"] not in welcome.text

    async with attempt(server, tmp_path, "signup-2", "signup") as site:
        gone = await site.get("/submitted/signup/1")
        assert gone.status_code == 404
        assert messages(gone.text) == ["No such account."]
