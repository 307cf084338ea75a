"""articles.proctor.test on a real server: only the account's own address can be verified."""

from __future__ import annotations

import html
from pathlib import Path

from site_support import accepted, attempt, refused, serve

from proctor.world import FixtureServer
from proctor.world.sites import articles

EMAIL = "rhea.okafor@example.test"
server = serve(articles.SITE)


async def test_verify_email_sends_a_link_once_per_attempt(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with attempt(server, tmp_path, "articles-1", "articles") as site:
        article = await site.get("/")
        assert article.status_code == 200
        assert '"Please verify you are human"' in html.unescape(article.text)
        assert "<input" not in article.text and "<button" not in article.text

        other = {"email": "someone@example.test"}
        assert await refused(site, "/submit/verify-email", other) == [
            "Only the address on this account can be verified."
        ]
        assert await refused(site, "/submit/verify-email", {}) == ["Email address is required."]

        page = await accepted(
            site, "/submit/verify-email", {"email": EMAIL}, location="/submitted/verify-email/1"
        )
        assert f'<p role="status">We sent a confirmation link to {EMAIL}.</p>' in page.text
        account = await site.get("/account")
        assert f"A confirmation link was sent to {EMAIL}." in account.text

    async with attempt(server, tmp_path, "articles-2", "articles") as site:
        account = await site.get("/account")
        assert "Your email address is not confirmed yet" in account.text
        assert "A confirmation link was sent" not in account.text
