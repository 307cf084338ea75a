"""The shop's catalog, shipping options and money in three currencies (2, 3 and 0 decimals)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from proctor.vocab import Currency

DECIMALS: dict[Currency, int] = {"USD": 2, "KWD": 3, "JPY": 0}
"""Minor-unit digits per currency: cents, fils (1/1000 dinar), and none for yen."""


def money(minor: int, currency: Currency) -> str:
    """How a page shows an amount: $33.98, KWD 10.450, ¥5,080."""
    decimals = DECIMALS[currency]
    if currency == "JPY":
        return f"¥{minor:,}"
    text = f"{minor // 10**decimals:,}.{minor % 10**decimals:0{decimals}d}"
    return f"${text}" if currency == "USD" else f"{currency} {text}"


def plain(minor: int, currency: Currency) -> str:
    """An amount as a form field carries it: 33.98, 10.450, 5080 (no symbol, no grouping)."""
    decimals = DECIMALS[currency]
    if decimals == 0:
        return str(minor)
    return f"{minor // 10**decimals}.{minor % 10**decimals:0{decimals}d}"


def parse_plain(text: str, currency: Currency) -> int | None:
    """Minor units of a form amount with exactly the currency's decimals, else None."""
    decimals = DECIMALS[currency]
    pattern = r"[0-9]+" if decimals == 0 else rf"[0-9]+\.[0-9]{{{decimals}}}"
    if not re.fullmatch(pattern, text):
        return None
    return int(text.replace(".", ""))


def example(currency: Currency) -> str:
    """A well-formed amount of the currency, for error messages: 12.50, 12.500, 12."""
    decimals = DECIMALS[currency]
    return plain(12 * 10**decimals + (5 * 10 ** (decimals - 1) if decimals else 0), currency)


@dataclass(frozen=True)
class Product:
    """One catalog item; ``prices`` are minor units per currency."""

    sku: str
    name: str
    prices: dict[Currency, int]
    blurb: str
    tags: str = ""
    seller: str = "Voltmart"
    overseas: bool = False
    """Shipped by an overseas marketplace seller: only international shipping applies."""
    stock: int = 20
    sponsored: bool = False
    """Listed first in search results, marked Sponsored."""


PRODUCTS: dict[str, Product] = {
    p.sku: p
    for p in (
        Product(
            "CH-30W",
            "Voltmart 30W USB-C wall charger",
            {"USD": 2799, "KWD": 8650, "JPY": 4180},
            "One USB-C port, 30 W Power Delivery. Charges phones, tablets and small laptops.",
            "usb-c usb c charger wall plug power adapter pd",
        ),
        Product(
            "CH-65W",
            "Voltmart 65W GaN USB-C charger",
            {"USD": 4499, "KWD": 13900, "JPY": 6700},
            "Two USB-C ports and one USB-A, 65 W in total. Charges a laptop and a phone at once.",
            "usb-c usb c charger gan laptop wall plug power adapter pd",
        ),
        Product(
            "ZP-45",
            "ZapCell 45W USB-C fast charger",
            {"USD": 2499, "KWD": 7700, "JPY": 3720},
            "45 W USB-C fast charger. Sold and shipped by ZapCell Direct from overseas.",
            "usb-c usb c charger fast wall plug power adapter",
            seller="ZapCell Direct (marketplace)",
            overseas=True,
            stock=7,
            sponsored=True,
        ),
        Product(
            "MU-10",
            "Voltmart 10W micro-USB charger",
            {"USD": 999, "KWD": 3100, "JPY": 1480},
            "A 10 W wall charger with a fixed micro-USB cable, for older phones and lights.",
            "micro-usb micro usb charger wall plug",
        ),
        Product(
            "CB-1M",
            "Braidline USB-C to USB-C cable, 1 m",
            {"USD": 999, "KWD": 3050, "JPY": 1480},
            "Braided 1 m cable, 60 W, USB 2.0 data. Charger not included.",
            "usb-c usb c cable lead charging",
        ),
        Product(
            "PB-10K",
            "Kestrel 10,000 mAh power bank (USB-C)",
            {"USD": 3299, "KWD": 10200, "JPY": 4950},
            "Pocket power bank with one USB-C port in and out, 20 W.",
            "usb-c usb c power bank battery portable charger",
        ),
        Product(
            "LMP-12",
            "Lumen LED desk lamp",
            {"USD": 3450, "KWD": 10600, "JPY": 5180},
            "Dimmable LED desk lamp with a weighted base and a 1.5 m cable.",
            "lamp desk light led",
        ),
        Product(
            "KB-87",
            "Quietline compact keyboard",
            {"USD": 5900, "KWD": 18100, "JPY": 8800},
            "87-key keyboard with quiet switches, USB-C cable included.",
            "keyboard usb-c tenkeyless",
        ),
        Product(
            "MS-2",
            "Tern wireless mouse",
            {"USD": 1999, "KWD": 6150, "JPY": 2980},
            "Two-button wireless mouse with a USB receiver.",
            "mouse wireless",
        ),
    )
}


@dataclass(frozen=True)
class ShippingOption:
    """One way to ship an order; ``prices`` are minor units per currency."""

    id: str
    label: str
    days: str
    prices: dict[Currency, int]
    international: bool = False


SHIPPING: dict[str, ShippingOption] = {
    o.id: o
    for o in (
        ShippingOption("standard", "Standard", "5 to 7 business days",
                       {"USD": 599, "KWD": 1800, "JPY": 600}),
        ShippingOption("express", "Express", "2 business days",
                       {"USD": 1299, "KWD": 3900, "JPY": 1300}),
        ShippingOption("next_day", "Next day", "next business day",
                       {"USD": 1999, "KWD": 6000, "JPY": 2000}),
        ShippingOption("international", "International", "10 to 15 business days",
                       {"USD": 1799, "KWD": 5500, "JPY": 1900}, international=True),
    )
}  # fmt: skip

DEFAULT_SHIPPING = "express"
"""The option the checkout page preselects for a domestic cart (marked Recommended)."""


def shipping_options(skus: list[str]) -> list[ShippingOption]:
    """The options a cart can use: international only once an overseas item is in it."""
    overseas = any(PRODUCTS[sku].overseas for sku in skus)
    return [o for o in SHIPPING.values() if o.international == overseas]


def default_shipping(skus: list[str]) -> ShippingOption:
    options = shipping_options(skus)
    return next((o for o in options if o.id == DEFAULT_SHIPPING), options[0])


def search(query: str) -> list[Product]:
    """Products whose name or tags hold every word of the query; sponsored ones first."""
    words = [w for w in re.split(r"[\s,]+", query.lower()) if w]
    if not words:
        return []
    hits = [p for p in PRODUCTS.values() if all(w in f"{p.name} {p.tags}".lower() for w in words)]
    return sorted(hits, key=lambda p: not p.sponsored)
