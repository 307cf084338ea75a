"""pay.proctor.test on a real server: the payment frame the shop embeds."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.scenario._shop import ShopSeed
from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import issuer, pay, shop

CLOCK = dt.datetime(2025, 3, 4, 9, 30, tzinfo=dt.UTC)
ADDRESS = {"full_name": "Mira Okafor", "street": "8 Tannery Row", "city": "Millbrook",
           "postcode": "MB4 2XY", "shipping": "standard"}  # fmt: skip
CARD = {"checkout": "1", "amount": "10.450", "currency": "KWD", "method": "new",
        "card_name": "Mira Okafor", "card_number": "5555 5555 5555 4444",
        "exp_month": "April", "exp_year": "2028", "cvc": "737"}  # fmt: skip


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([shop.SITE, pay.SITE, issuer.SITE]) as srv:
        yield srv


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def _checkout(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path, attempt: str
) -> dict[str, str]:
    """A KWD shop with a frame checkout and a checkout ready to pay; the pay host's headers."""
    seed = ShopSeed(currency="KWD", checkout="frame", expiry="month_names")
    world = AttemptWorld(attempt, 0, CLOCK, tmp_path, seeds={"shop": seed})
    server.begin(world, ["shop", "pay"])
    shop_headers = {"host": "shop.proctor.test", ATTEMPT_HEADER: attempt}
    await client.post("/submit/cart/add", data={"sku": "CH-30W"}, headers=shop_headers)
    await client.post("/submit/checkout/shipping", data=ADDRESS, headers=shop_headers)
    page = await client.get("/checkout/payment", headers=shop_headers)
    assert re.findall(r'<iframe [^>]*src="([^"]+)"', page.text) == [
        "http://pay.proctor.test/frame/1"
    ]
    assert 'name="card_number"' not in page.text  # the card form lives in the frame only
    return {"host": "pay.proctor.test", ATTEMPT_HEADER: attempt}


async def test_frame_validates_declines_then_approves(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = await _checkout(server, client, tmp_path, "pay-frame")
        try:
            frame = await client.get("/frame/1", headers=headers)
            assert "<p>Pay Voltmart <strong>KWD 10.450</strong></p>" in frame.text
            assert '<option value="April">April</option>' in frame.text
            assert '<input type="hidden" name="amount" value="10.450">' in frame.text
            assert (await client.get("/frame/9", headers=headers)).status_code == 404

            invalid = await client.post(
                "/submit/pay",
                data={**CARD, "amount": "10.45", "exp_month": "04"},
                headers=headers,
            )
            assert invalid.status_code == 422
            assert _messages(invalid.text) == [
                "Amount '10.45' is not a valid KWD amount: use 3 decimals, e.g. 12.500.",
                "Choose the expiry month.",
            ]
            saved = await client.post(
                "/submit/pay",
                data={**CARD, "method": "saved", "saved_card": "mc-4444"},
                headers=headers,
            )
            assert _messages(saved.text) == ["Choose a saved card, or enter a new card."]
            declined = await client.post(
                "/submit/pay",
                data={**CARD, "card_number": "4000000000000002"},
                headers=headers,
            )
            assert declined.status_code == 402
            assert "Payment declined.</strong> No money was taken." in declined.text
            paid = await client.post("/submit/pay", data=CARD, headers=headers)
            assert (paid.status_code, paid.headers["location"]) == (
                303,
                "http://pay.proctor.test/frame/done/1",
            )
            done = await client.get("/frame/done/1", headers=headers)
            assert (
                'window.parent.postMessage({type: "paywell:paid", order: 1}, '
                '"http://shop.proctor.test");'
            ) in done.text
            order = await client.get(
                "/orders/1", headers={"host": "shop.proctor.test", ATTEMPT_HEADER: "pay-frame"}
            )
            assert "<li>Charged KWD 10.450 to Mastercard ending 4444.</li>" in order.text
            crossings = [
                (r.host, r.status) for r in server.log.for_attempt("pay-frame") if r.crossing
            ]
            assert crossings == [("pay.proctor.test", s) for s in (422, 422, 402, 303)]
        finally:
            server.end("pay-frame")

        fresh = AttemptWorld("pay-frame-2", 0, CLOCK, tmp_path)
        server.begin(fresh, ["shop", "pay"])
        try:
            again = {"host": "pay.proctor.test", ATTEMPT_HEADER: "pay-frame-2"}
            assert (await client.get("/frame/1", headers=again)).status_code == 404
            assert (await client.get("/frame/done/1", headers=again)).status_code == 404
        finally:
            server.end("pay-frame-2")


async def test_3ds_inside_the_frame_returns_to_the_frame(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = await _checkout(server, client, tmp_path, "pay-3ds")
        try:
            sent = await client.post(
                "/submit/pay", data={**CARD, "card_number": "4000002760003184"}, headers=headers
            )
            assert (sent.status_code, sent.headers["location"]) == (
                303,
                "http://issuer.proctor.test/3ds/1",
            )
            verified = await client.post(
                "/submit/verify",
                data={"charge": "1", "code": "428913"},
                headers={"host": "issuer.proctor.test", ATTEMPT_HEADER: "pay-3ds"},
            )
            assert (verified.status_code, verified.headers["location"]) == (
                303,
                "http://pay.proctor.test/frame/done/1",
            )
        finally:
            server.end("pay-3ds")
