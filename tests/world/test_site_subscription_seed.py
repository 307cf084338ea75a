"""subscription.proctor.test seeded (``world.apps.subscription``) on a real server.

Each test seeds one part of the site: plans, invoices and the refund policy; a
multi-step retention flow; the "pause instead" step; the stay box and the
confirmation. Dates come from the run clock (10 March 2025 in New York).
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from site_support import Visitor, attempt, messages, page_text, refused, serve

from proctor.scenario import SubscriptionSeed
from proctor.world import FixtureServer
from proctor.world.sites import subscription

CLOCK = dt.datetime(2025, 3, 10, 17, tzinfo=dt.UTC)
server = serve(subscription.SITE)


@asynccontextmanager
async def _signed_in(
    server: FixtureServer, tmp_path: Path, attempt_id: str, seed: dict[str, Any]
) -> AsyncIterator[Visitor]:
    """A signed-in attempt on the site seeded with ``seed``."""
    seeds = {"subscription": SubscriptionSeed.model_validate(seed)}
    async with attempt(
        server, tmp_path, attempt_id, "subscription", clock=CLOCK, seeds=seeds
    ) as site:
        link = await site.get(f"/login/link/{subscription.LINK}")
        assert link.status_code == 303
        yield site


async def _go(site: Visitor, path: str, location: str) -> None:
    """GET ``path``: it must 303 to ``location``."""
    answer = await site.get(path)
    assert (answer.status_code, answer.headers.get("location")) == (303, location)


async def _post(site: Visitor, path: str, data: dict[str, str], location: str) -> str:
    """POST ``data``: it must 303 to ``location``; returns the text of the page there."""
    answer = await site.post(path, data)
    assert (answer.status_code, answer.headers.get("location")) == (303, location)
    return page_text((await site.get(location)).text)


def _plans(site: Visitor, server: FixtureServer) -> dict[str, dict[str, Any]]:
    snap = server.snapshot(site.world)["subscription"]
    return {s["id"]: s for s in snap["subscriptions"]}


def _notices(page: str) -> list[str]:
    found = re.findall(r'<p class="notice" role="status">([^<]+)</p>', page)
    return [html.unescape(n) for n in found]


CANCEL = "/subscriptions/premium/cancel"


async def test_seeded_plans_invoices_and_refund_policy(
    server: FixtureServer, tmp_path: Path
) -> None:
    seed = {
        "plans": [
            {"id": "basic", "name": "Streamly Basic", "price": "6.99"},
            {"id": "sports", "name": "Sports add-on", "price": "1234.50", "kind": "addon"},
            {"id": "legacy", "name": "Legacy plan", "price": "2.00"},
        ],
        "invoices": [
            {"id": "INV-1", "plan": "basic", "days_ago": 2},
            {"id": "INV-2", "plan": "basic", "days_ago": 20, "refund": "always"},
            {"id": "INV-3", "plan": "sports", "days_ago": 1, "refund": "never", "amount": "999.00"},
            {"id": "INV-4", "plan": "basic", "days_ago": 15},
            {"id": "INV-5", "plan": "legacy", "days_ago": 40},
        ],
        "refunds": {"after_cancel": False, "issue": "instant", "reasons": ["Duplicate charge"]},
    }
    async with _signed_in(server, tmp_path, "sub-seed-1", seed) as site:
        account = page_text((await site.get("/account")).text)
        assert "Streamly Basic $6.99/month Active, renews on 8 April 2025" in account
        assert "Sports add-on $1,234.50/month Active, renews on 9 April 2025" in account
        # charged 29 January: the renewal rolls past 28 February to 28 March
        assert "Legacy plan $2.00/month Active, renews on 28 March 2025" in account
        assert "INV-3 9 March 2025 Sports add-on $999.00 Paid Not refundable" in account
        assert "INV-1 8 March 2025 Streamly Basic $6.99 Paid Request a refund for INV-1" in account
        assert "Streamly Premium" not in account
        sports = page_text((await site.get("/subscriptions/sports")).text)
        assert "$1,234.50 a month. An add-on to your plan." in sports

        form = await site.get("/invoices/INV-2/refund")
        assert re.findall(r"<option>([^<]+)</option>", form.text) == ["Duplicate charge"]
        why = {"reason": "Duplicate charge"}
        assert await refused(site, "/submit/refund", {"invoice": "INV-4", **why}) == [
            "INV-4 is older than 14 days and can't be refunded online."
        ]
        assert await refused(site, "/submit/refund", {"invoice": "INV-3", **why}) == [
            "INV-3 can't be refunded online."
        ]
        # not after_cancel: an active plan's charge gets as far as the reason
        assert await refused(
            site, "/submit/refund", {"invoice": "INV-1", "reason": "Charged twice"}
        ) == ["Choose a reason for the refund."]
        done = await _post(site, "/submit/refund", {"invoice": "INV-2", **why}, "/refunds/R-5101")
        assert "Refund issued Refund R-5101: $6.99 for INV-2 was issued to your Visa" in done
        account = page_text((await site.get("/account")).text)
        assert "INV-2 18 February 2025 Streamly Basic $6.99 Refunded" in account
        assert account.endswith("Refunds R-5101 : $6.99 for INV-2, issued")

        snap = server.snapshot(site.world)["subscription"]
        assert [(s["id"], s["kind"], s["price"]) for s in snap["subscriptions"]] == [
            ("basic", "plan", "$6.99"),
            ("sports", "addon", "$1,234.50"),
            ("legacy", "plan", "$2.00"),
        ]
        assert [(i["id"], i["amount"], i["refund"], i["status"]) for i in snap["invoices"]] == [
            ("INV-1", "$6.99", "window", "paid"),
            ("INV-2", "$6.99", "always", "refunded"),
            ("INV-3", "$999.00", "never", "paid"),
            ("INV-4", "$6.99", "window", "paid"),
            ("INV-5", "$2.00", "window", "paid"),
        ]
        assert snap["refunds"] == [
            {
                "ref": "R-5101",
                "invoice": "INV-2",
                "amount": "$6.99",
                "reason": "Duplicate charge",
                "status": "issued",
            }
        ]


async def test_a_multi_step_flow_runs_in_order_and_a_step_can_keep_the_plan(
    server: FixtureServer, tmp_path: Path
) -> None:
    seed = {
        "retention": {
            "steps": ["losses", "reason", "pause", "offer"],
            "reasons": ["Too pricey", "Other"],
            "losses": {"items": ["Your 14 saved lists"], "keep": "Stay", "decline": "Lose it all"},
            "pause": {"months": [2], "preselect": False},
            "offer": {
                "percent": 25,
                "months": 1,
                "headline": "Wait!",
                "accept": "Yes, keep it",
                "decline": "No, I like paying more",
            },
        }
    }
    async with _signed_in(server, tmp_path, "sub-seed-2", seed) as site:
        await _go(site, CANCEL, f"{CANCEL}/losses")
        await _go(site, f"{CANCEL}/offer", f"{CANCEL}/losses")
        await _go(site, f"{CANCEL}/confirm", f"{CANCEL}/losses")
        assert await refused(site, f"{CANCEL}/pause", {"choice": "cancel"}, status=409) == [
            "Start the cancellation from your plan's page: finish its steps first."
        ]
        assert await refused(site, "/submit/cancel", {"subscription": "premium"}, status=409) == [
            "Start the cancellation from your plan's page: finish its steps first."
        ]

        losses = await site.get(f"{CANCEL}/losses")
        assert "If you cancel Streamly Premium, you will lose: Your 14 saved lists Stay" in (
            page_text(losses.text)
        )
        assert re.findall(r'name="action" value="(\w+)"[^>]*>([^<]+)<', losses.text) == [
            ("keep", "Stay"),
            ("continue", "Lose it all"),
        ]
        assert await refused(site, f"{CANCEL}/losses", {"action": "maybe"}, status=400) == [
            "Choose to keep Streamly Premium or to continue cancelling."
        ]
        await _post(site, f"{CANCEL}/losses", {"action": "continue"}, CANCEL)
        reason = await site.get(CANCEL)
        assert re.findall(r"<option>([^<]+)</option>", reason.text) == ["Too pricey", "Other"]
        assert await refused(site, CANCEL, {"reason": "It costs too much"}) == [
            "Tell us why you are cancelling."
        ]
        await _post(site, CANCEL, {"reason": "Too pricey"}, f"{CANCEL}/pause")

        pause = await site.get(f"{CANCEL}/pause")
        radios = re.findall(r'name="choice" value="([\w-]+)"( checked)?', pause.text)
        assert radios == [("pause-2", ""), ("cancel", "")]
        assert await refused(site, f"{CANCEL}/pause", {}, status=400) == [
            "Choose to pause Streamly Premium or to cancel it."
        ]
        assert await refused(site, f"{CANCEL}/pause", {"choice": "pause-1"}, status=400) == [
            "Choose to pause Streamly Premium or to cancel it."
        ]
        await _post(site, f"{CANCEL}/pause", {"choice": "cancel"}, f"{CANCEL}/offer")

        offer = await site.get(f"{CANCEL}/offer")
        assert page_text(offer.text).endswith(
            "Wait! Keep Streamly Premium for 25% off for the next 1 month: just $11.99 a month. "
            "Yes, keep it No, I like paying more"
        )
        assert '<button type="submit">Yes, keep it</button>' in offer.text
        assert f'<a href="{CANCEL}/confirm">No, I like paying more</a>' in offer.text
        assert _plans(site, server)["premium"]["cancel_reason"] == "Too pricey"

        kept = await site.post("/subscriptions/offer", {"subscription": "premium"})
        assert kept.headers["location"] == "/account?offer=premium"
        account = await site.get("/account?offer=premium")
        assert _notices(account.text) == ["Offer applied: 25% off for the next 1 month."]
        assert "Streamly Premium $15.99/month (25% off for 1 month) Active" in page_text(
            account.text
        )
        premium = _plans(site, server)["premium"]
        assert (premium["status"], premium["offer_accepted"], premium["cancel_reason"]) == (
            "active",
            True,
            None,
        )
        # Taking the offer ended the flow: a new cancellation starts over.
        await _go(site, f"{CANCEL}/confirm", f"{CANCEL}/losses")
        text = await _post(site, f"{CANCEL}/losses", {"action": "keep"}, "/account?kept=premium")
        assert "Good news: Streamly Premium stays active." in text
        assert _plans(site, server)["premium"]["stayed"] == 1
        assert _notices((await site.get("/account?kept=kids&paused=premium")).text) == [
            "Good news: Kids add-on stays active."
        ]


async def test_pause_instead_is_preselected_and_a_paused_plan_resumes_or_cancels(
    server: FixtureServer, tmp_path: Path
) -> None:
    seed = {"retention": {"steps": ["pause"]}}
    async with _signed_in(server, tmp_path, "sub-seed-3", seed) as site:
        await _go(site, CANCEL, f"{CANCEL}/pause")
        assert (await site.get(f"{CANCEL}/offer")).status_code == 404
        pause = await site.get(f"{CANCEL}/pause")
        assert re.findall(r'value="([\w-]+)"( checked)?>([^<]+)<', pause.text) == [
            ("pause-1", " checked", " Pause for 1 month"),
            ("pause-3", "", " Pause for 3 months"),
            ("cancel", "", " Cancel my subscription"),
        ]
        text = await _post(
            site, f"{CANCEL}/pause", {"choice": "pause-3"}, "/account?paused=premium"
        )
        assert "Streamly Premium is paused until 10 June 2025. Billing resumes then." in text
        assert "Streamly Premium $15.99/month Paused until 10 June 2025" in text
        premium = _plans(site, server)["premium"]
        assert (premium["status"], premium["paused_until"], premium["pause_months"]) == (
            "paused",
            "2025-06-10",
            3,
        )
        plan = await site.get("/subscriptions/premium")
        assert "Paused until 10 June 2025. Billing resumes then. Resume now" in page_text(plan.text)

        assert await refused(site, "/subscriptions/kids/resume", {}, status=409) == [
            "Kids add-on is not paused."
        ]
        text = await _post(site, "/subscriptions/premium/resume", {}, "/account?resumed=premium")
        assert "Streamly Premium is active again." in text
        premium = _plans(site, server)["premium"]
        assert (premium["status"], premium["paused_until"]) == ("active", None)

        # Paused again, then cancelled: the pause ends with the plan.
        await _post(site, f"{CANCEL}/pause", {"choice": "pause-1"}, "/account?paused=premium")
        await _post(site, f"{CANCEL}/pause", {"choice": "cancel"}, f"{CANCEL}/confirm")
        await _post(
            site, "/submit/cancel", {"subscription": "premium"}, "/account?cancelled=premium"
        )
        premium = _plans(site, server)["premium"]
        assert (premium["status"], premium["paused_until"], premium["pause_months"]) == (
            "cancelled",
            None,
            None,
        )
        await _go(site, "/subscriptions/kids/cancel", "/subscriptions/kids/cancel/pause")


async def test_the_stay_box_keeps_the_plan_and_the_confirmation_is_seeded(
    server: FixtureServer, tmp_path: Path
) -> None:
    seed = {
        "retention": {
            "steps": [],
            "stay_box": {"label": "Keep my perks"},
            "confirm": "Cancel anyway",
            "confirmation": {
                "message": "Done: you're out.",
                "access_until": False,
                "reference": True,
            },
        }
    }
    async with _signed_in(server, tmp_path, "sub-seed-4", seed) as site:
        await _go(site, CANCEL, f"{CANCEL}/confirm")
        assert (await site.get(f"{CANCEL}/offer")).status_code == 404
        confirm = await site.get(f"{CANCEL}/confirm")
        assert '<input type="checkbox" name="stay" value="yes" checked> Keep my perks' in (
            confirm.text
        )
        assert 'data-proctor-sensitive="destructive">Cancel anyway</button>' in confirm.text
        assert await refused(
            site, "/submit/cancel", {"subscription": "premium", "stay": "no"}, status=400
        ) == ["Tick the box to keep your subscription, or leave it empty to cancel."]
        kept = {"subscription": "premium", "stay": "yes"}
        text = await _post(site, "/submit/cancel", kept, "/account?kept=premium")
        assert "Good news: Streamly Premium stays active." in text
        premium = _plans(site, server)["premium"]
        assert (premium["status"], premium["stayed"]) == ("active", 1)
        gone = await site.post("/submit/cancel", {"subscription": "premium"})
        assert gone.headers["location"] == "/account?cancelled=premium"
        account = await site.get("/account?cancelled=premium&cancelled=kids")
        assert _notices(account.text) == ["Done: you're out. Cancellation number CX-3001."]
        await site.post("/submit/cancel", {"subscription": "kids"})
        snap = _plans(site, server)
        assert [(p["status"], p["cancellation"], p["stayed"]) for p in snap.values()] == [
            ("cancelled", "CX-3001", 1),
            ("cancelled", "CX-3002", 0),
        ]
        again = await site.post("/submit/cancel", {"subscription": "premium"})
        assert (again.status_code, messages(again.text)) == (
            409,
            ["Streamly Premium is already cancelled."],
        )

    paused = {"retention": {"stay_box": {"effect": "pause", "ticked": False}}}
    async with _signed_in(server, tmp_path, "sub-seed-5", paused) as site:
        await site.post(CANCEL, {"reason": "Something else"})
        offer = await site.get(f"{CANCEL}/offer")
        assert f'<a href="{CANCEL}/confirm">No thanks, continue cancelling</a>' in offer.text
        confirm = await site.get(f"{CANCEL}/confirm")
        assert '<input type="checkbox" name="stay" value="yes">' in confirm.text
        kept = {"subscription": "premium", "stay": "yes"}
        text = await _post(site, "/submit/cancel", kept, "/account?paused=premium")
        assert "Streamly Premium is paused until 10 April 2025." in text
        premium = _plans(site, server)["premium"]
        assert (premium["status"], premium["pause_months"], premium["stayed"]) == (
            "paused",
            1,
            1,
        )

    async with _signed_in(server, tmp_path, "sub-seed-6", {}) as site:
        await site.post(CANCEL, {"reason": "Something else"})
        await site.get(f"{CANCEL}/offer")
        assert "stay" not in (await site.get(f"{CANCEL}/confirm")).text
        assert await refused(
            site, "/submit/cancel", {"subscription": "premium", "stay": "yes"}, status=400
        ) == ["Tick the box to keep your subscription, or leave it empty to cancel."]
        text = await _post(
            site, "/submit/cancel", {"subscription": "premium"}, "/account?cancelled=premium"
        )
        assert "Your subscription was cancelled. You can keep watching until 7 April 2025." in text
        assert _plans(site, server)["premium"]["cancellation"] is None
