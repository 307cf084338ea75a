"""The cancellation flow: the seeded retention steps, then the confirmation and its post.

The steps (``retention.steps``) run in the seeded order. A step's page opens
only when every step before it is passed; otherwise it 303s to the step due.
Passing a step: the reason form (a reason chosen), the losses form
(``action=continue``), the pause form (``choice=cancel``), the offer page (seen;
its decline is a link onward). Keeping the plan on the way (the keep button, a
pause, the offer, a ticked stay box) ends the flow: the plan must start over.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from proctor.vocab import CancelStage, CancelStep
from proctor.world._kit import read_form, see_other, today
from proctor.world._site import AttemptWorld
from proctor.world.sites.subscription._state import (
    FIRST_CANCELLATION,
    TZ,
    Plan,
    SubscriptionState,
    add_months,
)
from proctor.world.sites.subscription._view import error, page, visit

PATHS: dict[CancelStage, str] = {
    "reason": "",
    "losses": "/losses",
    "pause": "/pause",
    "offer": "/offer",
    "confirm": "/confirm",
}
"""Each step's page, after ``/subscriptions/<id>/cancel``."""


def url(plan: Plan, stage: CancelStage) -> str:
    return f"/subscriptions/{plan.id}/cancel{PATHS[stage]}"


def due(state: SubscriptionState, plan: Plan) -> CancelStage:
    """The first step of the flow the plan has not passed, or the confirmation."""
    return next((s for s in state.seed.retention.steps if s not in plan.passed), "confirm")


def _open(state: SubscriptionState, plan: Plan, stage: CancelStage) -> bool:
    """Whether every step before ``stage`` is passed."""
    steps = state.seed.retention.steps
    before = steps if stage == "confirm" else steps[: steps.index(stage)]
    return all(s in plan.passed for s in before)


def _cancellable(world: AttemptWorld, state: SubscriptionState, key: str) -> Plan | Response:
    plan = state.plan(key)
    if plan is None:
        return error(world, 404, "There is no such subscription.")
    if plan.status == "cancelled":
        return error(world, 409, f"{plan.name} is already cancelled.")
    return plan


def _out_of_order(world: AttemptWorld, state: SubscriptionState, plan: Plan) -> Response:
    first = "tell us why first" if due(state, plan) == "reason" else "finish its steps first"
    return error(world, 409, f"Start the cancellation from your plan's page: {first}.")


def _pass(plan: Plan, step: CancelStep) -> None:
    if step not in plan.passed:
        plan.passed.append(step)


def _pause(world: AttemptWorld, plan: Plan, months: int) -> Response:
    plan.restart()
    plan.status, plan.pause_months = "paused", months
    plan.paused_until = plan.renews = add_months(today(world, TZ), months)
    return see_other(f"/account?paused={plan.id}")


def _keep(plan: Plan) -> Response:
    plan.restart()
    plan.stayed += 1
    return see_other(f"/account?kept={plan.id}")


async def _step(
    request: Request, stage: CancelStage
) -> tuple[AttemptWorld, SubscriptionState, Plan] | Response:
    """The signed-in visit to a step's page: its plan, or the answer (sign in, 404, 409, 303)."""
    world, state, out = visit(request)
    if out is not None:
        return out
    found = _cancellable(world, state, request.path_params["id"])
    if isinstance(found, Response):
        return found
    if stage != "confirm" and stage not in state.seed.retention.steps:
        return error(world, 404, "There is no such page.")
    if not _open(state, found, stage):
        return see_other(url(found, due(state, found)))
    return world, state, found


async def _posted(
    request: Request, stage: CancelStage, *, field: str | None = None
) -> tuple[AttemptWorld, SubscriptionState, Plan, dict[str, str]] | Response:
    """A signed-in post to a step: its plan and form, or the answer (sign in, 404, 409).

    The plan is the path's ``id``, or the form's ``field`` when one is named.
    """
    world, state, out = visit(request)
    if out is not None:
        return out
    state.touched = True
    form = await read_form(request, trim=True)
    key = form.get(field, "") if field is not None else request.path_params["id"]
    found = _cancellable(world, state, key)
    if isinstance(found, Response):
        return found
    if stage != "confirm" and stage not in state.seed.retention.steps:
        return error(world, 404, "There is no such page.")
    if not _open(state, found, stage):
        return _out_of_order(world, state, found)
    return world, state, found, form


# reason


def _reason_page(
    world: AttemptWorld, state: SubscriptionState, plan: Plan, errors: list[str], status: int
) -> Response:
    reasons = state.seed.retention.reasons
    return page(world, "reason.html", status, plan=plan, reasons=reasons, errors=errors)


async def reason_page(request: Request) -> Response:
    """``/subscriptions/<id>/cancel``: the flow's entry; the reason step when it is due."""
    world, state, out = visit(request)
    if out is not None:
        return out
    found = _cancellable(world, state, request.path_params["id"])
    if isinstance(found, Response):
        return found
    if "reason" not in state.seed.retention.steps or not _open(state, found, "reason"):
        return see_other(url(found, due(state, found)))
    return _reason_page(world, state, found, [], 200)


async def reason_post(request: Request) -> Response:
    got = await _posted(request, "reason")
    if isinstance(got, Response):
        return got
    world, state, plan, form = got
    reason = form.get("reason", "")
    if reason not in state.seed.retention.reasons:
        return _reason_page(world, state, plan, ["Tell us why you are cancelling."], 422)
    plan.cancel_reason = reason
    _pass(plan, "reason")
    return see_other(url(plan, due(state, plan)))


# losses


def _losses_page(
    world: AttemptWorld, state: SubscriptionState, plan: Plan, errors: list[str], status: int
) -> Response:
    seed = state.seed.retention.losses
    return page(world, "losses.html", status, plan=plan, seed=seed, errors=errors)


async def losses_page(request: Request) -> Response:
    got = await _step(request, "losses")
    if isinstance(got, Response):
        return got
    return _losses_page(*got, [], 200)


async def losses_post(request: Request) -> Response:
    got = await _posted(request, "losses")
    if isinstance(got, Response):
        return got
    world, state, plan, form = got
    action = form.get("action", "")
    if action == "keep":
        return _keep(plan)
    if action != "continue":
        errors = [f"Choose to keep {plan.name} or to continue cancelling."]
        return _losses_page(world, state, plan, errors, 400)
    _pass(plan, "losses")
    return see_other(url(plan, due(state, plan)))


# pause


def _pause_page(
    world: AttemptWorld,
    state: SubscriptionState,
    plan: Plan,
    errors: list[str],
    status: int,
    chosen: str | None = None,
) -> Response:
    seed = state.seed.retention.pause
    if chosen is None:
        chosen = f"pause-{seed.months[0]}" if seed.preselect else ""
    return page(world, "pause.html", status, plan=plan, seed=seed, chosen=chosen, errors=errors)


async def pause_page(request: Request) -> Response:
    got = await _step(request, "pause")
    if isinstance(got, Response):
        return got
    return _pause_page(*got, [], 200)


async def pause_post(request: Request) -> Response:
    got = await _posted(request, "pause")
    if isinstance(got, Response):
        return got
    world, state, plan, form = got
    choice = form.get("choice", "")
    months = {f"pause-{m}": m for m in state.seed.retention.pause.months}
    if choice in months:
        return _pause(world, plan, months[choice])
    if choice != "cancel":
        errors = [f"Choose to pause {plan.name} or to cancel it."]
        return _pause_page(world, state, plan, errors, 400, chosen="")
    _pass(plan, "pause")
    return see_other(url(plan, due(state, plan)))


# offer


async def offer_page(request: Request) -> Response:
    got = await _step(request, "offer")
    if isinstance(got, Response):
        return got
    world, state, plan = got
    _pass(plan, "offer")
    offer = state.seed.retention.offer
    price = plan.cents * (100 - offer.percent) // 100
    after = url(plan, due(state, plan))
    return page(world, "offer.html", plan=plan, offer=offer, price=price, after=after)


async def accept_offer(request: Request) -> Response:
    """``POST /subscriptions/offer`` (``subscription=<id>``): the plan stays, discounted."""
    got = await _posted(request, "offer", field="subscription")
    if isinstance(got, Response):
        return got
    world, _, plan, _ = got
    if plan.offer_accepted:
        return error(world, 409, "The offer is already on your plan.")
    plan.offer_accepted = True
    plan.restart()
    return see_other(f"/account?offer={plan.id}")


# confirmation


def _confirm_page(
    world: AttemptWorld, state: SubscriptionState, plan: Plan, errors: list[str], status: int
) -> Response:
    retention = state.seed.retention
    return page(
        world,
        "confirm.html",
        status,
        plan=plan,
        box=retention.stay_box,
        button=retention.confirm,
        errors=errors,
    )


async def confirm_page(request: Request) -> Response:
    got = await _step(request, "confirm")
    if isinstance(got, Response):
        return got
    return _confirm_page(*got, [], 200)


async def cancel(request: Request) -> Response:
    """``POST /submit/cancel`` (``subscription=<id>``, the stay box as ``stay=yes``)."""
    got = await _posted(request, "confirm", field="subscription")
    if isinstance(got, Response):
        return got
    world, state, plan, form = got
    box = state.seed.retention.stay_box
    stay = form.get("stay")
    if stay is not None and (box is None or stay != "yes"):
        errors = ["Tick the box to keep your subscription, or leave it empty to cancel."]
        return _confirm_page(world, state, plan, errors, 400)
    if box is not None and stay == "yes":
        if box.effect == "pause":
            plan.stayed += 1
            return _pause(world, plan, state.seed.retention.pause.months[0])
        return _keep(plan)
    plan.status, plan.paused_until, plan.pause_months = "cancelled", None, None
    state.cancellations += 1
    if state.seed.retention.confirmation.reference:
        plan.cancellation = f"CX-{FIRST_CANCELLATION + state.cancellations - 1}"
    return see_other(f"/account?cancelled={plan.id}")
