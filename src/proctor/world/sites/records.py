"""records.proctor.test: an order ledger to read exactly (table, note, links, data-* attributes).

The ledger is fixed synthetic data so that a scenario can grade an answer, and
the values ``extract`` returned, against it. Flagging an order for review is a
generic ``/submit/flag`` post; the order's page then shows the flag.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from proctor.world._render import render
from proctor.world._site import Site, all_of, required, world_of

FLAG_ROUTE = "flag"
LEDGER_REFERENCE = "LDG-3307"
LEDGER_WAREHOUSE = "RTM-2"


@dataclass(frozen=True)
class Order:
    """One row of the ledger; amounts are exact decimals shown with two places."""

    id: str
    customer: str
    status: str
    amount: Decimal
    shipping: Decimal
    region: str


ORDERS: tuple[Order, ...] = (
    Order("HP-1041", "Mara Linden", "Paid", Decimal("128.40"), Decimal("9.95"), "north"),
    Order("HP-1042", "Oskar Brandt", "Refunded", Decimal("54.00"), Decimal("4.50"), "south"),
    Order("HP-1043", "Ines Okafor", "Paid", Decimal("312.75"), Decimal("0.00"), "west"),
    Order("HP-1044", "Theo Marchetti", "Cancelled", Decimal("89.99"), Decimal("6.25"), "north"),
    Order("HP-1045", "Yuki Sato", "Paid", Decimal("46.10"), Decimal("12.40"), "east"),
    Order("HP-1046", "Rafael Duarte", "Pending", Decimal("230.00"), Decimal("8.00"), "west"),
)
BY_ID = {o.id: o for o in ORDERS}


def _order_rule(form: Mapping[str, list[str]]) -> list[str]:
    order = (form.get("order") or [""])[0].strip()
    if order and order not in BY_ID:
        return [f"There is no order {order} in the ledger."]
    return []


def _flags(request: Request, order_id: str) -> list[str]:
    """Reasons this attempt has flagged the order for, oldest first."""
    return [
        (sub.fields.get("reason") or [""])[0]
        for sub in world_of(request).submissions
        if sub.route == FLAG_ROUTE and sub.fields.get("order") == [order_id]
    ]


async def ledger(request: Request) -> Response:
    flagged = {o.id for o in ORDERS if _flags(request, o.id)}
    return render(
        "records/ledger.html",
        orders=ORDERS,
        flagged=flagged,
        total=sum((o.amount for o in ORDERS), Decimal("0")),
        reference=LEDGER_REFERENCE,
        warehouse=LEDGER_WAREHOUSE,
    )


async def order_page(request: Request) -> Response:
    order = BY_ID.get(request.path_params["order"])
    if order is None:
        return render(
            "_shared/error.html",
            404,
            title="Order not found",
            messages=[f"There is no order {request.path_params['order']} in the ledger."],
            back="/orders",
        )
    return render("records/order.html", order=order, flags=_flags(request, order.id))


SITE = Site(
    name="records",
    routes=[Route("/orders", ledger), Route("/orders/{order:str}", order_page)],
    forms={FLAG_ROUTE: all_of(required("order", "reason"), _order_rule)},
)
