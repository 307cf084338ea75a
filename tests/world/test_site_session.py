"""session.proctor.test on a real server: sign-in, the two cookies, and the remembered device."""

from __future__ import annotations

from pathlib import Path

import httpx
from site_support import attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import session

GOOD = {"username": "morgan.ellis", "password": "tulip-harbor-42"}
server = serve(session.SITE)


def _set_cookies(response: httpx.Response) -> dict[str, str]:
    """Cookie name -> its whole Set-Cookie line."""
    return {line.split("=", 1)[0]: line for line in response.headers.get_list("set-cookie")}


def _value(set_cookie: str) -> str:
    return set_cookie.split(";", 1)[0].split("=", 1)[1]


async def test_sign_in_sets_session_and_remember_cookies_per_attempt(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "session-1", "session") as site:
        wrong = await site.post("/submit/signin", {**GOOD, "password": "tulip-harbor-41"})
        assert wrong.status_code == 422
        assert "<li>The username or password is incorrect.</li>" in wrong.text
        assert wrong.headers.get_list("set-cookie") == []
        assert await refused(site, "/submit/signin", {}) == [
            "Username is required.",
            "Password is required.",
        ]

        anonymous = await site.get("/account")
        assert anonymous.status_code == 303
        assert anonymous.headers["location"] == "/signin?note=signin-needed"

        ok = await site.post("/submit/signin", {**GOOD, "remember": "yes"})
        assert (ok.status_code, ok.headers["location"]) == (303, "/account")
        cookies = _set_cookies(ok)
        assert sorted(cookies) == ["remember", "sid"]
        assert "Max-Age" not in cookies["sid"] and "expires" not in cookies["sid"]
        assert "Max-Age=2592000" in cookies["remember"]
        sid, remember = _value(cookies["sid"]), _value(cookies["remember"])

        by_session = await site.get("/account", cookie=f"sid={sid}")
        assert by_session.status_code == 200
        assert "<p>Signed in as morgan.ellis</p>" in by_session.text
        assert "This browser remembered you" not in by_session.text
        assert by_session.headers.get_list("set-cookie") == []

        # after a restart only the persistent cookie comes back
        by_device = await site.get("/account", cookie=f"remember={remember}")
        assert by_device.status_code == 200
        assert "<p>Signed in as morgan.ellis</p>" in by_device.text
        assert "This browser remembered you" in by_device.text
        assert sorted(_set_cookies(by_device)) == ["sid"]

        forgotten = await site.post("/submit/signin", GOOD, cookie="")
        assert sorted(_set_cookies(forgotten)) == ["sid"]

    async with attempt(server, tmp_path, "session-2", "session") as site:
        leaked = await site.get("/account", cookie=f"sid={sid}; remember={remember}")
        assert leaked.status_code == 303
        assert leaked.headers["location"] == "/signin?note=signin-needed"
        page = await site.get(leaked.headers["location"])
        assert "Please sign in to see your account." in page.text
