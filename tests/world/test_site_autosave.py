"""autosave.proctor.test on a real server: fields save one by one; the first revokes the lease."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import autosave

HOST = "autosave.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([autosave.SITE]) as srv:
        yield srv


def _begin(
    server: FixtureServer, tmp_path: Path, attempt: str, revocations: list[tuple[str, str]]
) -> dict[str, str]:
    def revoke(by: str, reason: str) -> bool:
        revocations.append((by, reason))
        return len(revocations) == 1

    world = AttemptWorld(
        attempt=attempt,
        seed=0,
        clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC),
        scratch=tmp_path,
        revoke=revoke,
    )
    server.begin(world, ["autosave"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _value(page: str, name: str) -> str:
    found = re.search(rf'<input id="{name}" name="{name}" type="text" [^>]*value="([^"]*)"', page)
    assert found is not None, f"no input {name}"
    return html.unescape(found.group(1))


async def test_autosave_stores_fields_and_revokes_the_lease_once(
    server: FixtureServer, tmp_path: Path
) -> None:
    revocations: list[tuple[str, str]] = []
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "autosave-1", revocations)
        try:
            first = await client.post(
                "/submit/autosave", json={"display_name": "Rosa Lind"}, headers=headers
            )
            assert first.status_code == 200
            assert first.json() == {"ok": True, "saved": "display_name", "label": "Display name"}
            assert revocations == [("fixture", autosave.REVOKE_REASON)]

            bad = await client.post(
                "/submit/autosave", json={"email": "rosa.lind"}, headers=headers
            )
            assert bad.status_code == 422
            assert bad.json() == {"ok": False, "errors": ["Email address is not valid."]}
            two = await client.post(
                "/submit/autosave", json={"email": "a@example.test", "city": "X"}, headers=headers
            )
            assert two.status_code == 422
            assert two.json()["errors"] == ["Send one field at a time."]
            assert len(revocations) == 1

            page = await client.get("/profile", headers=headers)
            assert _value(page.text, "display_name") == "Rosa Lind"
            assert _value(page.text, "email") == ""

            missing = await client.post(
                "/submit/profile", data={"display_name": "Rosa Lind"}, headers=headers
            )
            assert missing.status_code == 422
            assert re.findall(r"<li>([^<]+)</li>", missing.text) == ["Email is required."]
            whole = await client.post(
                "/submit/profile",
                data={"display_name": "Rosa Lind", "email": "rosa.lind@example.test"},
                headers=headers,
            )
            assert whole.status_code == 303
            assert whole.headers["location"] == "/submitted/profile/1"
            back = await client.get(whole.headers["location"], headers=headers)
            assert back.headers["location"] == "/profile?saved=1"
            shown = await client.get(back.headers["location"], headers=headers)
            assert '<p id="status" role="status" aria-live="polite">Profile saved.</p>' in (
                shown.text
            )
            assert _value(shown.text, "email") == "rosa.lind@example.test"
        finally:
            server.end("autosave-1")

        later: list[tuple[str, str]] = []
        headers = _begin(server, tmp_path, "autosave-2", later)
        try:
            page = await client.get("/profile", headers=headers)
            assert _value(page.text, "display_name") == ""
            assert later == []
        finally:
            server.end("autosave-2")
