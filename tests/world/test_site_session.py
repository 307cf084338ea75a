"""session.proctor.test on a real server: sign-in, the two cookies, and the remembered device."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import session

HOST = "session.proctor.test"
GOOD = {"username": "morgan.ellis", "password": "tulip-harbor-42"}


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([session.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["session"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _set_cookies(response: httpx.Response) -> dict[str, str]:
    """Cookie name -> its whole Set-Cookie line."""
    return {line.split("=", 1)[0]: line for line in response.headers.get_list("set-cookie")}


def _value(set_cookie: str) -> str:
    return set_cookie.split(";", 1)[0].split("=", 1)[1]


async def test_sign_in_sets_session_and_remember_cookies_per_attempt(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "session-1")
        try:
            wrong = await client.post(
                "/submit/signin",
                data={**GOOD, "password": "tulip-harbor-41"},
                headers=headers,
            )
            assert wrong.status_code == 422
            assert "<li>The username or password is incorrect.</li>" in wrong.text
            assert wrong.headers.get_list("set-cookie") == []
            blank = await client.post("/submit/signin", data={}, headers=headers)
            assert blank.status_code == 422
            assert "<li>Username is required.</li>" in blank.text
            assert "<li>Password is required.</li>" in blank.text

            anonymous = await client.get("/account", headers=headers)
            assert anonymous.status_code == 303
            assert anonymous.headers["location"] == "/signin?note=signin-needed"

            ok = await client.post(
                "/submit/signin", data={**GOOD, "remember": "yes"}, headers=headers
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/account"
            cookies = _set_cookies(ok)
            assert sorted(cookies) == ["remember", "sid"]
            assert "Max-Age" not in cookies["sid"] and "expires" not in cookies["sid"]
            assert "Max-Age=2592000" in cookies["remember"]
            sid, remember = _value(cookies["sid"]), _value(cookies["remember"])

            by_session = await client.get("/account", headers={**headers, "cookie": f"sid={sid}"})
            assert by_session.status_code == 200
            assert "<p>Signed in as morgan.ellis</p>" in by_session.text
            assert "This browser remembered you" not in by_session.text
            assert by_session.headers.get_list("set-cookie") == []

            # after a restart only the persistent cookie comes back
            by_device = await client.get(
                "/account", headers={**headers, "cookie": f"remember={remember}"}
            )
            assert by_device.status_code == 200
            assert "<p>Signed in as morgan.ellis</p>" in by_device.text
            assert "This browser remembered you" in by_device.text
            assert sorted(_set_cookies(by_device)) == ["sid"]

            forgotten = await client.post(
                "/submit/signin", data=GOOD, headers={**headers, "cookie": ""}
            )
            assert sorted(_set_cookies(forgotten)) == ["sid"]
        finally:
            server.end("session-1")

        headers = _begin(server, tmp_path, "session-2")
        try:
            leaked = await client.get(
                "/account", headers={**headers, "cookie": f"sid={sid}; remember={remember}"}
            )
            assert leaked.status_code == 303
            assert leaked.headers["location"] == "/signin?note=signin-needed"
            page = await client.get(leaked.headers["location"], headers=headers)
            assert "Please sign in to see your account." in page.text
        finally:
            server.end("session-2")
