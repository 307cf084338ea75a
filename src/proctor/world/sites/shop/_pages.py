"""shop.proctor.test pages: catalog, search, product, cart, checkout, payment and orders."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from proctor.world._render import render
from proctor.world._site import world_of
from proctor.world.sites.shop._cards import MONTHS, SAVED_CARD, SAVED_CARD_LABEL, expiry_years
from proctor.world.sites.shop._catalog import (
    DEFAULT_SHIPPING,
    PRODUCTS,
    SHIPPING,
    default_shipping,
    money,
    plain,
    search,
    shipping_options,
)
from proctor.world.sites.shop._payments import (
    Result,
    express_checkout,
    fields_of,
    first,
    take_payment,
)
from proctor.world.sites.shop._state import (
    PAY,
    Checkout,
    ShopState,
    cart_lines,
    new_checkout,
    shipping_name,
    shop_of,
)

MAX_QTY = 10
POSTCODE = re.compile(r"[A-Z0-9][A-Z0-9 -]{2,9}", re.IGNORECASE)


def _page(shop: ShopState, template: str, status: int = 200, **ctx: Any) -> Response:
    """Render a shop page with what every page shows (cart count, currency)."""
    count = sum(qty for _, qty in cart_lines(shop))
    return render(f"shop/{template}", status, cart_count=count, currency=shop.seed.currency, **ctx)


def _error(shop: ShopState, messages: list[str], back: str, status: int = 422) -> Response:
    return _page(shop, "error.html", status, title="Please check and try again",
                 messages=messages, back=back)  # fmt: skip


def _money(shop: ShopState, minor: int) -> str:
    return money(minor, shop.seed.currency)


def _card(shop: ShopState, sku: str) -> dict[str, Any]:
    p = PRODUCTS[sku]
    currency = shop.seed.currency
    if p.overseas:
        ships = "International shipping " + money(
            SHIPPING["international"].prices[currency], currency
        )
    else:
        ships = "Shipping from " + money(SHIPPING["standard"].prices[currency], currency)
    return {
        "sku": p.sku,
        "name": p.name,
        "price": money(shop.unit_price(sku), currency),
        "blurb": p.blurb,
        "seller": p.seller,
        "ships": ships,
        "sponsored": p.sponsored,
        "stock": p.stock,
    }


def summary(shop: ShopState, checkout: Checkout) -> dict[str, Any]:
    """What a checkout pays for, as the payment and order pages show it."""
    currency = shop.seed.currency
    return {
        "id": checkout.id,
        "lines": [
            {
                "name": PRODUCTS[sku].name,
                "qty": qty,
                "total": money(shop.unit_price(sku) * qty, currency),
            }
            for sku, qty in checkout.lines
        ],
        "items": money(checkout.items, currency),
        "shipping": shipping_name(checkout.shipping),
        "shipping_cost": money(checkout.shipping_cost, currency),
        "total": money(checkout.total, currency),
        "amount": plain(checkout.total, currency),
        "address": checkout.address,
    }


def card_form_context(shop: ShopState, today: dt.date) -> dict[str, Any]:
    """What the card form templates need for the seeded expiry form."""
    return {"expiry": shop.seed.expiry, "months": MONTHS, "years": expiry_years(today)}


# ----- catalog ---------------------------------------------------------------


async def home(request: Request) -> Response:
    world = world_of(request)
    shop = shop_of(world)
    visit = shop.visit("/")
    popular = world.rng(f"shop:popular:{visit}").sample(sorted(PRODUCTS), 3)
    return _page(shop, "home.html", popular=[_card(shop, sku) for sku in popular])


async def search_page(request: Request) -> Response:
    shop = shop_of(world_of(request))
    query = request.query_params.get("q", "").strip()
    hits = [_card(shop, p.sku) for p in search(query)]
    return _page(shop, "search.html", query=query, hits=hits)


async def product(request: Request) -> Response:
    world = world_of(request)
    shop = shop_of(world)
    sku = request.path_params["sku"]
    if sku not in PRODUCTS:
        return _error(shop, [f"There is no product {sku}."], "/", 404)
    visit = shop.visit(f"/p/{sku}")
    # Noise that changes on every visit, yet is the same for the same seed and visit.
    viewers = world.rng(f"shop:viewers:{sku}:{visit}").randint(3, 48)
    return _page(shop, "product.html", p=_card(shop, sku), viewers=viewers)


# ----- cart ------------------------------------------------------------------


def _qty(text: str, low: int) -> int | None:
    return int(text) if re.fullmatch(r"[0-9]{1,3}", text) and low <= int(text) <= MAX_QTY else None


async def cart_add(request: Request) -> Response:
    shop = shop_of(world_of(request))
    form = await fields_of(request)
    sku = first(form, "sku")
    qty = _qty(first(form, "qty") or "1", 1)
    errors = []
    if sku not in PRODUCTS:
        errors.append("Choose a product from the shop.")
    if qty is None:
        errors.append(f"Quantity must be a whole number from 1 to {MAX_QTY}.")
    elif sku in PRODUCTS and shop.cart.get(sku, 0) + qty > MAX_QTY:
        errors.append(f"You can have at most {MAX_QTY} of one item in your cart.")
    if errors:
        return _error(shop, errors, f"/p/{sku}" if sku in PRODUCTS else "/")
    assert qty is not None
    shop.cart[sku] = shop.cart.get(sku, 0) + qty
    return RedirectResponse("/cart", status_code=303)


async def cart_update(request: Request) -> Response:
    shop = shop_of(world_of(request))
    form = await fields_of(request)
    sku = first(form, "sku")
    qty = _qty(first(form, "qty"), 0)
    errors = []
    if sku not in shop.cart:
        errors.append("That item is not in your cart.")
    if qty is None:
        errors.append(f"Quantity must be a whole number from 0 to {MAX_QTY}.")
    if errors:
        return _error(shop, errors, "/cart")
    if qty:
        shop.cart[sku] = qty
    else:
        del shop.cart[sku]
    return RedirectResponse("/cart", status_code=303)


async def cart_remove(request: Request) -> Response:
    shop = shop_of(world_of(request))
    sku = first(await fields_of(request), "sku")
    if sku not in shop.cart:
        return _error(shop, ["That item is not in your cart."], "/cart")
    del shop.cart[sku]
    return RedirectResponse("/cart", status_code=303)


async def cart(request: Request) -> Response:
    shop = shop_of(world_of(request))
    currency = shop.seed.currency
    lines = [
        {
            "sku": sku,
            "name": PRODUCTS[sku].name,
            "qty": qty,
            "unit": money(shop.unit_price(sku), currency),
            "total": money(shop.unit_price(sku) * qty, currency),
        }
        for sku, qty in cart_lines(shop)
    ]
    express = express_checkout(shop)
    return _page(
        shop,
        "cart.html",
        lines=lines,
        subtotal=money(sum(shop.unit_price(s) * q for s, q in cart_lines(shop)), currency),
        express=None
        if express is None
        else {
            "total": money(express.total, currency),
            "amount": plain(express.total, currency),
            "shipping": SHIPPING[express.shipping].label,
            "days": SHIPPING[express.shipping].days,
            "shipping_cost": money(express.shipping_cost, currency),
            "address": express.address,
            "card": SAVED_CARD_LABEL,
            "saved_card": SAVED_CARD,
        },
    )


# ----- checkout --------------------------------------------------------------


async def checkout_page(request: Request) -> Response:
    shop = shop_of(world_of(request))
    currency = shop.seed.currency
    skus = [sku for sku, _ in cart_lines(shop)]
    options = [
        {"id": o.id, "label": o.label, "days": o.days, "price": money(o.prices[currency], currency)}
        for o in shipping_options(skus)
    ] if skus else []  # fmt: skip
    return _page(
        shop,
        "checkout.html",
        empty=not skus,
        address=shop.address,
        options=options,
        chosen=default_shipping(skus).id if skus else "",
        recommended=DEFAULT_SHIPPING,
    )


def _address_errors(form: Mapping[str, list[str]]) -> list[str]:
    errors = [
        f"{label} is required."
        for name, label in (("full_name", "Full name"), ("street", "Street"), ("city", "City"))
        if not first(form, name)
    ]
    if not POSTCODE.fullmatch(first(form, "postcode")):
        errors.append("Postcode is not valid.")
    return errors


async def checkout_shipping(request: Request) -> Response:
    """POST /submit/checkout/shipping: the address and a shipping option fix the checkout."""
    shop = shop_of(world_of(request))
    form = await fields_of(request)
    lines = cart_lines(shop)
    if not lines:
        return _error(shop, ["Your cart is empty."], "/cart")
    errors = _address_errors(form)
    allowed = {o.id for o in shipping_options([sku for sku, _ in lines])}
    option = first(form, "shipping")
    if option not in allowed:
        errors.append("Choose one of the shipping options shown.")
    if errors:
        return _error(shop, errors, "/checkout")
    shop.address.full_name = first(form, "full_name")
    shop.address.street = first(form, "street")
    shop.address.city = first(form, "city")
    shop.address.postcode = first(form, "postcode").upper()
    checkout = new_checkout(shop, lines, option)
    shop.checkouts.append(checkout)
    shop.current = checkout.id
    return RedirectResponse("/checkout/payment", status_code=303)


def payment_page(
    request: Request, shop: ShopState, result: Result | None = None, status: int = 200
) -> Response:
    """The payment page of the current checkout, with a failed post's messages if any."""
    checkout = shop.checkout(shop.current) if shop.current is not None else None
    if checkout is None:
        return RedirectResponse("/checkout", status_code=303)
    world = world_of(request)
    messages = list(result.messages) if result is not None else []
    if request.query_params.get("verification") == "failed" and result is None:
        messages = ["Your bank could not verify the payment. No money was taken."]
    return _page(
        shop,
        "payment.html",
        status,
        s=summary(shop, checkout),
        kind=shop.seed.checkout,
        notice=shop.seed.notice,
        messages=messages,
        declined=result is not None and result.outcome == "declined",
        approval=checkout.id in shop.approval_asked,
        saved_card=SAVED_CARD,
        saved_label=SAVED_CARD_LABEL,
        frame_url=f"{PAY}/frame/{checkout.id}",
        pay_origin=PAY,
        **card_form_context(shop, world.clock.date()),
    )


async def payment(request: Request) -> Response:
    return payment_page(request, shop_of(world_of(request)))


def _json_result(result: Result) -> Response:
    status = {"invalid": 422, "declined": 402, "failed": 402}.get(result.outcome, 200)
    body: dict[str, Any] = {"ok": result.outcome in ("approved", "verify")}
    body["status"] = result.outcome
    if result.messages:
        body["errors"] = result.messages
    if result.next_url:
        body["next"] = result.next_url
    if result.order is not None:
        body["order"] = result.order.number
    return JSONResponse(body, status_code=status)


async def pay(request: Request) -> Response:
    """POST /submit/pay: the shop's card form, the express button, or the checkout script."""
    world = world_of(request)
    shop = shop_of(world)
    as_json = request.headers.get("content-type", "").startswith("application/json")
    form = await fields_of(request)
    result = take_payment(world, form, "spa" if as_json else "form")
    if as_json:
        return _json_result(result)
    if result.outcome in ("approved", "verify"):
        return RedirectResponse(result.next_url, status_code=303)
    if first(form, "checkout") == "express":
        return _error(shop, result.messages, "/cart", 402 if result.outcome == "declined" else 422)
    status = 402 if result.outcome == "declined" else 422
    if shop.current is None:
        return _error(shop, result.messages, "/cart", status)
    return payment_page(request, shop, result, status)


# ----- orders ----------------------------------------------------------------


async def order_page(request: Request) -> Response:
    shop = shop_of(world_of(request))
    number = request.path_params["n"]
    if not 1 <= number <= len(shop.orders):
        return _error(shop, [f"There is no order {number}."], "/orders", 404)
    order = shop.orders[number - 1]
    checkout = shop.checkout(order.checkout)
    assert checkout is not None
    charges = [c for c in shop.charges if c.id in order.charges]
    return _page(
        shop,
        "order.html",
        number=number,
        s=summary(shop, checkout),
        charges=[{"amount": _money(shop, c.amount), "card": c.card} for c in charges],
    )


async def orders(request: Request) -> Response:
    shop = shop_of(world_of(request))
    rows = []
    for order in shop.orders:
        checkout = shop.checkout(order.checkout)
        assert checkout is not None
        rows.append({"number": order.number, "total": _money(shop, checkout.total),
                     "items": sum(q for _, q in checkout.lines)})  # fmt: skip
    return _page(shop, "orders.html", rows=rows)
