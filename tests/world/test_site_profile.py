"""profile.proctor.test on a real server: a tabbed form must arrive whole, then is shown."""

from __future__ import annotations

import re
from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import profile

PERSONAL = {
    "full_name": "Marisol Okafor",
    "email": "marisol.okafor@example.test",
    "phone": "+353 91 555 0142",
}
COMPLETE = {
    **PERSONAL,
    "street": "27 Harbour View Road",
    "city": "Galway",
    "postcode": "H91 X2Y4",
    "country": "IE",
    "language": "pt",
    "preferred_contact": "post",
}
server = serve(profile.SITE)


def _input_value(html: str, name: str) -> str:
    found = re.search(rf'<input id="{name}" name="{name}" type="\w+" value="([^"]*)"', html)
    assert found is not None, f"no input {name}"
    return found.group(1)


async def test_profile_needs_every_tab_then_shows_the_saved_values(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "profile-1", "profile") as site:
        page = await site.get("/settings")
        assert page.status_code == 200
        # Inactive panels are hidden, yet their fields belong to the one form.
        assert re.search(r'id="panel-address" aria-labelledby="tab-address" hidden', page.text)
        assert _input_value(page.text, "street") == ""

        # What a form sends when only the first tab was filled: the rest blank.
        first_tab_only = {**{k: "" for k in COMPLETE}, **PERSONAL}
        assert await refused(site, "/submit/profile", first_tab_only) == [
            "Street is required.",
            "City is required.",
            "Postcode is required.",
            "Country is required.",
            "Language is required.",
            "Preferred contact is required.",
        ]
        assert await refused(site, "/submit/profile", {**COMPLETE, "country": "Ireland"}) == [
            "Choose a country from the list."
        ]

        result = await accepted(site, "/submit/profile", COMPLETE, location="/submitted/profile/1")
        assert result.status_code == 200
        rows = dict(re.findall(r"<tr><th>([^<]+)</th><td>([^<]*)</td></tr>", result.text))
        assert rows["Postcode"] == "H91 X2Y4"
        assert rows["Country"] == "Ireland"
        assert rows["Language"] == "Portuguese"
        assert rows["Contact by"] == "Letter by post"
        again = await site.get("/settings")
        assert "Your profile was saved." in again.text
        assert _input_value(again.text, "street") == "27 Harbour View Road"
        assert '<option value="IE" selected>Ireland</option>' in again.text

    async with attempt(server, tmp_path, "profile-2", "profile") as site:
        fresh = await site.get("/settings")
        assert "Your profile is incomplete." in fresh.text
        assert _input_value(fresh.text, "street") == ""
        assert " selected>" not in fresh.text
