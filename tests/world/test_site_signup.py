"""signup.proctor.test on a real server: the rules behind the disabled button hold server-side."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import signup

HOST = "signup.proctor.test"
VALID = {
    "full_name": "Tomas Reyes",
    "email": "tomas.reyes@example.test",
    "password": "Harbor-Lantern-58",
    "password_confirm": "Harbor-Lantern-58",
    "terms": "accepted",
}


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([signup.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["signup"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(html: str) -> list[str]:
    return re.findall(r"<li>([^<]+)</li>", html)


async def test_signup_rejects_what_the_button_guards_then_welcomes(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "signup-1")
        try:
            page = await client.get("/join", headers=headers)
            assert page.status_code == 200
            assert re.search(r'<button type="submit" id="create" disabled>', page.text)

            no_terms = {k: v for k, v in VALID.items() if k != "terms"}
            bad = await client.post("/submit/signup", data=no_terms, headers=headers)
            assert bad.status_code == 422
            assert _messages(bad.text) == ["You must accept the Terms of Service."]
            mismatch = {**VALID, "password_confirm": "Harbour-Lantern-58"}
            bad = await client.post("/submit/signup", data=mismatch, headers=headers)
            assert bad.status_code == 422
            assert _messages(bad.text) == ["Passwords do not match."]
            short = {**VALID, "password": "short", "password_confirm": "short"}
            bad = await client.post("/submit/signup", data=short, headers=headers)
            assert bad.status_code == 422
            assert _messages(bad.text) == ["Password must be at least 10 characters."]

            made = await client.post("/submit/signup", data=VALID, headers=headers)
            assert made.status_code == 303
            assert made.headers["location"] == "/submitted/signup/1"
            welcome = await client.get(made.headers["location"], headers=headers)
            assert welcome.status_code == 200
            assert "<h1>Welcome to Brightloom, Tomas Reyes</h1>" in welcome.text
            assert "Account #1 was created for tomas.reyes@example.test." in welcome.text
            assert VALID["password"] not in welcome.text
        finally:
            server.end("signup-1")

        headers = _begin(server, tmp_path, "signup-2")
        try:
            gone = await client.get("/submitted/signup/1", headers=headers)
            assert gone.status_code == 404
            assert "No such account." in gone.text
        finally:
            server.end("signup-2")
