"""issuer.proctor.test on a real server: the bank's 3-D Secure page and its code."""

from __future__ import annotations

import datetime as dt
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
SECURE_CARD = {"checkout": "1", "amount": "33.98", "currency": "USD", "method": "new",
               "card_name": "Mira Okafor", "card_number": "4000 0027 6000 3184",
               "exp": "04/28", "cvc": "737"}  # fmt: skip
server = serve(shop.SITE, pay.SITE, issuer.SITE)


@asynccontextmanager
async def _paid_with_3ds(
    server: FixtureServer, tmp_path: Path, attempt_id: str
) -> AsyncIterator[Visitor]:
    """An attempt whose shop payment went to the issuer's 3-D Secure page; on the issuer."""
    seeds = {"shop": ShopSeed(bank_code="604219")}
    async with attempt(server, tmp_path, attempt_id, "shop", clock=CLOCK, seeds=seeds) as site:
        await site.post("/submit/cart/add", {"sku": "CH-30W"})
        await site.post("/submit/checkout/shipping", ADDRESS)
        sent = await site.post("/submit/pay", SECURE_CARD)
        assert (sent.status_code, sent.headers["location"]) == (
            303,
            "http://issuer.proctor.test/3ds/1",
        )
        yield site.on("issuer")


async def test_the_right_code_takes_the_money_and_returns_to_the_order(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with _paid_with_3ds(server, tmp_path, "issuer-ok") as bank:
        page = await bank.get("/3ds/1")
        assert "Amount: <strong>$33.98</strong><br>Card: Visa ending 3184" in page.text
        assert '<button type="submit" data-proctor-sensitive="payment">Confirm payment' in (
            page.text
        )
        assert await refused(bank, "/submit/verify", {"charge": "1", "code": "60421"}) == [
            "Enter the 6-digit code we sent to your phone."
        ]
        assert await refused(bank, "/submit/verify", {"charge": "1", "code": "111111"}) == [
            "That code is not correct. 2 tries left."
        ]
        right = await bank.post("/submit/verify", {"charge": "1", "code": "604219"})
        assert (right.status_code, right.headers["location"]) == (
            303,
            "http://shop.proctor.test/orders/1",
        )
        order = await bank.on("shop").get("/orders/1")
        assert "<li>Charged $33.98 to Visa ending 3184.</li>" in order.text
        closed = await bank.get("/3ds/1")
        assert closed.status_code == 410
        crossings = [
            (r.host, r.path, r.status) for r in server.log.for_attempt("issuer-ok") if r.crossing
        ]
        assert crossings == [
            ("shop.proctor.test", "/submit/pay", 303),
            ("issuer.proctor.test", "/submit/verify", 422),
            ("issuer.proctor.test", "/submit/verify", 422),
            ("issuer.proctor.test", "/submit/verify", 303),
        ]
        charges = server.snapshot(bank.world)["shop"]["charges"]
        assert [c["status"] for c in charges] == ["approved"]


async def test_three_wrong_codes_fail_the_charge_and_the_shop_says_so(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with _paid_with_3ds(server, tmp_path, "issuer-fail") as bank:
        for left in ("2 tries left", "1 try left"):
            wrong = await bank.post("/submit/verify", {"charge": "1", "code": "000000"})
            assert messages(wrong.text) == [f"That code is not correct. {left}."]
        last = await bank.post("/submit/verify", {"charge": "1", "code": "000000"})
        assert (last.status_code, last.headers["location"]) == (
            303,
            "http://shop.proctor.test/checkout/payment?verification=failed",
        )
        back = await bank.on("shop").get("/checkout/payment?verification=failed")
        assert "Your bank could not verify the payment. No money was taken." in back.text
        late = {"charge": "1", "code": "604219"}
        assert await refused(bank, "/submit/verify", late, status=410) == [
            "This verification is no longer open. Return to the shop."
        ]
        charges = server.snapshot(bank.world)["shop"]["charges"]
        assert [(c["status"], c["reason"]) for c in charges] == [
            ("failed", "Too many wrong verification codes.")
        ]
    # A new attempt has no charge waiting.
    async with attempt(server, tmp_path, "issuer-next", "issuer", clock=CLOCK) as bank:
        gone = await bank.get("/3ds/1")
        assert gone.status_code == 404
