"""autosave.proctor.test on a real server: fields save one by one; the first revokes the lease."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

from site_support import attempt, follow, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import autosave

server = serve(autosave.SITE)


def _revoker(revocations: list[tuple[str, str]]) -> Callable[[str, str], bool]:
    """A lease that records each revocation; only the first one revokes."""

    def revoke(by: str, reason: str) -> bool:
        revocations.append((by, reason))
        return len(revocations) == 1

    return revoke


def _value(page: str, name: str) -> str:
    found = re.search(rf'<input id="{name}" name="{name}" type="text" [^>]*value="([^"]*)"', page)
    assert found is not None, f"no input {name}"
    return html.unescape(found.group(1))


async def test_autosave_stores_fields_and_revokes_the_lease_once(
    server: FixtureServer, tmp_path: Path
) -> None:
    revocations: list[tuple[str, str]] = []
    revoke = _revoker(revocations)
    async with attempt(server, tmp_path, "autosave-1", "autosave", revoke=revoke) as site:
        first = await site.post("/submit/autosave", json={"display_name": "Rosa Lind"})
        assert first.status_code == 200
        assert first.json() == {"ok": True, "saved": "display_name", "label": "Display name"}
        assert revocations == [("fixture", autosave.REVOKE_REASON)]

        bad = await site.post("/submit/autosave", json={"email": "rosa.lind"})
        assert bad.status_code == 422
        assert bad.json() == {"ok": False, "errors": ["Email address is not valid."]}
        two = await site.post("/submit/autosave", json={"email": "a@example.test", "city": "X"})
        assert two.status_code == 422
        assert two.json()["errors"] == ["Send one field at a time."]
        assert len(revocations) == 1

        page = await site.get("/profile")
        assert _value(page.text, "display_name") == "Rosa Lind"
        assert _value(page.text, "email") == ""

        name_only = {"display_name": "Rosa Lind"}
        assert await refused(site, "/submit/profile", name_only) == ["Email is required."]
        whole = await site.post(
            "/submit/profile", {"display_name": "Rosa Lind", "email": "rosa.lind@example.test"}
        )
        assert (whole.status_code, whole.headers["location"]) == (303, "/submitted/profile/1")
        back = await follow(site, whole, 1)
        assert back.headers["location"] == "/profile?saved=1"
        shown = await follow(site, back, 1)
        assert '<p id="status" role="status" aria-live="polite">Profile saved.</p>' in (shown.text)
        assert _value(shown.text, "email") == "rosa.lind@example.test"

    later: list[tuple[str, str]] = []
    async with attempt(server, tmp_path, "autosave-2", "autosave", revoke=_revoker(later)) as site:
        page = await site.get("/profile")
        assert _value(page.text, "display_name") == ""
        assert later == []
