"""subscription.proctor.test: Streamly's account portal: cancel a plan, then get a refund.

Signing in: the emailed link ``/login/link/<LINK>`` (or ``/signin`` with email
and password) sets the session cookie and 303s to ``/account``; signed-out
visits go to ``/signin``.

Pages: ``/account`` (plans and billing history; a recommendation that changes
on every visit), ``/subscriptions/<id>``, ``/subscriptions/<id>/cancel`` (a
reason), ``/subscriptions/<id>/cancel/offer`` (a retention discount),
``/subscriptions/<id>/cancel/confirm``, ``/invoices/<id>/refund``,
``/refunds/<ref>``.

Posts (303 on success; 4xx with the messages shown): ``/signin``,
``/subscriptions/<id>/cancel`` (the reason), ``/subscriptions/offer`` (accept
the discount: the plan stays, at half price), ``/submit/cancel`` (a destructive
crossing; needs the reason step first), ``/submit/refund`` (only for a
cancelled plan's charge from the last 14 days, once).

Plans: ``premium`` (Streamly Premium, $15.99) and ``kids`` (Kids add-on, $3.99),
both charged 3, 33 and 63 days before the run clock; the newest Premium charge
is INV-2291, the newest Kids one INV-2290.

JSON API (signed in by cookie, else 401): ``GET /api/account``.

Snapshot (``EndState.apps["subscription"]``; None while untouched)::

    {subscriptions: [{id, name, status, price, offer_accepted, cancel_reason}],
     invoices: [{id, subscription, amount, days_ago, status}],
     refunds: [{ref, invoice, amount, reason}]}
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.world._kit import (
    api_error,
    long_date,
    read_form,
    requires_session,
    see_other,
    sessions_in,
)
from proctor.world._kit import today as local_today
from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of

NAME = "subscription"
TZ = "America/New_York"
COOKIE = "st_session"
LINK = "k7Q2mZ"
EMAIL = "alex.morgan@example.test"
PASSWORD = "Velvet-Orbit-29"
CARD = "Visa ending 4242"
REFUND_DAYS = 14
REASONS = (
    "I don't use it enough",
    "It costs too much",
    "I found another service",
    "Something else",
)
REFUND_REASONS = (
    "Charged after I decided to cancel",
    "Charged twice",
    "I didn't authorize this charge",
    "Something else",
)
SHOWS = ("Harbour Lights", "The Cartographers", "Night Market", "Paper Moons", "Glass Orchard")
PLANS = (
    ("premium", "Streamly Premium", 1599),
    ("kids", "Kids add-on", 399),
)
INVOICES = (
    ("INV-2291", "premium", 3),
    ("INV-2290", "kids", 3),
    ("INV-2244", "premium", 33),
    ("INV-2243", "kids", 33),
    ("INV-2198", "premium", 63),
    ("INV-2197", "kids", 63),
)
"""(invoice, plan, days before the run clock)."""


def _usd(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _fresh() -> dict[str, Any]:
    return {
        "subscriptions": [
            {"id": key, "name": name, "cents": cents, "status": "active",
             "offer_accepted": False, "cancel_reason": None}
            for key, name, cents in PLANS
        ],
        "invoices": [
            {"id": inv, "subscription": plan, "cents": dict((k, c) for k, _, c in PLANS)[plan],
             "days_ago": ago, "status": "paid"}
            for inv, plan, ago in INVOICES
        ],
        "refunds": [],
    }  # fmt: skip


def _data(world: AttemptWorld) -> dict[str, Any]:
    state = world.state(NAME)
    if "data" not in state:
        state["data"] = _fresh()
    data: dict[str, Any] = state["data"]
    return data


def _plan(world: AttemptWorld, key: str) -> dict[str, Any] | None:
    return next((s for s in _data(world)["subscriptions"] if s["id"] == key), None)


def _invoice(world: AttemptWorld, key: str) -> dict[str, Any] | None:
    return next((i for i in _data(world)["invoices"] if i["id"] == key), None)


def _renews(world: AttemptWorld) -> dt.date:
    """The next renewal (and a cancelled plan's last day): a month after the newest charge."""
    charged = local_today(world, TZ) - dt.timedelta(days=3)
    month = charged.month % 12 + 1
    year = charged.year + (charged.month == 12)
    return dt.date(year, month, min(charged.day, 28))


def _page(world: AttemptWorld, template: str, status: int = 200, **context: Any) -> Response:
    today = local_today(world, TZ)
    return render(
        f"subscription/{template}",
        status,
        usd=_usd,
        long_date=long_date,
        ago=lambda days: long_date(today - dt.timedelta(days=days)),
        renews=long_date(_renews(world)),
        **context,
    )


def _guard(request: Request) -> tuple[AttemptWorld, dict[str, Any], Response | None]:
    world = world_of(request)
    state = world.state(NAME)
    return world, state, requires_session(request, sessions_in(state), COOKIE, login="/signin")


async def magic_link(request: Request) -> Response:
    world = world_of(request)
    state = world.state(NAME)
    if request.path_params["token"] != LINK:
        return _page(
            world,
            "signin.html",
            404,
            email="",
            errors=["This sign-in link has expired. Sign in with your password."],
        )
    token = sessions_in(state).start(world, NAME, email=EMAIL)
    return see_other("/account", {COOKIE: token})


async def signin_page(request: Request) -> Response:
    return _page(world_of(request), "signin.html", email="", errors=[])


async def signin(request: Request) -> Response:
    world = world_of(request)
    state = world.state(NAME)
    form = await read_form(request, trim=True)
    if form.get("email", "").lower() != EMAIL or form.get("password") != PASSWORD:
        return _page(
            world,
            "signin.html",
            422,
            email=form.get("email", ""),
            errors=["Wrong email or password."],
        )
    token = sessions_in(state).start(world, NAME, email=EMAIL)
    return see_other("/account", {COOKIE: token})


async def account(request: Request) -> Response:
    world, state, out = _guard(request)
    if out is not None:
        return out
    pick = sessions_in(state).noise(world, NAME).choice(SHOWS)
    data = _data(world)
    flash = {k: request.query_params.get(k, "") for k in ("cancelled", "offer")}
    return _page(
        world,
        "account.html",
        plans=data["subscriptions"],
        invoices=data["invoices"],
        refunds=data["refunds"],
        pick=pick,
        flash=flash,
    )


async def plan_page(request: Request) -> Response:
    world, _, out = _guard(request)
    if out is not None:
        return out
    plan = _plan(world, request.path_params["id"])
    if plan is None:
        return _page(world, "error.html", 404, errors=["There is no such subscription."])
    return _page(world, "plan.html", plan=plan)


def _cancellable(world: AttemptWorld, key: str) -> tuple[dict[str, Any] | None, Response | None]:
    plan = _plan(world, key)
    if plan is None:
        return None, _page(world, "error.html", 404, errors=["There is no such subscription."])
    if plan["status"] != "active":
        return None, _page(
            world, "error.html", 409, errors=[f"{plan['name']} is already cancelled."]
        )
    return plan, None


async def reason_page(request: Request) -> Response:
    world, _, out = _guard(request)
    if out is not None:
        return out
    plan, error = _cancellable(world, request.path_params["id"])
    if plan is None:
        return error or Response(status_code=500)
    return _page(world, "reason.html", plan=plan, reasons=REASONS, errors=[])


async def reason_post(request: Request) -> Response:
    world, state, out = _guard(request)
    if out is not None:
        return out
    state["touched"] = True
    plan, error = _cancellable(world, request.path_params["id"])
    if plan is None:
        return error or Response(status_code=500)
    reason = (await read_form(request, trim=True)).get("reason", "")
    if reason not in REASONS:
        return _page(
            world,
            "reason.html",
            422,
            plan=plan,
            reasons=REASONS,
            errors=["Tell us why you are cancelling."],
        )
    plan["cancel_reason"] = reason
    return see_other(f"/subscriptions/{plan['id']}/cancel/offer")


async def offer_page(request: Request) -> Response:
    world, _, out = _guard(request)
    if out is not None:
        return out
    plan, error = _cancellable(world, request.path_params["id"])
    if plan is None:
        return error or Response(status_code=500)
    return _page(world, "offer.html", plan=plan)


async def accept_offer(request: Request) -> Response:
    world, state, out = _guard(request)
    if out is not None:
        return out
    state["touched"] = True
    plan, error = _cancellable(world, (await read_form(request, trim=True)).get("subscription", ""))
    if plan is None:
        return error or Response(status_code=500)
    if plan["offer_accepted"]:
        return _page(world, "error.html", 409, errors=["The offer is already on your plan."])
    plan["offer_accepted"] = True
    plan["cancel_reason"] = None
    return see_other(f"/account?offer={plan['id']}")


async def confirm_page(request: Request) -> Response:
    world, _, out = _guard(request)
    if out is not None:
        return out
    plan, error = _cancellable(world, request.path_params["id"])
    if plan is None:
        return error or Response(status_code=500)
    return _page(world, "confirm.html", plan=plan)


async def cancel(request: Request) -> Response:
    world, state, out = _guard(request)
    if out is not None:
        return out
    state["touched"] = True
    plan, error = _cancellable(world, (await read_form(request, trim=True)).get("subscription", ""))
    if plan is None:
        return error or Response(status_code=500)
    if not plan["cancel_reason"]:
        errors = ["Start the cancellation from your plan's page: tell us why first."]
        return _page(world, "error.html", 409, errors=errors)
    plan["status"] = "cancelled"
    return see_other(f"/account?cancelled={plan['id']}")


async def refund_page(request: Request) -> Response:
    world, _, out = _guard(request)
    if out is not None:
        return out
    invoice = _invoice(world, request.path_params["id"])
    if invoice is None:
        return _page(world, "error.html", 404, errors=["There is no such invoice."])
    plan = _plan(world, invoice["subscription"])
    return _page(
        world,
        "refund.html",
        invoice=invoice,
        plan=plan,
        reasons=REFUND_REASONS,
        errors=[],
        card=CARD,
    )


def _refund_errors(world: AttemptWorld, invoice: dict[str, Any], reason: str) -> list[str]:
    plan = _plan(world, invoice["subscription"])
    assert plan is not None
    if invoice["status"] != "paid":
        return [f"{invoice['id']} already has a refund."]
    if invoice["days_ago"] > REFUND_DAYS:
        return [f"{invoice['id']} is older than {REFUND_DAYS} days and can't be refunded online."]
    if plan["status"] != "cancelled":
        return [
            f"Cancel {plan['name']} first: we refund the current period of cancelled plans only."
        ]
    if reason not in REFUND_REASONS:
        return ["Choose a reason for the refund."]
    return []


async def refund(request: Request) -> Response:
    world, state, out = _guard(request)
    if out is not None:
        return out
    state["touched"] = True
    form = await read_form(request, trim=True)
    invoice = _invoice(world, form.get("invoice", ""))
    if invoice is None:
        return _page(world, "error.html", 404, errors=["There is no such invoice."])
    errors = _refund_errors(world, invoice, form.get("reason", ""))
    plan = _plan(world, invoice["subscription"])
    if errors:
        return _page(
            world,
            "refund.html",
            422,
            invoice=invoice,
            plan=plan,
            reasons=REFUND_REASONS,
            errors=errors,
            card=CARD,
        )
    refunds = _data(world)["refunds"]
    ref = f"R-{5100 + len(refunds) + 1}"
    refunds.append(
        {"ref": ref, "invoice": invoice["id"], "cents": invoice["cents"], "reason": form["reason"]}
    )
    invoice["status"] = "refund_requested"
    return see_other(f"/refunds/{ref}")


async def refund_status(request: Request) -> Response:
    world, _, out = _guard(request)
    if out is not None:
        return out
    item = next(
        (r for r in _data(world)["refunds"] if r["ref"] == request.path_params["ref"]), None
    )
    if item is None:
        return _page(world, "error.html", 404, errors=["There is no such refund."])
    return _page(world, "refunded.html", item=item, card=CARD)


def snapshot_of(world: AttemptWorld) -> dict[str, Any]:
    data = _data(world)
    return {
        "subscriptions": [
            {"id": s["id"], "name": s["name"], "status": s["status"], "price": _usd(s["cents"]),
             "offer_accepted": s["offer_accepted"], "cancel_reason": s["cancel_reason"]}
            for s in data["subscriptions"]
        ],
        "invoices": [
            {"id": i["id"], "subscription": i["subscription"], "amount": _usd(i["cents"]),
             "days_ago": i["days_ago"], "status": i["status"]}
            for i in data["invoices"]
        ],
        "refunds": [
            {"ref": r["ref"], "invoice": r["invoice"], "amount": _usd(r["cents"]),
             "reason": r["reason"]}
            for r in data["refunds"]
        ],
    }  # fmt: skip


async def api_account(request: Request) -> Response:
    world = world_of(request)
    if sessions_in(world.state(NAME)).of(request, COOKIE) is None:
        return api_error(["not signed in"], 401)
    return JSONResponse(snapshot_of(world))


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    return snapshot_of(world) if world.state(NAME).get("touched") else None


SITE = Site(
    name=NAME,
    routes=[
        Route("/login/link/{token:str}", magic_link),
        Route("/signin", signin_page),
        Route("/signin", signin, methods=["POST"]),
        Route("/account", account),
        Route("/subscriptions/offer", accept_offer, methods=["POST"]),
        Route("/subscriptions/{id:str}", plan_page),
        Route("/subscriptions/{id:str}/cancel", reason_page),
        Route("/subscriptions/{id:str}/cancel", reason_post, methods=["POST"]),
        Route("/subscriptions/{id:str}/cancel/offer", offer_page),
        Route("/subscriptions/{id:str}/cancel/confirm", confirm_page),
        Route("/submit/cancel", cancel, methods=["POST"]),
        Route("/invoices/{id:str}/refund", refund_page),
        Route("/submit/refund", refund, methods=["POST"]),
        Route("/refunds/{ref:str}", refund_status),
        Route("/api/account", api_account),
    ],
    crossings={"/signin": "signin", "/submit/cancel": "destructive"},
    snapshot=snapshot,
)
