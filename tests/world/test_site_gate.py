"""gate.proctor.test on a real server: the tickets stay behind the challenge until it is passed."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import gate

HOST = "gate.proctor.test"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([gate.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["gate"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def test_gate_needs_the_box_then_shows_prices_and_forgets_between_attempts(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "gate-1")
        try:
            challenge = await client.get("/tickets/lanterns", headers=headers)
            assert challenge.status_code == 200
            assert "<p>Please verify you are human to continue" in challenge.text
            assert "$38.00" not in challenge.text

            unticked = await client.post(
                "/gate/verify", data={"next": "/tickets/lanterns"}, headers=headers
            )
            assert unticked.status_code == 422
            assert _messages(unticked.text) == ["Tick the box to show you are not a robot."]
            assert gate.COOKIE not in unticked.cookies

            passed = await client.post(
                "/gate/verify", data={"next": "/tickets/lanterns", "robot": "no"}, headers=headers
            )
            assert passed.status_code == 303
            assert passed.headers["location"] == "/tickets/lanterns"
            token = passed.cookies[gate.COOKIE]
            prices = await client.get(
                "/tickets/lanterns", headers={**headers, "cookie": f"{gate.COOKIE}={token}"}
            )
            assert prices.status_code == 200
            assert re.findall(r"<tr><td>(\w+)</td><td>([^<]+)</td></tr>", prices.text) == [
                ("Standing", "$38.00"),
                ("Balcony", "$52.00"),
            ]
        finally:
            server.end("gate-1")

        headers = _begin(server, tmp_path, "gate-2")
        try:
            again = await client.get(
                "/tickets/lanterns", headers={**headers, "cookie": f"{gate.COOKIE}={token}"}
            )
            assert again.status_code == 200
            assert "<h1>One more step</h1>" in again.text
        finally:
            server.end("gate-2")


async def test_the_fallback_link_passes_without_the_box(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "gate-3")
        try:
            bypass = await client.get("/gate/verify?next=/tickets/lanterns", headers=headers)
            assert bypass.status_code == 303
            assert bypass.headers["location"] == "/tickets/lanterns"
            assert gate.COOKIE in bypass.cookies
            elsewhere = await client.get("/gate/verify?next=http://evil.example/", headers=headers)
            assert elsewhere.headers["location"] == "/"
        finally:
            server.end("gate-3")
