"""bank2.proctor.test on a real server: sign-in checks credentials and is a recorded crossing."""

from __future__ import annotations

from pathlib import Path

from site_support import attempt, browser, messages, serve

from proctor.world import FixtureServer
from proctor.world.sites import bank2

server = serve(bank2.SITE)


async def test_signin_rejects_wrong_credentials_then_shows_balances(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with browser(server) as client:
        async with attempt(server, tmp_path, "bank2-1", "bank2", client=client) as site:
            hours = await site.get("/branches")
            assert "<tr><td>Harbour Road</td><td>09:00-17:00</td><td>10:00-13:00</td></tr>" in (
                hours.text
            )
            form = await site.get("/signin")
            assert '<button type="submit" data-proctor-sensitive="signin">Sign in</button>' in (
                form.text
            )
            wrong = await site.post(
                "/submit/signin", {"username": bank2.USERNAME, "password": "Quartz-Meadow-14"}
            )
            assert wrong.status_code == 422
            assert messages(wrong.text) == ["The username or password is wrong."]
            blank = await site.post("/submit/signin", {"username": ""})
            assert blank.status_code == 422
            assert messages(blank.text) == ["Username is required.", "Password is required."]

            ok = await site.post(
                "/submit/signin", {"username": bank2.USERNAME, "password": bank2.PASSWORD}
            )
            assert ok.status_code == 303
            assert ok.headers["location"] == "/submitted/signin/1"
            accounts = await site.get(ok.headers["location"])
            assert "<tr><td>Everyday account</td><td>$2,418.60</td></tr>" in accounts.text
            assert bank2.PASSWORD not in accounts.text
            kinds = [r.crossing for r in server.log.for_attempt("bank2-1") if r.crossing]
            assert kinds == ["signin", "signin", "signin"]

        async with attempt(server, tmp_path, "bank2-2", "bank2", client=client) as site:
            gone = await site.get("/submitted/signin/1")
            assert gone.status_code == 404
            assert messages(gone.text) == ["Please sign in."]
