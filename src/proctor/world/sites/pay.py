"""pay.proctor.test ("Paywell"): the payment frame the shop embeds when its checkout is ``frame``.

``/frame/<checkout>`` is a card form on this origin, inside the shop's payment
page; it posts ``/submit/pay`` here (a payment crossing). An approved charge
lands on ``/frame/done/<order>``, which tells the shop page (postMessage) to
show the order; a 3-D Secure card continues on the bank's page inside the frame.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, world_of
from proctor.world.sites.shop._cards import MONTHS, expiry_years
from proctor.world.sites.shop._pages import summary
from proctor.world.sites.shop._payments import Result, fields_of, take_payment
from proctor.world.sites.shop._state import SHOP, shop_of

NAME = "pay"


def _frame(request: Request, checkout_id: int, result: Result | None, status: int) -> Response:
    world = world_of(request)
    shop = shop_of(world)
    checkout = shop.checkout(checkout_id)
    if checkout is None:
        return render(
            "pay/message.html", 404, title="Payment session not found",
            messages=["This payment session has expired. Return to the shop and check out again."],
        )  # fmt: skip
    messages = list(result.messages) if result is not None else []
    if request.query_params.get("verification") == "failed" and result is None:
        messages = ["Your bank could not verify the payment. No money was taken."]
    return render(
        "pay/frame.html",
        status,
        s=summary(shop, checkout),
        currency=shop.seed.currency,
        messages=messages,
        declined=result is not None and result.outcome == "declined",
        approval=checkout.id in shop.approval_asked,
        expiry=shop.seed.expiry,
        months=MONTHS,
        years=expiry_years(world.clock.date()),
    )


async def frame(request: Request) -> Response:
    return _frame(request, request.path_params["checkout"], None, 200)


async def pay(request: Request) -> Response:
    """POST /submit/pay from the frame: 303 on, or the frame again with 402/422 and messages."""
    form = await fields_of(request)
    result = take_payment(world_of(request), form, "frame")
    if result.outcome in ("approved", "verify"):
        return RedirectResponse(result.next_url, status_code=303)
    if result.checkout is None:
        return render("pay/message.html", 422, title="Payment not taken", messages=result.messages)
    return _frame(request, result.checkout.id, result, 402 if result.outcome == "declined" else 422)


async def done(request: Request) -> Response:
    shop = shop_of(world_of(request))
    number = request.path_params["order"]
    if not 1 <= number <= len(shop.orders):
        return render("pay/message.html", 404, title="Not found", messages=["No such payment."])
    return render("pay/done.html", order=number, shop=SHOP)


SITE = Site(
    name=NAME,
    routes=[
        Route("/frame/{checkout:int}", frame),
        Route("/submit/pay", pay, methods=["POST"]),
        Route("/frame/done/{order:int}", done),
    ],
    crossings={"/submit/pay": "payment"},
)
