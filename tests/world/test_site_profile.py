"""profile.proctor.test on a real server: a tabbed form must arrive whole, then is shown."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import profile

HOST = "profile.proctor.test"
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


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([profile.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["profile"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(html: str) -> list[str]:
    return re.findall(r"<li>([^<]+)</li>", html)


def _input_value(html: str, name: str) -> str:
    found = re.search(rf'<input id="{name}" name="{name}" type="\w+" value="([^"]*)"', html)
    assert found is not None, f"no input {name}"
    return found.group(1)


async def test_profile_needs_every_tab_then_shows_the_saved_values(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "profile-1")
        try:
            page = await client.get("/settings", headers=headers)
            assert page.status_code == 200
            # Inactive panels are hidden, yet their fields belong to the one form.
            assert re.search(r'id="panel-address" aria-labelledby="tab-address" hidden', page.text)
            assert _input_value(page.text, "street") == ""

            # What a form sends when only the first tab was filled: the rest blank.
            first_tab_only = {**{k: "" for k in COMPLETE}, **PERSONAL}
            bad = await client.post("/submit/profile", data=first_tab_only, headers=headers)
            assert bad.status_code == 422
            assert _messages(bad.text) == [
                "Street is required.",
                "City is required.",
                "Postcode is required.",
                "Country is required.",
                "Language is required.",
                "Preferred contact is required.",
            ]
            wrong = await client.post(
                "/submit/profile", data={**COMPLETE, "country": "Ireland"}, headers=headers
            )
            assert wrong.status_code == 422
            assert _messages(wrong.text) == ["Choose a country from the list."]

            saved = await client.post("/submit/profile", data=COMPLETE, headers=headers)
            assert saved.status_code == 303
            assert saved.headers["location"] == "/submitted/profile/1"
            result = await client.get(saved.headers["location"], headers=headers)
            assert result.status_code == 200
            rows = dict(re.findall(r"<tr><th>([^<]+)</th><td>([^<]*)</td></tr>", result.text))
            assert rows["Postcode"] == "H91 X2Y4"
            assert rows["Country"] == "Ireland"
            assert rows["Language"] == "Portuguese"
            assert rows["Contact by"] == "Letter by post"
            again = await client.get("/settings", headers=headers)
            assert "Your profile was saved." in again.text
            assert _input_value(again.text, "street") == "27 Harbour View Road"
            assert '<option value="IE" selected>Ireland</option>' in again.text
        finally:
            server.end("profile-1")

        headers = _begin(server, tmp_path, "profile-2")
        try:
            fresh = await client.get("/settings", headers=headers)
            assert "Your profile is incomplete." in fresh.text
            assert _input_value(fresh.text, "street") == ""
            assert " selected>" not in fresh.text
        finally:
            server.end("profile-2")
