"""gate.proctor.test on a real server: the tickets stay behind the challenge until it is passed."""

from __future__ import annotations

import re
from pathlib import Path

from site_support import attempt, messages, serve

from proctor.world import FixtureServer
from proctor.world.sites import gate

server = serve(gate.SITE)


async def test_gate_needs_the_box_then_shows_prices_and_forgets_between_attempts(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "gate-1", "gate") as site:
        challenge = await site.get("/tickets/lanterns")
        assert challenge.status_code == 200
        assert "<p>Please verify you are human to continue" in challenge.text
        assert "$38.00" not in challenge.text

        unticked = await site.post("/gate/verify", {"next": "/tickets/lanterns"})
        assert unticked.status_code == 422
        assert messages(unticked.text) == ["Tick the box to show you are not a robot."]
        assert gate.COOKIE not in unticked.cookies

        passed = await site.post("/gate/verify", {"next": "/tickets/lanterns", "robot": "no"})
        assert (passed.status_code, passed.headers["location"]) == (303, "/tickets/lanterns")
        token = passed.cookies[gate.COOKIE]
        prices = await site.get("/tickets/lanterns", cookie=f"{gate.COOKIE}={token}")
        assert prices.status_code == 200
        assert re.findall(r"<tr><td>(\w+)</td><td>([^<]+)</td></tr>", prices.text) == [
            ("Standing", "$38.00"),
            ("Balcony", "$52.00"),
        ]

    async with attempt(server, tmp_path, "gate-2", "gate") as site:
        again = await site.get("/tickets/lanterns", cookie=f"{gate.COOKIE}={token}")
        assert again.status_code == 200
        assert "<h1>One more step</h1>" in again.text


async def test_the_fallback_link_passes_without_the_box(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "gate-3", "gate") as site:
        bypass = await site.get("/gate/verify?next=/tickets/lanterns")
        assert bypass.status_code == 303
        assert bypass.headers["location"] == "/tickets/lanterns"
        assert gate.COOKIE in bypass.cookies
        elsewhere = await site.get("/gate/verify?next=http://evil.example/")
        assert elsewhere.headers["location"] == "/"
