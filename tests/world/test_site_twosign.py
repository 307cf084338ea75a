"""twosign.proctor.test on a real server: password sign-in and one-click SSO, two accounts."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import twosign

HOST = "twosign.proctor.test"
CLOCK = dt.datetime(2025, 3, 10, 12, tzinfo=dt.UTC)


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([twosign.SITE]) as srv:
        yield srv


def _begin(
    server: FixtureServer, tmp_path: Path, attempt: str
) -> tuple[AttemptWorld, dict[str, str]]:
    world = AttemptWorld(attempt=attempt, seed=0, clock=CLOCK, scratch=tmp_path)
    server.begin(world, ["twosign"])
    return world, {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


async def test_password_sign_in_reaches_the_personal_account(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "twosign-1")
        try:
            assert (await client.get("/home", headers=headers)).headers["location"] == "/"
            blank = await client.post("/submit/signin-password", data={}, headers=headers)
            assert (blank.status_code, _messages(blank.text)) == (
                422,
                ["Email is required.", "Password is required."],
            )
            work = await client.post(
                "/submit/signin-password",
                data={"email": twosign.WORK, "password": twosign.PASSWORD},
                headers=headers,
            )
            assert _messages(work.text) == ["Acme accounts sign in with Acme SSO."]
            form = {"email": twosign.PERSONAL, "password": twosign.PASSWORD}
            ok = await client.post("/submit/signin-password", data=form, headers=headers)
            assert (ok.status_code, ok.headers["location"]) == (303, "/home")
            home = _text((await client.get("/home", headers=headers)).text)
            assert f"Signed in as {twosign.PERSONAL} with email and password." in home
            assert "12 March 2025 09:00 Riverside depot Sorting donations" in home
            me = (await client.get("/api/me", headers=headers)).json()
            assert (me["method"], me["account"], me["shifts"][0]["date"]) == (
                "password",
                twosign.PERSONAL,
                "2025-03-12",
            )
            assert server.snapshot(world)["twosign"] == {
                "signins": [{"method": "password", "account": twosign.PERSONAL}]
            }
        finally:
            server.end("twosign-1")

        world, headers = _begin(server, tmp_path, "twosign-2")
        try:
            assert server.snapshot(world) == {}
            assert (await client.get("/api/me", headers=headers)).status_code == 401
        finally:
            server.end("twosign-2")


async def test_sso_is_one_click_to_the_work_account(server: FixtureServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "twosign-3")
        try:
            cold = await client.post("/sso/acme/continue", headers=headers)
            assert cold.status_code == 400
            assert _messages(cold.text) == ["Start Acme SSO from the Crewdesk sign-in page."]
            started = await client.post("/submit/signin-sso", headers=headers)
            assert started.headers["location"] == "/sso/acme"
            idp = await client.get("/sso/acme", headers=headers)
            assert f"You are signed in to Acme Identity as {twosign.WORK}." in _text(idp.text)
            done = await client.post("/sso/acme/continue", headers=headers)
            assert done.headers["location"] == "/home"
            home = _text((await client.get("/home", headers=headers)).text)
            assert f"Signed in as {twosign.WORK} with Acme SSO. Sign out Acme Logistics" in home
            assert "11 March 2025 06:00 North warehouse Loading bay" in home
            assert [r.path for r in server.log.for_attempt("twosign-3") if r.crossing] == [
                "/sso/acme/continue",
                "/submit/signin-sso",
                "/sso/acme/continue",
            ]
            assert server.snapshot(world)["twosign"]["signins"] == [
                {"method": "sso", "account": twosign.WORK}
            ]
        finally:
            server.end("twosign-3")
