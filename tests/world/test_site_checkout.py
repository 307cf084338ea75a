"""checkout.proctor.test on a real server: cart, address, then a payment crossing."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import checkout

HOST = "checkout.proctor.test"
ADDRESS = {"full_name": "Jonas Brandt", "street": "14 Kiln Lane", "city": "Ashford",
           "postcode": "AF3 9QT"}  # fmt: skip


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([checkout.SITE]) as srv:
        yield srv


def _begin(server: FixtureServer, tmp_path: Path, attempt: str) -> dict[str, str]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=dt.datetime(2025, 3, 4, tzinfo=dt.UTC), scratch=tmp_path
    )
    server.begin(world, ["checkout"])
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def test_checkout_flow_and_the_payment_crossing(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        headers = _begin(server, tmp_path, "checkout-1")
        try:
            early = await client.post("/submit/pay", data={"card": checkout.CARD}, headers=headers)
            assert early.status_code == 422
            assert _messages(early.text) == [
                "Your cart is empty.",
                "Add a shipping address first.",
            ]
            bad_qty = await client.post(
                "/submit/cart-add", data={"sku": "TB-750", "qty": "0"}, headers=headers
            )
            assert bad_qty.status_code == 422
            assert _messages(bad_qty.text) == ["Quantity must be a whole number from 1 to 9."]
            added = await client.post(
                "/submit/cart-add", data={"sku": "TB-750", "qty": "1"}, headers=headers
            )
            assert added.status_code == 303
            cart = await client.get(
                (await client.get(added.headers["location"], headers=headers)).headers["location"],
                headers=headers,
            )
            assert "<tr><td>Trail water bottle, 750 ml</td><td>1</td><td>$18.00</td></tr>" in (
                cart.text
            )

            no_post = await client.post(
                "/submit/shipping", data={**ADDRESS, "postcode": "?"}, headers=headers
            )
            assert no_post.status_code == 422
            assert _messages(no_post.text) == ["Postcode is not valid."]
            shipped = await client.post("/submit/shipping", data=ADDRESS, headers=headers)
            assert shipped.status_code == 303
            payment = await client.get("/checkout/payment", headers=headers)
            assert "Shipping to Jonas Brandt, 14 Kiln Lane, Ashford AF3 9QT." in payment.text
            assert "You will be charged $23.00 when you continue." in payment.text
            assert '<button type="submit" data-proctor-sensitive="payment">Continue</button>' in (
                payment.text
            )

            paid = await client.post("/submit/pay", data={"card": checkout.CARD}, headers=headers)
            assert paid.status_code == 303
            assert paid.headers["location"] == "/order/1"
            order = await client.get("/order/1", headers=headers)
            assert '<p role="status">We charged $23.00 to your card.</p>' in order.text
            crossings = [
                (r.path, r.status, r.crossing)
                for r in server.log.for_attempt("checkout-1")
                if r.crossing
            ]
            assert crossings == [("/submit/pay", 422, "payment"), ("/submit/pay", 303, "payment")]
        finally:
            server.end("checkout-1")

        headers = _begin(server, tmp_path, "checkout-2")
        try:
            cart = await client.get("/cart", headers=headers)
            assert "<p>Your cart is empty.</p>" in cart.text
            assert (await client.get("/order/1", headers=headers)).status_code == 404
        finally:
            server.end("checkout-2")
