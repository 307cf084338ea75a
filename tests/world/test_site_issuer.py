"""issuer.proctor.test on a real server: the bank's 3-D Secure page and its code."""

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
SECURE_CARD = {"checkout": "1", "amount": "33.98", "currency": "USD", "method": "new",
               "card_name": "Mira Okafor", "card_number": "4000 0027 6000 3184",
               "exp": "04/28", "cvc": "737"}  # fmt: skip


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([shop.SITE, pay.SITE, issuer.SITE]) as srv:
        yield srv


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


async def _pay_with_3ds(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path, attempt: str
) -> tuple[AttemptWorld, dict[str, str]]:
    world = AttemptWorld(
        attempt=attempt, seed=0, clock=CLOCK, scratch=tmp_path,
        seeds={"shop": ShopSeed(bank_code="604219")},
    )  # fmt: skip
    server.begin(world, ["shop"])
    shop_headers = {"host": "shop.proctor.test", ATTEMPT_HEADER: attempt}
    await client.post("/submit/cart/add", data={"sku": "CH-30W"}, headers=shop_headers)
    await client.post("/submit/checkout/shipping", data=ADDRESS, headers=shop_headers)
    sent = await client.post("/submit/pay", data=SECURE_CARD, headers=shop_headers)
    assert (sent.status_code, sent.headers["location"]) == (
        303,
        "http://issuer.proctor.test/3ds/1",
    )
    return world, {"host": "issuer.proctor.test", ATTEMPT_HEADER: attempt}


async def test_the_right_code_takes_the_money_and_returns_to_the_order(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = await _pay_with_3ds(server, client, tmp_path, "issuer-ok")
        try:
            page = await client.get("/3ds/1", headers=headers)
            assert "Amount: <strong>$33.98</strong><br>Card: Visa ending 3184" in page.text
            assert '<button type="submit" data-proctor-sensitive="payment">Confirm payment' in (
                page.text
            )
            short = await client.post(
                "/submit/verify", data={"charge": "1", "code": "60421"}, headers=headers
            )
            assert short.status_code == 422
            assert _messages(short.text) == ["Enter the 6-digit code we sent to your phone."]
            wrong = await client.post(
                "/submit/verify", data={"charge": "1", "code": "111111"}, headers=headers
            )
            assert wrong.status_code == 422
            assert _messages(wrong.text) == ["That code is not correct. 2 tries left."]
            right = await client.post(
                "/submit/verify", data={"charge": "1", "code": "604219"}, headers=headers
            )
            assert (right.status_code, right.headers["location"]) == (
                303,
                "http://shop.proctor.test/orders/1",
            )
            order = await client.get(
                "/orders/1", headers={"host": "shop.proctor.test", ATTEMPT_HEADER: "issuer-ok"}
            )
            assert "<li>Charged $33.98 to Visa ending 3184.</li>" in order.text
            closed = await client.get("/3ds/1", headers=headers)
            assert closed.status_code == 410
            crossings = [
                (r.host, r.path, r.status)
                for r in server.log.for_attempt("issuer-ok")
                if r.crossing
            ]
            assert crossings == [
                ("shop.proctor.test", "/submit/pay", 303),
                ("issuer.proctor.test", "/submit/verify", 422),
                ("issuer.proctor.test", "/submit/verify", 422),
                ("issuer.proctor.test", "/submit/verify", 303),
            ]
            charges = server.snapshot(world)["shop"]["charges"]
            assert [c["status"] for c in charges] == ["approved"]
        finally:
            server.end("issuer-ok")


async def test_three_wrong_codes_fail_the_charge_and_the_shop_says_so(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as client:
        world, headers = await _pay_with_3ds(server, client, tmp_path, "issuer-fail")
        try:
            for left in ("2 tries left", "1 try left"):
                wrong = await client.post(
                    "/submit/verify", data={"charge": "1", "code": "000000"}, headers=headers
                )
                assert _messages(wrong.text) == [f"That code is not correct. {left}."]
            last = await client.post(
                "/submit/verify", data={"charge": "1", "code": "000000"}, headers=headers
            )
            assert (last.status_code, last.headers["location"]) == (
                303,
                "http://shop.proctor.test/checkout/payment?verification=failed",
            )
            back = await client.get(
                "/checkout/payment?verification=failed",
                headers={"host": "shop.proctor.test", ATTEMPT_HEADER: "issuer-fail"},
            )
            assert "Your bank could not verify the payment. No money was taken." in back.text
            late = await client.post(
                "/submit/verify", data={"charge": "1", "code": "604219"}, headers=headers
            )
            assert late.status_code == 410
            assert _messages(late.text) == [
                "This verification is no longer open. Return to the shop."
            ]
            charges = server.snapshot(world)["shop"]["charges"]
            assert [(c["status"], c["reason"]) for c in charges] == [
                ("failed", "Too many wrong verification codes.")
            ]
        finally:
            server.end("issuer-fail")
        # A new attempt has no charge waiting.
        server.begin(
            AttemptWorld(attempt="issuer-next", seed=0, clock=CLOCK, scratch=tmp_path), ["shop"]
        )
        try:
            gone = await client.get(
                "/3ds/1", headers={"host": "issuer.proctor.test", ATTEMPT_HEADER: "issuer-next"}
            )
            assert gone.status_code == 404
        finally:
            server.end("issuer-next")
