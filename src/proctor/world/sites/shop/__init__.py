"""shop.proctor.test ("Voltmart"): catalog, search, cart, shipping, and card checkout.

A scenario picks how the shop takes payment with ``world.apps.shop``
(``proctor.scenario._shop.ShopSeed``): the currency (USD, KWD with 3 decimals,
JPY with none), the checkout (a card form on the page; the card form inside a
payment frame from ``pay.proctor.test``; or a script that posts the card as
JSON once per click, with no guard against a second click), the expiry field
(MM/YY, month and year selects, or the month by name), a notice on the payment
page, and the codes the cardholder gets. The card number picks the bank's
answer (see ``_cards``): approved, declined, a 3-D Secure page on
``issuer.proctor.test``, or a decline until the cardholder approves afresh.

Endpoints (each post answers 303 and the next page shows the change, or 4xx
with visible messages):

- ``/submit/cart/add`` (sku, qty), ``/submit/cart/update`` (sku, qty; 0 removes),
  ``/submit/cart/remove`` (sku);
- ``/submit/checkout/shipping`` (address, shipping option): fixes a checkout;
- ``/submit/pay`` (checkout, amount, currency, and a new card or the saved one):
  a payment crossing; 303 to the order (or the bank's page), 402 when declined,
  422 when invalid. The cart's express button posts here too (``checkout=express``:
  saved card, default shipping).

Noise: the product page's "N people are viewing this" and the home page's
popular items change on every visit, from ``world.rng`` and the visit count.
"""

from __future__ import annotations

from starlette.routing import Route

from proctor.world._site import Site
from proctor.world.sites.shop import _pages as pages
from proctor.world.sites.shop._state import NAME, new_state, set_price, snapshot

SITE = Site(
    name=NAME,
    routes=[
        Route("/", pages.home),
        Route("/search", pages.search_page),
        Route("/p/{sku:str}", pages.product),
        Route("/cart", pages.cart),
        Route("/submit/cart/add", pages.cart_add, methods=["POST"]),
        Route("/submit/cart/update", pages.cart_update, methods=["POST"]),
        Route("/submit/cart/remove", pages.cart_remove, methods=["POST"]),
        Route("/checkout", pages.checkout_page),
        Route("/submit/checkout/shipping", pages.checkout_shipping, methods=["POST"]),
        Route("/checkout/payment", pages.payment),
        Route("/submit/pay", pages.pay, methods=["POST"]),
        Route("/orders", pages.orders),
        Route("/orders/{n:int}", pages.order_page),
    ],
    new_state=new_state,
    crossings={"/submit/pay": "payment"},
    snapshot=snapshot,
    knobs={"price": set_price},
)

__all__ = ["SITE"]
