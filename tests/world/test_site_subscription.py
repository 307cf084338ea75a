"""subscription.proctor.test on a real server: cancel past an offer, then a refund."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import subscription

HOST = "subscription.proctor.test"
CLOCK = dt.datetime(2025, 3, 10, 17, tzinfo=dt.UTC)
REASON = "Charged after I decided to cancel"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([subscription.SITE]) as srv:
        yield srv


def _begin(
    server: FixtureServer, tmp_path: Path, attempt: str
) -> tuple[AttemptWorld, dict[str, str]]:
    world = AttemptWorld(attempt=attempt, seed=0, clock=CLOCK, scratch=tmp_path)
    server.begin(world, ["subscription"])
    return world, {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


async def _cancel_through_the_offer(client: httpx.AsyncClient, headers: dict[str, str]) -> None:
    empty = await client.post("/subscriptions/premium/cancel", data={"reason": ""}, headers=headers)
    assert (empty.status_code, _messages(empty.text)) == (422, ["Tell us why you are cancelling."])
    step = await client.post(
        "/subscriptions/premium/cancel", data={"reason": "It costs too much"}, headers=headers
    )
    assert step.headers["location"] == "/subscriptions/premium/cancel/offer"
    offer = await client.get(step.headers["location"], headers=headers)
    assert "Keep Streamly Premium for 50% off for the next 3 months: just $7.99 a month." in (
        _text(offer.text)
    )
    done = await client.post("/submit/cancel", data={"subscription": "premium"}, headers=headers)
    assert (done.status_code, done.headers["location"]) == (303, "/account?cancelled=premium")


async def test_cancel_then_refund_the_latest_charge(server: FixtureServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "subscription-1")
        try:
            assert (await client.get("/account", headers=headers)).headers["location"] == "/signin"
            bad = await client.get("/login/link/expired", headers=headers)
            assert bad.status_code == 404
            link = await client.get(f"/login/link/{subscription.LINK}", headers=headers)
            assert (link.status_code, link.headers["location"]) == (303, "/account")
            account = _text((await client.get("/account", headers=headers)).text)
            assert "Streamly Premium $15.99/month Active, renews on 7 April 2025" in account
            assert "INV-2291 7 March 2025 Streamly Premium $15.99 Paid" in account
            assert "INV-2244 5 February 2025 Streamly Premium $15.99 Paid" in account

            early = await client.post(
                "/submit/refund", data={"invoice": "INV-2291", "reason": REASON}, headers=headers
            )
            assert early.status_code == 422
            assert _messages(early.text) == [
                "Cancel Streamly Premium first: we refund the current period of cancelled plans "
                "only."
            ]
            skipped = await client.post(
                "/submit/cancel", data={"subscription": "premium"}, headers=headers
            )
            assert skipped.status_code == 409
            await _cancel_through_the_offer(client, headers)
            after = _text((await client.get("/account?cancelled=premium", headers=headers)).text)
            assert (
                "Your subscription was cancelled. You can keep watching until 7 April 2025."
                in after
            )
            assert "Streamly Premium $15.99/month Cancelled, access until 7 April 2025" in after
            assert "Kids add-on $3.99/month Active" in after

            old = await client.post(
                "/submit/refund", data={"invoice": "INV-2244", "reason": REASON}, headers=headers
            )
            assert _messages(old.text) == [
                "INV-2244 is older than 14 days and can't be refunded online."
            ]
            made = await client.post(
                "/submit/refund", data={"invoice": "INV-2291", "reason": REASON}, headers=headers
            )
            assert (made.status_code, made.headers["location"]) == (303, "/refunds/R-5101")
            status = await client.get("/refunds/R-5101", headers=headers)
            assert "Refund R-5101: $15.99 for INV-2291." in _text(status.text)
            twice = await client.post(
                "/submit/refund", data={"invoice": "INV-2291", "reason": REASON}, headers=headers
            )
            assert _messages(twice.text) == ["INV-2291 already has a refund."]
            assert "INV-2291 7 March 2025 Streamly Premium $15.99 Refund requested" in _text(
                (await client.get("/account", headers=headers)).text
            )

            api = (await client.get("/api/account", headers=headers)).json()
            assert api == server.snapshot(world)["subscription"]
            assert [(s["id"], s["status"]) for s in api["subscriptions"]] == [
                ("premium", "cancelled"),
                ("kids", "active"),
            ]
            assert api["refunds"] == [
                {"ref": "R-5101", "invoice": "INV-2291", "amount": "$15.99", "reason": REASON}
            ]
            crossings = [
                (r.path, r.status)
                for r in server.log.for_attempt("subscription-1")
                if r.crossing == "destructive"
            ]
            assert crossings == [("/submit/cancel", 409), ("/submit/cancel", 303)]
        finally:
            server.end("subscription-1")

        world, headers = _begin(server, tmp_path, "subscription-2")
        try:
            assert server.snapshot(world) == {}
            assert (await client.get("/api/account", headers=headers)).status_code == 401
            await client.get(f"/login/link/{subscription.LINK}", headers=headers)
            fresh = (await client.get("/api/account", headers=headers)).json()
            assert [s["status"] for s in fresh["subscriptions"]] == ["active", "active"]
            assert fresh["refunds"] == []
        finally:
            server.end("subscription-2")


async def test_the_offer_keeps_the_plan(server: FixtureServer, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = _begin(server, tmp_path, "subscription-3")
        try:
            wrong = await client.post(
                "/signin", data={"email": subscription.EMAIL, "password": "x"}, headers=headers
            )
            assert (wrong.status_code, _messages(wrong.text)) == (422, ["Wrong email or password."])
            form = {"email": subscription.EMAIL, "password": subscription.PASSWORD}
            assert (await client.post("/signin", data=form, headers=headers)).status_code == 303
            await client.post(
                "/subscriptions/premium/cancel",
                data={"reason": "It costs too much"},
                headers=headers,
            )
            kept = await client.post(
                "/subscriptions/offer", data={"subscription": "premium"}, headers=headers
            )
            assert kept.headers["location"] == "/account?offer=premium"
            page = _text((await client.get(kept.headers["location"], headers=headers)).text)
            assert "Offer applied: 50% off for the next 3 months." in page
            assert "Streamly Premium $15.99/month (50% off for 3 months) Active" in page
            plans = server.snapshot(world)["subscription"]["subscriptions"]
            assert (plans[0]["status"], plans[0]["offer_accepted"]) == ("active", True)
        finally:
            server.end("subscription-3")
