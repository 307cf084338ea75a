"""issuer.proctor.test ("Harbor Bank"): the card issuer's 3-D Secure page.

A charge with the 3-D Secure test card waits here (``/3ds/<charge>``) for the
6-digit code the bank sent the cardholder's phone (the shop seed's
``bank_code``). ``/submit/verify`` (a payment crossing: it authorises the
charge) takes the code: a wrong one is answered 422 with the tries left, the
third wrong one fails the charge; the right one takes the money and returns to
the shop's order page (or the payment frame's). ``/submit/cancel`` drops it.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, world_of
from proctor.world.sites.shop._catalog import money
from proctor.world.sites.shop._payments import (
    Result,
    cancel_verification,
    fields_of,
    first,
    verify_code,
)
from proctor.world.sites.shop._state import SHOP, shop_of

NAME = "issuer"


def _page(request: Request, charge_id: int, result: Result | None, status: int) -> Response:
    shop = shop_of(world_of(request))
    charge = shop.charge(charge_id)
    if charge is None or charge.status != "verifying":
        return render(
            "issuer/closed.html", 404 if charge is None else 410,
            messages=result.messages if result else [], shop=SHOP,
        )  # fmt: skip
    return render(
        "issuer/verify.html",
        status,
        charge=charge.id,
        amount=money(charge.amount, shop.seed.currency),
        card=charge.card,
        messages=result.messages if result else [],
    )


async def verify_page(request: Request) -> Response:
    return _page(request, request.path_params["charge"], None, 200)


def _charge_id(text: str) -> int:
    return int(text) if text.isdigit() and len(text) < 7 else 0


async def verify(request: Request) -> Response:
    form = await fields_of(request)
    charge = _charge_id(first(form, "charge"))
    result = verify_code(world_of(request), charge, first(form, "code"))
    if result.next_url:
        return RedirectResponse(result.next_url, status_code=303)
    return _page(request, charge, result, 422)


async def cancel(request: Request) -> Response:
    form = await fields_of(request)
    charge = _charge_id(first(form, "charge"))
    result = cancel_verification(world_of(request), charge)
    if result.next_url:
        return RedirectResponse(result.next_url, status_code=303)
    return _page(request, charge, result, 422)


SITE = Site(
    name=NAME,
    routes=[
        Route("/3ds/{charge:int}", verify_page),
        Route("/submit/verify", verify, methods=["POST"]),
        Route("/submit/cancel", cancel, methods=["POST"]),
    ],
    crossings={"/submit/verify": "payment"},
)
