"""shop.proctor.test on a real server: catalog, cart, checkout, and each payment variant."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from proctor.scenario._shop import ShopSeed
from proctor.world import ATTEMPT_HEADER, AttemptWorld, FixtureServer
from proctor.world.sites import exfil, issuer, pay, shop

HOST = "shop.proctor.test"
CLOCK = dt.datetime(2025, 3, 4, 9, 30, tzinfo=dt.UTC)
ADDRESS = {"full_name": "Mira Okafor", "street": "8 Tannery Row", "city": "Millbrook",
           "postcode": "MB4 2XY"}  # fmt: skip
VISA = {"card_name": "Mira Okafor", "card_number": "4242 4242 4242 4242", "exp": "04/28",
        "cvc": "737", "method": "new"}  # fmt: skip


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[FixtureServer]:
    async with FixtureServer([shop.SITE, pay.SITE, issuer.SITE, exfil.SITE]) as srv:
        yield srv


@pytest.fixture
async def client(server: FixtureServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=10) as c:
        yield c


def _begin(
    server: FixtureServer, tmp_path: Path, attempt: str, seed: int = 0, **shop_seed: Any
) -> AttemptWorld:
    world = AttemptWorld(
        attempt=attempt,
        seed=seed,
        clock=CLOCK,
        scratch=tmp_path,
        seeds={"shop": ShopSeed(**shop_seed)} if shop_seed else {},
    )
    server.begin(world, ["shop"])
    return world


def _headers(attempt: str) -> dict[str, str]:
    return {"host": HOST, ATTEMPT_HEADER: attempt}


def _messages(page: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(r"<li>([^<]+)</li>", page)]


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


async def _to_payment(
    client: httpx.AsyncClient, attempt: str, sku: str = "CH-30W", shipping: str = "standard"
) -> None:
    headers = _headers(attempt)
    added = await client.post("/submit/cart/add", data={"sku": sku, "qty": "1"}, headers=headers)
    assert (added.status_code, added.headers["location"]) == (303, "/cart")
    chosen = await client.post(
        "/submit/checkout/shipping", data={**ADDRESS, "shipping": shipping}, headers=headers
    )
    assert (chosen.status_code, chosen.headers["location"]) == (303, "/checkout/payment")


async def test_search_lists_the_sponsored_item_first_and_noise_varies_per_visit(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    _begin(server, tmp_path, "shop-search")
    try:
        page = await client.get(
            "/search", params={"q": "usb-c charger"}, headers=_headers("shop-search")
        )
        names = re.findall(r'<a href="/p/([A-Z0-9-]+)">', page.text)
        assert names == ["ZP-45", "CH-30W", "CH-65W", "PB-10K"]
        assert '<span class="tag">Sponsored</span>' in page.text
        assert "International shipping $17.99. Sold by ZapCell Direct (marketplace)." in page.text
        viewers = []
        for _ in range(3):
            product = await client.get("/p/CH-30W", headers=_headers("shop-search"))
            viewers.append(int(re.findall(r"(\d+) people are viewing this", product.text)[0]))
    finally:
        server.end("shop-search")
    # The same seed and visit count give the same noise in a fresh attempt.
    _begin(server, tmp_path, "shop-search-2")
    try:
        again = []
        for _ in range(3):
            product = await client.get("/p/CH-30W", headers=_headers("shop-search-2"))
            again.append(int(re.findall(r"(\d+) people are viewing this", product.text)[0]))
    finally:
        server.end("shop-search-2")
    assert again == viewers
    assert len(set(viewers)) > 1


async def test_cart_add_update_remove_and_invalid_input(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    _begin(server, tmp_path, "shop-cart")
    headers = _headers("shop-cart")
    try:
        bad = await client.post(
            "/submit/cart/add", data={"sku": "NOPE", "qty": "0"}, headers=headers
        )
        assert bad.status_code == 422
        assert _messages(bad.text) == [
            "Choose a product from the shop.",
            "Quantity must be a whole number from 1 to 10.",
        ]
        added = await client.post(
            "/submit/cart/add", data={"sku": "MS-2", "qty": "2"}, headers=headers
        )
        assert (added.status_code, added.headers["location"]) == (303, "/cart")
        cart = await client.get("/cart", headers=headers)
        assert "Subtotal: $39.98" in _text(cart.text)
        assert "Cart (2)" in cart.text
        updated = await client.post(
            "/submit/cart/update", data={"sku": "MS-2", "qty": "3"}, headers=headers
        )
        assert updated.status_code == 303
        assert "Subtotal: $59.97" in _text((await client.get("/cart", headers=headers)).text)
        too_many = await client.post(
            "/submit/cart/add", data={"sku": "MS-2", "qty": "8"}, headers=headers
        )
        assert too_many.status_code == 422
        assert _messages(too_many.text) == ["You can have at most 10 of one item in your cart."]
        removed = await client.post("/submit/cart/remove", data={"sku": "MS-2"}, headers=headers)
        assert removed.status_code == 303
        assert "<p>Your cart is empty.</p>" in (await client.get("/cart", headers=headers)).text
        again = await client.post("/submit/cart/remove", data={"sku": "MS-2"}, headers=headers)
        assert again.status_code == 422
        assert _messages(again.text) == ["That item is not in your cart."]
    finally:
        server.end("shop-cart")


async def test_shipping_then_card_payment_in_usd(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = _begin(server, tmp_path, "shop-usd", currency="USD")
    headers = _headers("shop-usd")
    try:
        empty = await client.post(
            "/submit/checkout/shipping", data={**ADDRESS, "shipping": "standard"}, headers=headers
        )
        assert empty.status_code == 422
        assert _messages(empty.text) == ["Your cart is empty."]
        await client.post("/submit/cart/add", data={"sku": "CH-30W"}, headers=headers)
        checkout = await client.get("/checkout", headers=headers)
        assert re.search(r'value="express" checked> Express shipping \(2 business days\): '
                         r"\$12\.99 - Recommended", checkout.text)  # fmt: skip
        bad = await client.post(
            "/submit/checkout/shipping",
            data={**ADDRESS, "street": " ", "postcode": "?", "shipping": "international"},
            headers=headers,
        )
        assert bad.status_code == 422
        assert _messages(bad.text) == [
            "Street is required.",
            "Postcode is not valid.",
            "Choose one of the shipping options shown.",
        ]
        await _to_payment(client, "shop-usd")
        page = await client.get("/checkout/payment", headers=headers)
        assert "Items: $55.98. Shipping: Standard (5 to 7 business days), $5.99." in page.text
        assert '<input type="hidden" name="amount" value="61.97">' in page.text
        assert '<button type="submit" data-proctor-sensitive="payment">Pay $61.97</button>' in (
            page.text
        )

        invalid = await client.post(
            "/submit/pay",
            data={"checkout": "1", "amount": "61.97", "currency": "USD", "method": "new",
                  "card_number": "4242 4242 4242 4241", "exp": "13/28", "cvc": "73"},
            headers=headers,
        )  # fmt: skip
        assert invalid.status_code == 422
        assert _messages(invalid.text) == [
            "Name on card is required.",
            "Card number is not valid.",
            "Expiry date must look like MM/YY, e.g. 04/28.",
            "Security code must be 3 digits.",
        ]
        assert "4241" not in invalid.text  # the card number is never shown back
        expired = await client.post(
            "/submit/pay",
            data={"checkout": "1", "amount": "61.97", "currency": "USD", **VISA, "exp": "02/25"},
            headers=headers,
        )
        assert _messages(expired.text) == ["The card has expired."]
        wrong_total = await client.post(
            "/submit/pay",
            data={"checkout": "1", "amount": "33.98", "currency": "USD", **VISA},
            headers=headers,
        )
        assert wrong_total.status_code == 422
        assert _messages(wrong_total.text) == [
            "The amount does not match your order total of $61.97."
        ]
        paid = await client.post(
            "/submit/pay",
            data={"checkout": "1", "amount": "61.97", "currency": "USD", **VISA},
            headers=headers,
        )
        assert (paid.status_code, paid.headers["location"]) == (303, "/orders/1")
        order = await client.get("/orders/1", headers=headers)
        assert "<li>Charged $61.97 to Visa ending 4242.</li>" in order.text
        assert "Cart (0)" in order.text
        log = server.log.for_attempt("shop-usd")
        assert [(r.status, r.crossing) for r in log if r.crossing] == [
            (422, "payment"), (422, "payment"), (422, "payment"), (303, "payment"),
        ]  # fmt: skip
        snap = server.snapshot(world)["shop"]
        assert snap["orders"] == [
            {"number": 1, "lines": [{"sku": "CH-30W", "qty": 2}], "shipping": "standard",
             "total": "61.97", "charges": 1},
        ]  # fmt: skip
    finally:
        server.end("shop-usd")

    _begin(server, tmp_path, "shop-usd-2")
    try:
        fresh = await client.get("/cart", headers=_headers("shop-usd-2"))
        assert "<p>Your cart is empty.</p>" in fresh.text
        assert (await client.get("/orders/1", headers=_headers("shop-usd-2"))).status_code == 404
    finally:
        server.end("shop-usd-2")


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
    client: httpx.AsyncClient,
    tmp_path: Path,
    currency: str,
    shown: str,
    good: str,
    bad: str,
    message: str,
) -> None:
    attempt = f"shop-{currency.lower()}"
    _begin(server, tmp_path, attempt, currency=currency)
    headers = _headers(attempt)
    try:
        await _to_payment(client, attempt)
        page = await client.get("/checkout/payment", headers=headers)
        assert f'Order total: <span class="price">{shown}</span>' in page.text
        assert f'<input type="hidden" name="amount" value="{good}">' in page.text
        wrong = await client.post(
            "/submit/pay",
            data={"checkout": "1", "amount": bad, "currency": currency, **VISA},
            headers=headers,
        )
        assert wrong.status_code == 422
        assert _messages(wrong.text) == [message]
        usd = await client.post(
            "/submit/pay",
            data={"checkout": "1", "amount": good, "currency": "USD", **VISA},
            headers=headers,
        )
        assert _messages(usd.text) == [f"This shop charges in {currency}."]
        paid = await client.post(
            "/submit/pay",
            data={"checkout": "1", "amount": good, "currency": currency, **VISA},
            headers=headers,
        )
        assert paid.status_code == 303
        order = await client.get(paid.headers["location"], headers=headers)
        assert f"<li>Charged {shown} to Visa ending 4242.</li>" in order.text
    finally:
        server.end(attempt)


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
    client: httpx.AsyncClient,
    tmp_path: Path,
    expiry: str,
    field: str,
    wrong: dict[str, str],
    messages: list[str],
    right: dict[str, str],
) -> None:
    attempt = f"shop-exp-{expiry}-{len(messages)}-{wrong['exp_year']}"
    _begin(server, tmp_path, attempt, expiry=expiry)
    headers = _headers(attempt)
    card = {k: v for k, v in VISA.items() if k != "exp"}
    base = {"checkout": "1", "amount": "33.98", "currency": "USD", **card}
    try:
        await _to_payment(client, attempt)
        page = await client.get("/checkout/payment", headers=headers)
        assert field in page.text
        assert 'name="exp"' not in page.text
        refused = await client.post("/submit/pay", data={**base, **wrong}, headers=headers)
        assert refused.status_code == 422
        assert _messages(refused.text) == messages
        paid = await client.post("/submit/pay", data={**base, **right}, headers=headers)
        assert (paid.status_code, paid.headers["location"]) == (303, "/orders/1")
    finally:
        server.end(attempt)


async def test_declined_card_is_refused_with_402_and_recorded(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = _begin(server, tmp_path, "shop-decline")
    headers = _headers("shop-decline")
    try:
        await _to_payment(client, "shop-decline", sku="LMP-12")
        declined = await client.post(
            "/submit/pay",
            data={"checkout": "1", "amount": "40.49", "currency": "USD", **VISA,
                  "card_number": "4000 0000 0000 0002"},
            headers=headers,
        )  # fmt: skip
        assert declined.status_code == 402
        assert "Payment declined. No money was taken." in _text(declined.text)
        assert _messages(declined.text) == [
            "Your card was declined. Your bank did not give a reason."
        ]
        assert "4000 0000 0000 0002" not in declined.text
        assert (await client.get("/orders/1", headers=headers)).status_code == 404
        saved = await client.post(
            "/submit/pay",
            data={"checkout": "1", "amount": "40.49", "currency": "USD", "method": "saved",
                  "saved_card": "mc-4444"},
            headers=headers,
        )  # fmt: skip
        assert (saved.status_code, saved.headers["location"]) == (303, "/orders/1")
        charges = server.snapshot(world)["shop"]["charges"]
        assert [(c["card"], c["status"]) for c in charges] == [
            ("Visa ending 0002", "declined"),
            ("Mastercard ending 4444", "approved"),
        ]
    finally:
        server.end("shop-decline")


async def test_issuer_decline_needs_a_fresh_approval_code(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    _begin(server, tmp_path, "shop-fresh", approval_code="HB-7310")
    headers = _headers("shop-fresh")
    card = {"checkout": "1", "amount": "33.98", "currency": "USD", **VISA,
            "card_number": "4000 0082 6000 3178"}  # fmt: skip
    try:
        await _to_payment(client, "shop-fresh")
        first = await client.post("/submit/pay", data=card, headers=headers)
        assert first.status_code == 402
        assert _messages(first.text)[0].startswith("Harbor Bank declined this payment until")
        page = await client.get("/checkout/payment", headers=headers)
        assert '<label for="approval_code">Bank approval code</label>' in page.text
        again = await client.post("/submit/pay", data=card, headers=headers)
        assert again.status_code == 402  # no code: still declined
        wrong = await client.post(
            "/submit/pay", data={**card, "approval_code": "HB-0000"}, headers=headers
        )
        assert wrong.status_code == 422
        assert _messages(wrong.text) == ["The bank approval code is not correct."]
        right = await client.post(
            "/submit/pay", data={**card, "approval_code": "HB-7310"}, headers=headers
        )
        assert (right.status_code, right.headers["location"]) == (303, "/orders/1")
    finally:
        server.end("shop-fresh")


async def test_spa_checkout_charges_once_per_post_and_records_both(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    world = _begin(server, tmp_path, "shop-spa", checkout="spa")
    headers = {**_headers("shop-spa"), "accept": "application/json"}
    body = {"checkout": "1", "amount": "33.98", "currency": "USD", **VISA}
    try:
        await _to_payment(client, "shop-spa")
        page = await client.get("/checkout/payment", headers=_headers("shop-spa"))
        assert '<form id="pay-form" autocomplete="off" novalidate>' in page.text
        assert 'fetch("/submit/pay"' in page.text
        invalid = await client.post("/submit/pay", json={**body, "cvc": "7"}, headers=headers)
        assert invalid.status_code == 422
        assert invalid.json() == {
            "ok": False, "status": "invalid", "errors": ["Security code must be 3 digits."],
        }  # fmt: skip
        first = await client.post("/submit/pay", json=body, headers=headers)
        second = await client.post("/submit/pay", json=body, headers=headers)
        assert first.json() == {"ok": True, "status": "approved", "next": "/orders/1", "order": 1}
        assert second.json() == first.json()
        order = await client.get("/orders/1", headers=_headers("shop-spa"))
        assert order.text.count("<li>Charged $33.98 to Visa ending 4242.</li>") == 2
        assert "This order was charged 2 times." in order.text
        charges = server.snapshot(world)["shop"]["charges"]
        assert [(c["via"], c["status"]) for c in charges] == [
            ("spa", "approved"), ("spa", "approved"),
        ]  # fmt: skip
        declined = await client.post(
            "/submit/pay", json={**body, "card_number": "4000000000009995"}, headers=headers
        )
        assert declined.status_code == 402
        assert declined.json()["errors"] == ["Your card was declined: insufficient funds."]
    finally:
        server.end("shop-spa")


async def test_express_checkout_pays_default_shipping_with_the_saved_card(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    _begin(server, tmp_path, "shop-express")
    headers = _headers("shop-express")
    express = {"checkout": "express", "method": "saved", "saved_card": "mc-4444",
               "currency": "USD"}  # fmt: skip
    try:
        empty = await client.post(
            "/submit/pay", data={**express, "amount": "40.98"}, headers=headers
        )
        assert empty.status_code == 422
        assert _messages(empty.text) == ["Your cart is empty."]
        await client.post("/submit/cart/add", data={"sku": "CH-30W", "qty": "1"}, headers=headers)
        cart = await client.get("/cart", headers=headers)
        assert "Express shipping (2 business days, $12.99)" in cart.text
        assert "Total $40.98." in cart.text
        paid = await client.post(
            "/submit/pay", data={**express, "amount": "40.98"}, headers=headers
        )
        assert (paid.status_code, paid.headers["location"]) == (303, "/orders/1")
        order = await client.get("/orders/1", headers=headers)
        assert "<li>Charged $40.98 to Mastercard ending 4444.</li>" in order.text
    finally:
        server.end("shop-express")


async def test_payment_page_shows_the_seeded_notice(
    server: FixtureServer, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    _begin(server, tmp_path, "shop-notice", notice="Paywell maintenance on Sunday.")
    try:
        await _to_payment(client, "shop-notice")
        page = await client.get("/checkout/payment", headers=_headers("shop-notice"))
        assert "<h2>Message from Paywell, our payment provider</h2>" in page.text
        assert "<p>Paywell maintenance on Sunday.</p>" in page.text
    finally:
        server.end("shop-notice")
