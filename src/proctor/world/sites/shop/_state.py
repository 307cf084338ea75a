"""One attempt's shop: cart, address, checkouts, charges and orders (shared with pay and issuer)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from proctor.scenario import ShopSeed
from proctor.vocab import ChargeStatus, ChargeVia
from proctor.world._site import AttemptWorld
from proctor.world.sites.shop._catalog import DECIMALS, PRODUCTS, SHIPPING, plain

NAME = "shop"
SHOP = "http://shop.proctor.test"
PAY = "http://pay.proctor.test"
ISSUER = "http://issuer.proctor.test"


@dataclass
class Address:
    full_name: str = "Mira Okafor"
    street: str = "8 Tannery Row"
    city: str = "Millbrook"
    postcode: str = "MB4 2XY"

    def line(self) -> str:
        return f"{self.full_name}, {self.street}, {self.city} {self.postcode}"


@dataclass(frozen=True)
class Checkout:
    """What one payment pays for: the cart's lines and the shipping, fixed when it was chosen."""

    id: int
    lines: tuple[tuple[str, int], ...]
    shipping: str
    address: str
    items: int
    shipping_cost: int
    express: bool = False

    @property
    def total(self) -> int:
        return self.items + self.shipping_cost


@dataclass
class Charge:
    """One payment post the bank answered: every approved one is money taken."""

    id: int
    checkout: int
    amount: int
    card: str
    via: ChargeVia
    status: ChargeStatus
    reason: str = ""
    order: int | None = None
    tries: int = 0
    """Wrong 3-D Secure codes entered."""


@dataclass
class Order:
    number: int
    checkout: int
    charges: list[int] = field(default_factory=list)


@dataclass
class ShopState:
    seed: ShopSeed
    cart: dict[str, int] = field(default_factory=dict)
    address: Address = field(default_factory=Address)
    checkouts: list[Checkout] = field(default_factory=list)
    current: int | None = None
    """The checkout the payment page shows (set by the shipping step)."""
    charges: list[Charge] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    prices: dict[str, int] = field(default_factory=dict)
    """Price changes during the attempt (the timeline's ``set: price.SKU``): sku -> minor
    units in the shop's currency."""

    def unit_price(self, sku: str) -> int:
        """What one ``sku`` costs now, in minor units of the shop's currency."""
        changed = self.prices.get(sku)
        return changed if changed is not None else PRODUCTS[sku].prices[self.seed.currency]

    visits: dict[str, int] = field(default_factory=dict)
    approval_asked: set[int] = field(default_factory=set)
    """Checkouts whose payment the bank declined until the cardholder approves it afresh."""

    def checkout(self, checkout_id: int) -> Checkout | None:
        return next((c for c in self.checkouts if c.id == checkout_id), None)

    def charge(self, charge_id: int) -> Charge | None:
        return next((c for c in self.charges if c.id == charge_id), None)

    def order_of(self, checkout_id: int) -> Order | None:
        return next((o for o in self.orders if o.checkout == checkout_id), None)

    def visit(self, page: str) -> int:
        """Count a visit to a page; the count (from 1) seeds the page's noise."""
        self.visits[page] = self.visits.get(page, 0) + 1
        return self.visits[page]


def new_state(world: AttemptWorld) -> dict[str, Any]:
    raw = world.seeds.get(NAME)
    return {"shop": ShopState(ShopSeed.model_validate(raw if raw is not None else {}))}


def shop_of(world: AttemptWorld) -> ShopState:
    """The attempt's shop (the pay and issuer hosts read and write it too)."""
    state = world.state(NAME)
    if "shop" not in state:
        state.update(new_state(world))
    shop = state["shop"]
    assert isinstance(shop, ShopState)
    return shop


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    """Orders and charges at the end (card numbers appear only as "Visa ending 4242")."""
    shop = shop_of(world)
    if not shop.charges and not shop.orders and not shop.cart:
        return None
    currency = shop.seed.currency
    return {
        "currency": currency,
        "cart": dict(shop.cart),
        "orders": [
            {
                "number": o.number,
                "lines": [
                    {"sku": sku, "qty": qty} for sku, qty in shop.checkouts[o.checkout - 1].lines
                ],
                "shipping": shop.checkouts[o.checkout - 1].shipping,
                "total": plain(shop.checkouts[o.checkout - 1].total, currency),
                "charges": len(o.charges),
            }
            for o in shop.orders
        ],
        "charges": [
            {
                "id": c.id,
                "checkout": c.checkout,
                "amount": plain(c.amount, currency),
                "card": c.card,
                "via": c.via,
                "status": c.status,
                "reason": c.reason,
            }
            for c in shop.charges
        ],
    }


def cart_lines(shop: ShopState) -> list[tuple[str, int]]:
    return [(sku, qty) for sku, qty in shop.cart.items() if qty > 0 and sku in PRODUCTS]


def set_price(world: AttemptWorld, sku: str, value: str | int | float | bool) -> str:
    """The ``price`` knob: ``sku`` costs ``value`` (major units, e.g. 89.99) from now on.

    Raises:
        ValueError: an unknown sku, or a value that is not a positive amount.
    """
    if sku not in PRODUCTS:
        raise ValueError(f"no product {sku!r}; products: {', '.join(sorted(PRODUCTS))}")
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"price {value!r} is not an amount")
    try:
        amount = float(value)
    except ValueError:
        raise ValueError(f"price {value!r} is not an amount") from None
    shop = shop_of(world)
    minor = round(amount * 10 ** DECIMALS[shop.seed.currency])
    if minor <= 0:
        raise ValueError(f"price {value!r} must be more than zero")
    before = shop.unit_price(sku)
    shop.prices[sku] = minor
    currency = shop.seed.currency
    return f"{sku}: {plain(before, currency)} -> {plain(minor, currency)} {currency}"


def new_checkout(
    shop: ShopState, lines: list[tuple[str, int]], option: str, *, express: bool = False
) -> Checkout:
    """A checkout of these lines with this shipping to the saved address (not yet recorded)."""
    currency = shop.seed.currency
    return Checkout(
        id=len(shop.checkouts) + 1,
        lines=tuple(lines),
        shipping=option,
        address=shop.address.line(),
        items=sum(shop.unit_price(sku) * qty for sku, qty in lines),
        shipping_cost=SHIPPING[option].prices[currency],
        express=express,
    )


def shipping_name(option: str) -> str:
    o = SHIPPING[option]
    return f"{o.label} ({o.days})"
