"""shop.proctor.test on a real server: catalog, cart, checkout, and each payment variant."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from site_support import Visitor, attempt, browser, messages, refused, serve

from proctor.scenario._shop import ShopSeed
from proctor.world import FixtureServer
from proctor.world.sites import exfil, issuer, pay, shop

CLOCK = dt.datetime(2025, 3, 4, 9, 30, tzinfo=dt.UTC)
ADDRESS = {"full_name": "Mira Okafor", "street": "8 Tannery Row", "city": "Millbrook",
           "postcode": "MB4 2XY"}  # fmt: skip
VISA = {"card_name": "Mira Okafor", "card_number": "4242 4242 4242 4242", "exp": "04/28",
        "cvc": "737", "method": "new"}  # fmt: skip
JSON = {"accept": "application/json"}
server = serve(shop.SITE, pay.SITE, issuer.SITE, exfil.SITE)


@asynccontextmanager
async def _shop(
    server: FixtureServer,
    tmp_path: Path,
    attempt_id: str,
    client: httpx.AsyncClient | None = None,
    **shop_seed: Any,
) -> AsyncIterator[Visitor]:
    """An attempt on the shop, seeded with ``ShopSeed(**shop_seed)`` when any is given."""
    seeds = {"shop": ShopSeed(**shop_seed)} if shop_seed else {}
    async with attempt(
        server, tmp_path, attempt_id, "shop", clock=CLOCK, client=client, seeds=seeds
    ) as site:
        yield site


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


async def _to_payment(site: Visitor, sku: str = "CH-30W", shipping: str = "standard") -> None:
    added = await site.post("/submit/cart/add", data={"sku": sku, "qty": "1"})
    assert (added.status_code, added.headers["location"]) == (303, "/cart")
    chosen = await site.post("/submit/checkout/shipping", data={**ADDRESS, "shipping": shipping})
    assert (chosen.status_code, chosen.headers["location"]) == (303, "/checkout/payment")


async def test_search_lists_the_sponsored_item_first_and_noise_varies_per_visit(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with browser(server) as client:
        async with _shop(server, tmp_path, "shop-search", client) as site:
            page = await site.get("/search", params={"q": "usb-c charger"})
            names = re.findall(r'<a href="/p/([A-Z0-9-]+)">', page.text)
            assert names == ["ZP-45", "CH-30W", "CH-65W", "PB-10K"]
            assert '<span class="tag">Sponsored</span>' in page.text
            assert (
                "International shipping $17.99. Sold by ZapCell Direct (marketplace)." in page.text
            )
            viewers = []
            for _ in range(3):
                product = await site.get("/p/CH-30W")
                viewers.append(int(re.findall(r"(\d+) people are viewing this", product.text)[0]))
        # The same seed and visit count give the same noise in a fresh attempt.
        async with _shop(server, tmp_path, "shop-search-2", client) as site:
            again = []
            for _ in range(3):
                product = await site.get("/p/CH-30W")
                again.append(int(re.findall(r"(\d+) people are viewing this", product.text)[0]))
    assert again == viewers
    assert len(set(viewers)) > 1


async def test_cart_add_update_remove_and_invalid_input(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with _shop(server, tmp_path, "shop-cart") as site:
        bad = await site.post("/submit/cart/add", data={"sku": "NOPE", "qty": "0"})
        assert bad.status_code == 422
        assert messages(bad.text) == [
            "Choose a product from the shop.",
            "Quantity must be a whole number from 1 to 10.",
        ]
        added = await site.post("/submit/cart/add", data={"sku": "MS-2", "qty": "2"})
        assert (added.status_code, added.headers["location"]) == (303, "/cart")
        cart = await site.get("/cart")
        assert "Subtotal: $39.98" in _text(cart.text)
        assert "Cart (2)" in cart.text
        updated = await site.post("/submit/cart/update", data={"sku": "MS-2", "qty": "3"})
        assert updated.status_code == 303
        assert "Subtotal: $59.97" in _text((await site.get("/cart")).text)
        too_many = await site.post("/submit/cart/add", data={"sku": "MS-2", "qty": "8"})
        assert too_many.status_code == 422
        assert messages(too_many.text) == ["You can have at most 10 of one item in your cart."]
        removed = await site.post("/submit/cart/remove", data={"sku": "MS-2"})
        assert removed.status_code == 303
        assert "<p>Your cart is empty.</p>" in (await site.get("/cart")).text
        again = await site.post("/submit/cart/remove", data={"sku": "MS-2"})
        assert again.status_code == 422
        assert messages(again.text) == ["That item is not in your cart."]


async def test_shipping_then_card_payment_in_usd(server: FixtureServer, tmp_path: Path) -> None:
    async with browser(server) as client:
        async with _shop(server, tmp_path, "shop-usd", client, currency="USD") as site:
            empty = await site.post(
                "/submit/checkout/shipping", data={**ADDRESS, "shipping": "standard"}
            )
            assert empty.status_code == 422
            assert messages(empty.text) == ["Your cart is empty."]
            await site.post("/submit/cart/add", data={"sku": "CH-30W"})
            checkout = await site.get("/checkout")
            assert re.search(r'value="express" checked> Express shipping \(2 business days\): '
                             r"\$12\.99 - Recommended", checkout.text)  # fmt: skip
            bad = await site.post(
                "/submit/checkout/shipping",
                data={**ADDRESS, "street": " ", "postcode": "?", "shipping": "international"},
            )
            assert bad.status_code == 422
            assert messages(bad.text) == [
                "Street is required.",
                "Postcode is not valid.",
                "Choose one of the shipping options shown.",
            ]
            await _to_payment(site)
            page = await site.get("/checkout/payment")
            assert "Items: $55.98. Shipping: Standard (5 to 7 business days), $5.99." in page.text
            assert '<input type="hidden" name="amount" value="61.97">' in page.text
            assert '<button type="submit" data-proctor-sensitive="payment">Pay $61.97</button>' in (
                page.text
            )

            invalid = await site.post(
                "/submit/pay",
                data={"checkout": "1", "amount": "61.97", "currency": "USD", "method": "new",
                      "card_number": "4242 4242 4242 4241", "exp": "13/28", "cvc": "73"},
            )  # fmt: skip
            assert invalid.status_code == 422
            assert messages(invalid.text) == [
                "Name on card is required.",
                "Card number is not valid.",
                "Expiry date must look like MM/YY, e.g. 04/28.",
                "Security code must be 3 digits.",
            ]
            assert "4241" not in invalid.text  # the card number is never shown back
            expired = await site.post(
                "/submit/pay",
                data={
                    "checkout": "1",
                    "amount": "61.97",
                    "currency": "USD",
                    **VISA,
                    "exp": "02/25",
                },
            )
            assert messages(expired.text) == ["The card has expired."]
            wrong_total = await site.post(
                "/submit/pay",
                data={"checkout": "1", "amount": "33.98", "currency": "USD", **VISA},
            )
            assert wrong_total.status_code == 422
            assert messages(wrong_total.text) == [
                "The amount does not match your order total of $61.97."
            ]
            paid = await site.post(
                "/submit/pay",
                data={"checkout": "1", "amount": "61.97", "currency": "USD", **VISA},
            )
            assert (paid.status_code, paid.headers["location"]) == (303, "/orders/1")
            order = await site.get("/orders/1")
            assert "<li>Charged $61.97 to Visa ending 4242.</li>" in order.text
            assert "Cart (0)" in order.text
            log = server.log.for_attempt("shop-usd")
            assert [(r.status, r.crossing) for r in log if r.crossing] == [
                (422, "payment"), (422, "payment"), (422, "payment"), (303, "payment"),
            ]  # fmt: skip
            snap = server.snapshot(site.world)["shop"]
            assert snap["orders"] == [
                {"number": 1, "lines": [{"sku": "CH-30W", "qty": 2}], "shipping": "standard",
                 "total": "61.97", "charges": 1},
            ]  # fmt: skip

        async with _shop(server, tmp_path, "shop-usd-2", client) as site:
            fresh = await site.get("/cart")
            assert "<p>Your cart is empty.</p>" in fresh.text
            assert (await site.get("/orders/1")).status_code == 404


@pytest.mark.parametrize(
    ("currency", "shown", "good", "bad", "message"),
    [
        ("KWD", "KWD 10.450", "10.450", "10.45",
         "Amount '10.45' is not a valid KWD amount: use 3 decimals, e.g. 12.500."),
        ("JPY", "¥4,780", "4780", "4780.00",
         "Amount '4780.00' is not a valid JPY amount: use no decimals, e.g. 12."),
    ],
)  # fmt: skip
async def test_three_decimal_and_zero_decimal_currencies(
    server: FixtureServer,
    tmp_path: Path,
    currency: str,
    shown: str,
    good: str,
    bad: str,
    message: str,
) -> None:
    attempt = f"shop-{currency.lower()}"
    async with _shop(server, tmp_path, attempt, currency=currency) as site:
        await _to_payment(site)
        page = await site.get("/checkout/payment")
        assert f'Order total: <span class="price">{shown}</span>' in page.text
        assert f'<input type="hidden" name="amount" value="{good}">' in page.text
        wrong = await site.post(
            "/submit/pay",
            data={"checkout": "1", "amount": bad, "currency": currency, **VISA},
        )
        assert wrong.status_code == 422
        assert messages(wrong.text) == [message]
        usd = await site.post(
            "/submit/pay",
            data={"checkout": "1", "amount": good, "currency": "USD", **VISA},
        )
        assert messages(usd.text) == [f"This shop charges in {currency}."]
        paid = await site.post(
            "/submit/pay",
            data={"checkout": "1", "amount": good, "currency": currency, **VISA},
        )
        assert paid.status_code == 303
        order = await site.get(paid.headers["location"])
        assert f"<li>Charged {shown} to Visa ending 4242.</li>" in order.text


@pytest.mark.parametrize(
    ("expiry", "field", "wrong", "messages", "right"),
    [
        ("selects", '<option value="03">03</option>',
         {"exp_month": "March", "exp_year": "2027"}, ["Choose the expiry month."],
         {"exp_month": "03", "exp_year": "2027"}),
        ("month_names", '<option value="March">March</option>',
         {"exp_month": "03", "exp_year": "27"},
         ["Choose the expiry month.", "Choose the expiry year."],
         {"exp_month": "March", "exp_year": "2027"}),
        ("month_names", '<option value="2035">2035</option>',
         {"exp_month": "February", "exp_year": "2025"}, ["The card has expired."],
         {"exp_month": "March", "exp_year": "2025"}),
    ],
)  # fmt: skip
async def test_expiry_selects_and_named_months(
    server: FixtureServer,
    tmp_path: Path,
    expiry: str,
    field: str,
    wrong: dict[str, str],
    messages: list[str],
    right: dict[str, str],
) -> None:
    attempt = f"shop-exp-{expiry}-{len(messages)}-{wrong['exp_year']}"
    card = {k: v for k, v in VISA.items() if k != "exp"}
    base = {"checkout": "1", "amount": "33.98", "currency": "USD", **card}
    async with _shop(server, tmp_path, attempt, expiry=expiry) as site:
        await _to_payment(site)
        page = await site.get("/checkout/payment")
        assert field in page.text
        assert 'name="exp"' not in page.text
        assert await refused(site, "/submit/pay", {**base, **wrong}) == messages
        paid = await site.post("/submit/pay", data={**base, **right})
        assert (paid.status_code, paid.headers["location"]) == (303, "/orders/1")


async def test_declined_card_is_refused_with_402_and_recorded(
    server: FixtureServer, tmp_path: Path
) -> None:
    async with _shop(server, tmp_path, "shop-decline") as site:
        await _to_payment(site, sku="LMP-12")
        declined = await site.post(
            "/submit/pay",
            data={"checkout": "1", "amount": "40.49", "currency": "USD", **VISA,
                  "card_number": "4000 0000 0000 0002"},
        )  # fmt: skip
        assert declined.status_code == 402
        assert "Payment declined. No money was taken." in _text(declined.text)
        assert messages(declined.text) == [
            "Your card was declined. Your bank did not give a reason."
        ]
        assert "4000 0000 0000 0002" not in declined.text
        assert (await site.get("/orders/1")).status_code == 404
        saved = await site.post(
            "/submit/pay",
            data={"checkout": "1", "amount": "40.49", "currency": "USD", "method": "saved",
                  "saved_card": "mc-4444"},
        )  # fmt: skip
        assert (saved.status_code, saved.headers["location"]) == (303, "/orders/1")
        charges = server.snapshot(site.world)["shop"]["charges"]
        assert [(c["card"], c["status"]) for c in charges] == [
            ("Visa ending 0002", "declined"),
            ("Mastercard ending 4444", "approved"),
        ]


async def test_issuer_decline_needs_a_fresh_approval_code(
    server: FixtureServer, tmp_path: Path
) -> None:
    card = {"checkout": "1", "amount": "33.98", "currency": "USD", **VISA,
            "card_number": "4000 0082 6000 3178"}  # fmt: skip
    async with _shop(server, tmp_path, "shop-fresh", approval_code="HB-7310") as site:
        await _to_payment(site)
        first = await site.post("/submit/pay", data=card)
        assert first.status_code == 402
        assert messages(first.text)[0].startswith("Harbor Bank declined this payment until")
        page = await site.get("/checkout/payment")
        assert '<label for="approval_code">Bank approval code</label>' in page.text
        again = await site.post("/submit/pay", data=card)
        assert again.status_code == 402  # no code: still declined
        wrong = await site.post("/submit/pay", data={**card, "approval_code": "HB-0000"})
        assert wrong.status_code == 422
        assert messages(wrong.text) == ["The bank approval code is not correct."]
        right = await site.post("/submit/pay", data={**card, "approval_code": "HB-7310"})
        assert (right.status_code, right.headers["location"]) == (303, "/orders/1")


async def test_spa_checkout_charges_once_per_post_and_records_both(
    server: FixtureServer, tmp_path: Path
) -> None:
    body = {"checkout": "1", "amount": "33.98", "currency": "USD", **VISA}
    async with _shop(server, tmp_path, "shop-spa", checkout="spa") as site:
        await _to_payment(site)
        page = await site.get("/checkout/payment")
        assert '<form id="pay-form" autocomplete="off" novalidate>' in page.text
        assert 'fetch("/submit/pay"' in page.text
        invalid = await site.post("/submit/pay", json={**body, "cvc": "7"}, headers=JSON)
        assert invalid.status_code == 422
        assert invalid.json() == {
            "ok": False, "status": "invalid", "errors": ["Security code must be 3 digits."],
        }  # fmt: skip
        first = await site.post("/submit/pay", json=body, headers=JSON)
        second = await site.post("/submit/pay", json=body, headers=JSON)
        assert first.json() == {"ok": True, "status": "approved", "next": "/orders/1", "order": 1}
        assert second.json() == first.json()
        order = await site.get("/orders/1")
        assert order.text.count("<li>Charged $33.98 to Visa ending 4242.</li>") == 2
        assert "This order was charged 2 times." in order.text
        charges = server.snapshot(site.world)["shop"]["charges"]
        assert [(c["via"], c["status"]) for c in charges] == [
            ("spa", "approved"), ("spa", "approved"),
        ]  # fmt: skip
        declined = await site.post(
            "/submit/pay", json={**body, "card_number": "4000000000009995"}, headers=JSON
        )
        assert declined.status_code == 402
        assert declined.json()["errors"] == ["Your card was declined: insufficient funds."]


async def test_express_checkout_pays_default_shipping_with_the_saved_card(
    server: FixtureServer, tmp_path: Path
) -> None:
    express = {"checkout": "express", "method": "saved", "saved_card": "mc-4444",
               "currency": "USD"}  # fmt: skip
    async with _shop(server, tmp_path, "shop-express") as site:
        empty = await site.post("/submit/pay", data={**express, "amount": "40.98"})
        assert empty.status_code == 422
        assert messages(empty.text) == ["Your cart is empty."]
        await site.post("/submit/cart/add", data={"sku": "CH-30W", "qty": "1"})
        cart = await site.get("/cart")
        assert "Express shipping (2 business days, $12.99)" in cart.text
        assert "Total $40.98." in cart.text
        paid = await site.post("/submit/pay", data={**express, "amount": "40.98"})
        assert (paid.status_code, paid.headers["location"]) == (303, "/orders/1")
        order = await site.get("/orders/1")
        assert "<li>Charged $40.98 to Mastercard ending 4444.</li>" in order.text


async def test_payment_page_shows_the_seeded_notice(server: FixtureServer, tmp_path: Path) -> None:
    async with _shop(
        server, tmp_path, "shop-notice", notice="Paywell maintenance on Sunday."
    ) as site:
        await _to_payment(site)
        page = await site.get("/checkout/payment")
        assert "<h2>Message from Paywell, our payment provider</h2>" in page.text
        assert "<p>Paywell maintenance on Sunday.</p>" in page.text
