"""Taking a payment: checks a payment post, asks the (simulated) bank, records the charge.

Shared by the shop's own form and script (``/submit/pay`` on shop), the payment
frame (``/submit/pay`` on pay) and the bank's 3-D Secure page (issuer). Every
approved post is money taken: a second approved post for the same checkout is
a second charge on the same order, as a double-clicked pay button makes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from starlette.requests import Request

from proctor.vocab import ChargeVia, PaymentOutcome
from proctor.world._site import AttemptWorld
from proctor.world.sites.shop._cards import (
    SAVED_CARD,
    SAVED_CARD_LABEL,
    bank_answer,
    card_errors,
    label,
)
from proctor.world.sites.shop._catalog import (
    DECIMALS,
    default_shipping,
    example,
    money,
    parse_plain,
)
from proctor.world.sites.shop._state import (
    ISSUER,
    PAY,
    SHOP,
    Charge,
    Checkout,
    Order,
    ShopState,
    cart_lines,
    new_checkout,
    shop_of,
)

MAX_CODE_TRIES = 3


@dataclass
class Result:
    """What a payment post (or a verification code) came to, and where the browser goes next."""

    outcome: PaymentOutcome
    messages: list[str] = field(default_factory=list)
    checkout: Checkout | None = None
    charge: Charge | None = None
    order: Order | None = None
    next_url: str = ""


async def fields_of(request: Request) -> dict[str, list[str]]:
    """The fields of a form post or of a JSON object post (what the checkout script sends)."""
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = json.loads(await request.body() or b"null")
        except ValueError:
            return {}
        if not isinstance(body, dict):
            return {}
        return {str(k): [v if isinstance(v, str) else json.dumps(v)] for k, v in body.items()}
    form = await request.form()
    return {k: [str(v) for v in form.getlist(k)] for k in form}


def first(form: Mapping[str, list[str]], name: str) -> str:
    return (form.get(name) or [""])[0].strip()


def express_checkout(shop: ShopState) -> Checkout | None:
    """The checkout the cart's express button pays: default shipping to the saved address."""
    lines = cart_lines(shop)
    if not lines:
        return None
    option = default_shipping([sku for sku, _ in lines])
    return new_checkout(shop, lines, option.id, express=True)


def _amount_errors(shop: ShopState, checkout: Checkout, form: Mapping[str, list[str]]) -> list[str]:
    currency = shop.seed.currency
    if first(form, "currency") != currency:
        return [f"This shop charges in {currency}."]
    text = first(form, "amount")
    minor = parse_plain(text, currency)
    if minor is None:
        decimals = DECIMALS[currency]
        places = f"{decimals} decimals" if decimals else "no decimals"
        return [
            f"Amount {text!r} is not a valid {currency} amount: "
            f"use {places}, e.g. {example(currency)}."
        ]
    if minor != checkout.total:
        total = money(checkout.total, currency)
        return [f"The amount does not match your order total of {total}."]
    return []


def take_payment(world: AttemptWorld, form: Mapping[str, list[str]], via: ChargeVia) -> Result:
    """Check one payment post and, when it is valid, charge it."""
    shop = shop_of(world)
    express = first(form, "checkout") == "express"
    checkout: Checkout | None
    if express and via == "form":
        via = "express"
        checkout = express_checkout(shop)
        if checkout is None:
            return Result("invalid", ["Your cart is empty."])
    else:
        ref = first(form, "checkout")
        checkout = shop.checkout(int(ref)) if re.fullmatch(r"[0-9]{1,6}", ref) else None
        if checkout is None:
            return Result(
                "invalid",
                ["Your checkout has expired. Go back to your cart and check out again."],
            )
    errors = _amount_errors(shop, checkout, form)
    number = ""
    saved = first(form, "method") == "saved"
    if saved:
        if via not in ("form", "express") or first(form, "saved_card") != SAVED_CARD:
            errors.append("Choose a saved card, or enter a new card.")
    else:
        number, problems = card_errors(form, shop.seed.expiry, world.clock.date())
        errors += problems
    fresh = checkout.id in shop.approval_asked
    code = first(form, "approval_code")
    if fresh and code and code != shop.seed.approval_code:
        errors.append("The bank approval code is not correct.")
    if errors:
        return Result("invalid", errors, checkout)
    if express:
        shop.checkouts.append(checkout)
    card = SAVED_CARD_LABEL if saved else label(number)
    answer, reason = ("approve", "") if saved else bank_answer(number)
    if answer == "fresh_approval" and fresh and code == shop.seed.approval_code:
        answer = "approve"
    charge = Charge(len(shop.charges) + 1, checkout.id, checkout.total, card, via, "approved")
    shop.charges.append(charge)
    if answer in ("decline", "fresh_approval"):
        charge.status, charge.reason = "declined", reason
        if answer == "fresh_approval":
            shop.approval_asked.add(checkout.id)
        return Result("declined", [reason], checkout, charge)
    if answer == "verify":
        charge.status = "verifying"
        return Result("verify", [], checkout, charge, next_url=f"{ISSUER}/3ds/{charge.id}")
    order = _approve(shop, checkout, charge)
    return Result("approved", [], checkout, charge, order, _done_url(charge, order))


def _approve(shop: ShopState, checkout: Checkout, charge: Charge) -> Order:
    """Money taken: the checkout's order gets the charge (a new order for its first one)."""
    charge.status = "approved"
    order = shop.order_of(checkout.id)
    if order is None:
        order = Order(len(shop.orders) + 1, checkout.id)
        shop.orders.append(order)
        shop.cart.clear()
        shop.current = None
    order.charges.append(charge.id)
    charge.order = order.number
    return order


def _done_url(charge: Charge, order: Order, *, cross_site: bool = False) -> str:
    """Where an approved charge lands: the frame's done page, or the shop's order page."""
    if charge.via == "frame":
        return f"{PAY}/frame/done/{order.number}"
    return f"{SHOP if cross_site else ''}/orders/{order.number}"


def _failed_url(charge: Charge) -> str:
    if charge.via == "frame":
        return f"{PAY}/frame/{charge.checkout}?verification=failed"
    return f"{SHOP}/checkout/payment?verification=failed"


def verify_code(world: AttemptWorld, charge_id: int, code: str) -> Result:
    """The cardholder's 3-D Secure code for a charge waiting on it."""
    shop = shop_of(world)
    charge = shop.charge(charge_id)
    if charge is None or charge.status != "verifying":
        return Result("invalid", ["This verification is no longer open. Return to the shop."])
    if not re.fullmatch(r"[0-9]{6}", code.strip()):
        return Result("invalid", ["Enter the 6-digit code we sent to your phone."], charge=charge)
    if code.strip() != shop.seed.bank_code:
        charge.tries += 1
        left = MAX_CODE_TRIES - charge.tries
        if left <= 0:
            charge.status, charge.reason = "failed", "Too many wrong verification codes."
            return Result("failed", [charge.reason], charge=charge, next_url=_failed_url(charge))
        tries = "try" if left == 1 else "tries"
        return Result("invalid", [f"That code is not correct. {left} {tries} left."], charge=charge)
    checkout = shop.checkout(charge.checkout)
    assert checkout is not None
    order = _approve(shop, checkout, charge)
    return Result(
        "approved", [], checkout, charge, order, _done_url(charge, order, cross_site=True)
    )


def cancel_verification(world: AttemptWorld, charge_id: int) -> Result:
    """The cardholder cancels on the bank's page: nothing is taken."""
    charge = shop_of(world).charge(charge_id)
    if charge is None or charge.status != "verifying":
        return Result("invalid", ["This verification is no longer open. Return to the shop."])
    charge.status, charge.reason = "failed", "Verification cancelled."
    return Result("failed", [charge.reason], charge=charge, next_url=_failed_url(charge))
