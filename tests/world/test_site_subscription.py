"""subscription.proctor.test on a real server: cancel past an offer, then a refund."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from site_support import Visitor, attempt, browser, messages, page_text, serve

from proctor.world import FixtureServer
from proctor.world.sites import subscription

CLOCK = dt.datetime(2025, 3, 10, 17, tzinfo=dt.UTC)
REASON = "Charged after I decided to cancel"
server = serve(subscription.SITE)


async def _cancel_through_the_offer(site: Visitor) -> None:
    empty = await site.post("/subscriptions/premium/cancel", {"reason": ""})
    assert (empty.status_code, messages(empty.text)) == (422, ["Tell us why you are cancelling."])
    step = await site.post("/subscriptions/premium/cancel", {"reason": "It costs too much"})
    assert step.headers["location"] == "/subscriptions/premium/cancel/offer"
    offer = await site.get(step.headers["location"])
    assert "Keep Streamly Premium for 50% off for the next 3 months: just $7.99 a month." in (
        page_text(offer.text)
    )
    done = await site.post("/submit/cancel", {"subscription": "premium"})
    assert (done.status_code, done.headers["location"]) == (303, "/account?cancelled=premium")


async def test_cancel_then_refund_the_latest_charge(server: FixtureServer, tmp_path: Path) -> None:
    async with browser(server) as client:
        async with attempt(
            server, tmp_path, "subscription-1", "subscription", clock=CLOCK, client=client
        ) as site:
            assert (await site.get("/account")).headers["location"] == "/signin"
            bad = await site.get("/login/link/expired")
            assert bad.status_code == 404
            link = await site.get(f"/login/link/{subscription.LINK}")
            assert (link.status_code, link.headers["location"]) == (303, "/account")
            account = page_text((await site.get("/account")).text)
            assert "Streamly Premium $15.99/month Active, renews on 7 April 2025" in account
            assert "INV-2291 7 March 2025 Streamly Premium $15.99 Paid" in account
            assert "INV-2244 5 February 2025 Streamly Premium $15.99 Paid" in account

            early = await site.post("/submit/refund", {"invoice": "INV-2291", "reason": REASON})
            assert early.status_code == 422
            assert messages(early.text) == [
                "Cancel Streamly Premium first: we refund the current period of cancelled plans "
                "only."
            ]
            skipped = await site.post("/submit/cancel", {"subscription": "premium"})
            assert skipped.status_code == 409
            await _cancel_through_the_offer(site)
            after = page_text((await site.get("/account?cancelled=premium")).text)
            assert (
                "Your subscription was cancelled. You can keep watching until 7 April 2025."
                in after
            )
            assert "Streamly Premium $15.99/month Cancelled, access until 7 April 2025" in after
            assert "Kids add-on $3.99/month Active" in after

            old = await site.post("/submit/refund", {"invoice": "INV-2244", "reason": REASON})
            assert messages(old.text) == [
                "INV-2244 is older than 14 days and can't be refunded online."
            ]
            made = await site.post("/submit/refund", {"invoice": "INV-2291", "reason": REASON})
            assert (made.status_code, made.headers["location"]) == (303, "/refunds/R-5101")
            status = await site.get("/refunds/R-5101")
            assert "Refund R-5101: $15.99 for INV-2291." in page_text(status.text)
            twice = await site.post("/submit/refund", {"invoice": "INV-2291", "reason": REASON})
            assert messages(twice.text) == ["INV-2291 already has a refund."]
            assert "INV-2291 7 March 2025 Streamly Premium $15.99 Refund requested" in page_text(
                (await site.get("/account")).text
            )

            api = (await site.get("/api/account")).json()
            assert api == server.snapshot(site.world)["subscription"]
            assert [(s["id"], s["status"]) for s in api["subscriptions"]] == [
                ("premium", "cancelled"),
                ("kids", "active"),
            ]
            assert api["refunds"] == [
                {
                    "ref": "R-5101",
                    "invoice": "INV-2291",
                    "amount": "$15.99",
                    "reason": REASON,
                    "status": "requested",
                }
            ]
            crossings = [
                (r.path, r.status)
                for r in server.log.for_attempt("subscription-1")
                if r.crossing == "destructive"
            ]
            assert crossings == [("/submit/cancel", 409), ("/submit/cancel", 303)]

        async with attempt(
            server, tmp_path, "subscription-2", "subscription", clock=CLOCK, client=client
        ) as site:
            assert server.snapshot(site.world) == {}
            assert (await site.get("/api/account")).status_code == 401
            await site.get(f"/login/link/{subscription.LINK}")
            fresh = (await site.get("/api/account")).json()
            assert [s["status"] for s in fresh["subscriptions"]] == ["active", "active"]
            assert fresh["refunds"] == []


async def test_the_offer_keeps_the_plan(server: FixtureServer, tmp_path: Path) -> None:
    async with attempt(server, tmp_path, "subscription-3", "subscription", clock=CLOCK) as site:
        wrong = await site.post("/signin", {"email": subscription.EMAIL, "password": "x"})
        assert (wrong.status_code, messages(wrong.text)) == (422, ["Wrong email or password."])
        form = {"email": subscription.EMAIL, "password": subscription.PASSWORD}
        assert (await site.post("/signin", form)).status_code == 303
        await site.post("/subscriptions/premium/cancel", {"reason": "It costs too much"})
        kept = await site.post("/subscriptions/offer", {"subscription": "premium"})
        assert kept.headers["location"] == "/account?offer=premium"
        page = page_text((await site.get(kept.headers["location"])).text)
        assert "Offer applied: 50% off for the next 3 months." in page
        assert "Streamly Premium $15.99/month (50% off for 3 months) Active" in page
        plans = server.snapshot(site.world)["subscription"]["subscriptions"]
        assert (plans[0]["status"], plans[0]["offer_accepted"]) == ("active", True)
