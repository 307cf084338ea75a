"""shipping.proctor.test: choose a delivery speed whose labels differ from its values.

Each option's visible label is what a person reads ("Priority — 2 business
days"); its value is an internal code (``SHIP_P2``) that the server stores.
"Priority Plus — next day" (``SHIP_PP``) sits next to it as a near miss.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, Submission, all_of, required, world_of


@dataclass(frozen=True)
class Speed:
    """One delivery option: its stored code, what the customer reads, its price."""

    code: str
    label: str
    cents: int


SPEEDS = (
    Speed("SHIP_ECO", "Economy — 8 to 12 business days", 0),
    Speed("SHIP_STD", "Standard — 5 to 7 business days", 495),
    Speed("SHIP_P2", "Priority — 2 business days", 950),
    Speed("SHIP_PP", "Priority Plus — next day", 2400),
)
ORDER_ID = "NW-48213"
LINES = (("Walnut desk organiser", 3400), ("Linen notebook, A5 (2 pack)", 1850))


def _money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def _speed_rule(form: Mapping[str, list[str]]) -> list[str]:
    code = (form.get("delivery_speed") or [""])[0]
    if code and code not in {s.code for s in SPEEDS}:
        return ["Choose a delivery speed from the list."]
    return []


def _chosen(world: AttemptWorld) -> Submission | None:
    saves = [s for s in world.submissions if s.route == "shipping"]
    return saves[-1] if saves else None


def _speed(code: str) -> Speed:
    return next(s for s in SPEEDS if s.code == code)


@dataclass(frozen=True)
class Order:
    """The order as its pages show it, priced with a delivery speed (or none yet)."""

    order_id: str
    lines: list[tuple[str, str]]
    subtotal: str
    total: str


def _order(speed: Speed | None) -> Order:
    subtotal = sum(cents for _, cents in LINES)
    total = subtotal + (speed.cents if speed else 0)
    lines = [(name, _money(cents)) for name, cents in LINES]
    return Order(ORDER_ID, lines, _money(subtotal), _money(total))


async def delivery(request: Request) -> Response:
    sub = _chosen(world_of(request))
    current = _speed(sub.fields["delivery_speed"][0]) if sub else None
    options = [(s.code, f"{s.label} ({_money(s.cents)})") for s in SPEEDS]
    return render("shipping/delivery.html", options=options, current=current, order=_order(current))


async def confirmed(request: Request) -> Response:
    """Shadows the generic result page: the order with its new delivery speed."""
    world = world_of(request)
    sub_id = request.path_params["id"]
    sub = next((s for s in world.submissions if s.route == "shipping" and s.id == sub_id), None)
    if sub is None:
        return render(
            "_shared/error.html", 404, title="Not found", messages=["No such change."], back="/"
        )
    speed = _speed(sub.fields["delivery_speed"][0])
    return render(
        "shipping/confirmed.html", speed=speed, price=_money(speed.cents), order=_order(speed)
    )


SITE = Site(
    name="shipping",
    routes=[
        Route("/checkout/delivery", delivery),
        Route("/submitted/shipping/{id:int}", confirmed),
    ],
    forms={"shipping": all_of(required("delivery_speed"), _speed_rule)},
)
