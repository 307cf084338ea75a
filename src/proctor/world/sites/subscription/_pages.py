"""Streamly's sign-in, account, plan and refund pages and posts, and the JSON API."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from proctor.vocab import RefundStatus
from proctor.world._kit import api_error, long_date, read_form, see_other
from proctor.world._site import world_of
from proctor.world.sites.subscription._state import (
    CARD,
    COOKIE,
    EMAIL,
    FIRST_REFUND,
    LINK,
    NAME,
    PASSWORD,
    SHOWS,
    Invoice,
    Plan,
    Refund,
    SubscriptionState,
    account_of,
    snapshot_of,
)
from proctor.world.sites.subscription._view import error, page, visit


async def magic_link(request: Request) -> Response:
    world = world_of(request)
    state = account_of(world)
    if request.path_params["token"] != LINK:
        errors = ["This sign-in link has expired. Sign in with your password."]
        return page(world, "signin.html", 404, email="", errors=errors)
    token = state.sessions.start(world, NAME, email=EMAIL)
    return see_other("/account", {COOKIE: token})


async def signin_page(request: Request) -> Response:
    return page(world_of(request), "signin.html", email="", errors=[])


async def signin(request: Request) -> Response:
    world = world_of(request)
    state = account_of(world)
    form = await read_form(request, trim=True)
    if form.get("email", "").lower() != EMAIL or form.get("password") != PASSWORD:
        errors = ["Wrong email or password."]
        return page(world, "signin.html", 422, email=form.get("email", ""), errors=errors)
    token = state.sessions.start(world, NAME, email=EMAIL)
    return see_other("/account", {COOKIE: token})


def discount(state: SubscriptionState, lead: str = "") -> str:
    """``50% off for 3 months`` (``lead="the next "``: for the next 3 months): the offer."""
    offer = state.seed.retention.offer
    months = f"{offer.months} month{'s' if offer.months > 1 else ''}"
    return f"{offer.percent}% off for {lead}{months}"


def _notices(request: Request, state: SubscriptionState) -> list[str]:
    """What the account page confirms, for each ``?cancelled=<plan>`` (and the like) that holds."""
    out: list[str] = []
    for key, value in request.query_params.multi_items():
        plan = state.plan(value)
        if plan is None:
            continue
        if key == "cancelled" and plan.status == "cancelled":
            out.append(_confirmation(state, plan))
        elif key == "offer" and plan.offer_accepted:
            out.append(f"Offer applied: {discount(state, 'the next ')}.")
        elif key == "paused" and plan.status == "paused" and plan.paused_until is not None:
            until = long_date(plan.paused_until)
            out.append(f"{plan.name} is paused until {until}. Billing resumes then.")
        elif key == "kept" and plan.status == "active":
            out.append(f"Good news: {plan.name} stays active.")
        elif key == "resumed" and plan.status == "active":
            out.append(f"{plan.name} is active again.")
    return out


def _confirmation(state: SubscriptionState, plan: Plan) -> str:
    shown = state.seed.retention.confirmation
    parts = [shown.message]
    if shown.access_until:
        parts.append(f"You can keep watching until {long_date(plan.renews)}.")
    if plan.cancellation is not None:
        parts.append(f"Cancellation number {plan.cancellation}.")
    return " ".join(parts)


async def account(request: Request) -> Response:
    world, state, out = visit(request)
    if out is not None:
        return out
    pick = state.sessions.noise(world, NAME).choice(SHOWS)
    return page(
        world,
        "account.html",
        plans=state.plans,
        invoices=state.invoices,
        refunds=state.refunds,
        names={p.id: p.name for p in state.plans},
        pick=pick,
        notices=_notices(request, state),
        discount=discount(state),
    )


async def plan_page(request: Request) -> Response:
    world, state, out = visit(request)
    if out is not None:
        return out
    plan = state.plan(request.path_params["id"])
    if plan is None:
        return error(world, 404, "There is no such subscription.")
    return page(world, "plan.html", plan=plan, discount=discount(state, "the next "))


async def resume(request: Request) -> Response:
    world, state, out = visit(request)
    if out is not None:
        return out
    state.touched = True
    plan = state.plan(request.path_params["id"])
    if plan is None:
        return error(world, 404, "There is no such subscription.")
    if plan.status != "paused":
        return error(world, 409, f"{plan.name} is not paused.")
    plan.status, plan.paused_until, plan.pause_months = "active", None, None
    return see_other(f"/account?resumed={plan.id}")


def _refund_form(
    request: Request, state: SubscriptionState, invoice: Invoice, errors: list[str], status: int
) -> Response:
    return page(
        world_of(request),
        "refund.html",
        status,
        invoice=invoice,
        plan=state.plan(invoice.plan),
        reasons=state.seed.refunds.reasons,
        errors=errors,
        card=CARD,
    )


async def refund_page(request: Request) -> Response:
    world, state, out = visit(request)
    if out is not None:
        return out
    invoice = state.invoice(request.path_params["id"])
    if invoice is None:
        return error(world, 404, "There is no such invoice.")
    return _refund_form(request, state, invoice, [], 200)


def _refund_errors(state: SubscriptionState, invoice: Invoice, reason: str) -> list[str]:
    policy = state.seed.refunds
    plan = state.plan(invoice.plan)
    assert plan is not None
    if invoice.status != "paid":
        return [f"{invoice.id} already has a refund."]
    if invoice.refund == "never":
        return [f"{invoice.id} can't be refunded online."]
    if invoice.refund == "window" and invoice.days_ago > policy.days:
        return [f"{invoice.id} is older than {policy.days} days and can't be refunded online."]
    if policy.after_cancel and plan.status != "cancelled":
        return [f"Cancel {plan.name} first: we refund the current period of cancelled plans only."]
    if reason not in policy.reasons:
        return ["Choose a reason for the refund."]
    return []


async def refund(request: Request) -> Response:
    world, state, out = visit(request)
    if out is not None:
        return out
    state.touched = True
    form = await read_form(request, trim=True)
    invoice = state.invoice(form.get("invoice", ""))
    if invoice is None:
        return error(world, 404, "There is no such invoice.")
    errors = _refund_errors(state, invoice, form.get("reason", ""))
    if errors:
        return _refund_form(request, state, invoice, errors, 422)
    instant = state.seed.refunds.issue == "instant"
    ref = f"R-{FIRST_REFUND + len(state.refunds)}"
    status: RefundStatus = "issued" if instant else "requested"
    state.refunds.append(Refund(ref, invoice.id, invoice.cents, form["reason"], status))
    invoice.status = "refunded" if instant else "refund_requested"
    return see_other(f"/refunds/{ref}")


async def refund_status(request: Request) -> Response:
    world, state, out = visit(request)
    if out is not None:
        return out
    item = state.refund(request.path_params["ref"])
    if item is None:
        return error(world, 404, "There is no such refund.")
    return page(world, "refunded.html", item=item, card=CARD)


async def api_account(request: Request) -> Response:
    world = world_of(request)
    if account_of(world).sessions.of(request, COOKIE) is None:
        return api_error(["not signed in"], 401)
    return JSONResponse(snapshot_of(world))
