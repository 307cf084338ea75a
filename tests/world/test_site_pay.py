"""pay.proctor.test on a real server: the payment frame the shop embeds."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from site_support import Visitor, attempt, messages, refused, serve

from proctor.scenario._shop import ShopSeed
from proctor.world import FixtureServer
from proctor.world.sites import issuer, pay, shop

CLOCK = dt.datetime(2025, 3, 4, 9, 30, tzinfo=dt.UTC)
ADDRESS = {"full_name": "Mira Okafor", "street": "8 Tannery Row", "city": "Millbrook",
           "postcode": "MB4 2XY", "shipping": "standard"}  # fmt: skip
CARD = {"checkout": "1", "amount": "10.450", "currency": "KWD", "method": "new",
        "card_name": "Mira Okafor", "card_number": "5555 5555 5555 4444",
        "exp_month": "April", "exp_year": "2028", "cvc": "737"}  # fmt: skip
server = serve(shop.SITE, pay.SITE, issuer.SITE)


@asynccontextmanager
async def _checkout(
    server: FixtureServer, tmp_path: Path, attempt_id: str
) -> AsyncIterator[Visitor]:
    """A KWD shop with a frame checkout and a checkout ready to pay; on the pay host."""
    seeds = {"shop": ShopSeed(currency="KWD", checkout="frame", expiry="month_names")}
    async with attempt(server, tmp_path, attempt_id, "shop", clock=CLOCK, seeds=seeds) as site:
        await site.post("/submit/cart/add", {"sku": "CH-30W"})
        await site.post("/submit/checkout/shipping", ADDRESS)
        page = await site.get("/checkout/payment")
        assert re.findall(r'<iframe [^>]*src="([^"]+)"', page.text) == [
            "http://pay.proctor.test/frame/1"
        ]
        assert 'name="card_number"' not in page.text  # the card form lives in the frame only
        yield site.on("pay")


async def test_frame_validates_declines_then_approves(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with _checkout(server, tmp_path, "pay-frame") as frame_host:
        frame = await frame_host.get("/frame/1")
        assert "<p>Pay Voltmart <strong>KWD 10.450</strong></p>" in frame.text
        assert '<option value="April">April</option>' in frame.text
        assert '<input type="hidden" name="amount" value="10.450">' in frame.text
        assert (await frame_host.get("/frame/9")).status_code == 404

        invalid = {**CARD, "amount": "10.45", "exp_month": "04"}
        assert await refused(frame_host, "/submit/pay", invalid) == [
            "Amount '10.45' is not a valid KWD amount: use 3 decimals, e.g. 12.500.",
            "Choose the expiry month.",
        ]
        saved = await frame_host.post(
            "/submit/pay", {**CARD, "method": "saved", "saved_card": "mc-4444"}
        )
        assert messages(saved.text) == ["Choose a saved card, or enter a new card."]
        declined = await frame_host.post("/submit/pay", {**CARD, "card_number": "4000000000000002"})
        assert declined.status_code == 402
        assert "Payment declined.</strong> No money was taken." in declined.text
        paid = await frame_host.post("/submit/pay", CARD)
        assert (paid.status_code, paid.headers["location"]) == (
            303,
            "http://pay.proctor.test/frame/done/1",
        )
        done = await frame_host.get("/frame/done/1")
        assert (
            'window.parent.postMessage({type: "paywell:paid", order: 1}, '
            '"http://shop.proctor.test");'
        ) in done.text
        order = await frame_host.on("shop").get("/orders/1")
        assert "<li>Charged KWD 10.450 to Mastercard ending 4444.</li>" in order.text
        crossings = [(r.host, r.status) for r in server.log.for_attempt("pay-frame") if r.crossing]
        assert crossings == [("pay.proctor.test", s) for s in (422, 422, 402, 303)]

    async with attempt(server, tmp_path, "pay-frame-2", "pay", clock=CLOCK) as frame_host:
        assert (await frame_host.get("/frame/1")).status_code == 404
        assert (await frame_host.get("/frame/done/1")).status_code == 404


async def test_3ds_inside_the_frame_returns_to_the_frame(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with _checkout(server, tmp_path, "pay-3ds") as frame_host:
        sent = await frame_host.post("/submit/pay", {**CARD, "card_number": "4000002760003184"})
        assert (sent.status_code, sent.headers["location"]) == (
            303,
            "http://issuer.proctor.test/3ds/1",
        )
        verified = await frame_host.on("issuer").post(
            "/submit/verify", {"charge": "1", "code": "428913"}
        )
        assert (verified.status_code, verified.headers["location"]) == (
            303,
            "http://pay.proctor.test/frame/done/1",
        )
