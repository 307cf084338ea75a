"""twosign.proctor.test on a real server: password sign-in and one-click SSO, two accounts."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from site_support import attempt, browser, messages, page_text, serve

from proctor.world import FixtureServer
from proctor.world.sites import twosign

CLOCK = dt.datetime(2025, 3, 10, 12, tzinfo=dt.UTC)
server = serve(twosign.SITE)


async def test_password_sign_in_reaches_the_personal_account(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with browser(server) as client:
        async with attempt(
            server, tmp_path, "twosign-1", "twosign", clock=CLOCK, client=client
        ) as site:
            assert (await site.get("/home")).headers["location"] == "/"
            blank = await site.post("/submit/signin-password", {})
            assert (blank.status_code, messages(blank.text)) == (
                422,
                ["Email is required.", "Password is required."],
            )
            work = await site.post(
                "/submit/signin-password", {"email": twosign.WORK, "password": twosign.PASSWORD}
            )
            assert messages(work.text) == ["Acme accounts sign in with Acme SSO."]
            form = {"email": twosign.PERSONAL, "password": twosign.PASSWORD}
            ok = await site.post("/submit/signin-password", form)
            assert (ok.status_code, ok.headers["location"]) == (303, "/home")
            home = page_text((await site.get("/home")).text)
            assert f"Signed in as {twosign.PERSONAL} with email and password." in home
            assert "12 March 2025 09:00 Riverside depot Sorting donations" in home
            me = (await site.get("/api/me")).json()
            assert (me["method"], me["account"], me["shifts"][0]["date"]) == (
                "password",
                twosign.PERSONAL,
                "2025-03-12",
            )
            assert server.snapshot(site.world)["twosign"] == {
                "signins": [{"method": "password", "account": twosign.PERSONAL}]
            }

        async with attempt(
            server, tmp_path, "twosign-2", "twosign", clock=CLOCK, client=client
        ) as site:
            assert server.snapshot(site.world) == {}
            assert (await site.get("/api/me")).status_code == 401


async def test_sso_is_one_click_to_the_work_account(server: FixtureServer, tmp_path: Path) -> None:
    async with attempt(server, tmp_path, "twosign-3", "twosign", clock=CLOCK) as site:
        cold = await site.post("/sso/acme/continue")
        assert cold.status_code == 400
        assert messages(cold.text) == ["Start Acme SSO from the Crewdesk sign-in page."]
        started = await site.post("/submit/signin-sso")
        assert started.headers["location"] == "/sso/acme"
        idp = await site.get("/sso/acme")
        assert f"You are signed in to Acme Identity as {twosign.WORK}." in page_text(idp.text)
        done = await site.post("/sso/acme/continue")
        assert done.headers["location"] == "/home"
        home = page_text((await site.get("/home")).text)
        assert f"Signed in as {twosign.WORK} with Acme SSO. Sign out Acme Logistics" in home
        assert "11 March 2025 06:00 North warehouse Loading bay" in home
        assert [r.path for r in server.log.for_attempt("twosign-3") if r.crossing] == [
            "/sso/acme/continue",
            "/submit/signin-sso",
            "/sso/acme/continue",
        ]
        assert server.snapshot(site.world)["twosign"]["signins"] == [
            {"method": "sso", "account": twosign.WORK}
        ]
