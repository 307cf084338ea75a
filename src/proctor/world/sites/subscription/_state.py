"""Streamly's per-attempt state, built from ``world.apps.subscription``, and its snapshot."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from proctor.scenario import SubscriptionSeed
from proctor.vocab import CancelStep, InvoiceStatus, PlanKind, PlanStatus, RefundRule, RefundStatus
from proctor.world._kit import Sessions, money, today
from proctor.world._site import AttemptWorld

NAME = "subscription"
TZ = "America/New_York"
COOKIE = "st_session"
LINK = "k7Q2mZ"
EMAIL = "alex.morgan@example.test"
PASSWORD = "Velvet-Orbit-29"
CARD = "Visa ending 4242"
SHOWS = ("Harbour Lights", "The Cartographers", "Night Market", "Paper Moons", "Glass Orchard")
FIRST_REFUND = 5101
FIRST_CANCELLATION = 3001


def cents_of(price: str) -> int:
    """``"15.99"`` -> 1599."""
    dollars, cents = price.split(".")
    return int(dollars) * 100 + int(cents)


def usd(cents: int) -> str:
    """``$15.99``."""
    return money(cents, "$")


def add_months(day: dt.date, months: int) -> dt.date:
    """The same day ``months`` later (days past the 28th are taken as the 28th)."""
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, min(day.day, 28))


@dataclass
class Plan:
    """A plan or add-on, and where its cancellation flow stands."""

    id: str
    name: str
    kind: PlanKind
    cents: int
    renews: dt.date
    """The next renewal, and a cancelled plan's last day of access."""
    status: PlanStatus = "active"
    offer_accepted: bool = False
    cancel_reason: str | None = None
    passed: list[CancelStep] = field(default_factory=list)
    """The retention steps passed in the current cancellation, in order."""
    paused_until: dt.date | None = None
    pause_months: int | None = None
    stayed: int = 0
    """Times a retention step kept the plan (the keep button, the stay box)."""
    cancellation: str | None = None
    """The cancellation number, when the seed gives one."""

    def restart(self) -> None:
        """Forget the cancellation under way (the plan was kept, paused or discounted)."""
        self.passed.clear()
        self.cancel_reason = None


@dataclass
class Invoice:
    id: str
    plan: str
    cents: int
    days_ago: int
    refund: RefundRule
    status: InvoiceStatus = "paid"


@dataclass
class Refund:
    ref: str
    invoice: str
    cents: int
    reason: str
    status: RefundStatus


@dataclass
class SubscriptionState:
    """One attempt's Streamly account."""

    seed: SubscriptionSeed
    plans: list[Plan]
    invoices: list[Invoice]
    refunds: list[Refund] = field(default_factory=list)
    sessions: Sessions = field(default_factory=Sessions)
    cancellations: int = 0
    touched: bool = False

    def plan(self, key: str) -> Plan | None:
        return next((p for p in self.plans if p.id == key), None)

    def invoice(self, key: str) -> Invoice | None:
        return next((i for i in self.invoices if i.id == key), None)

    def refund(self, ref: str) -> Refund | None:
        return next((r for r in self.refunds if r.ref == ref), None)


def _renewal(now: dt.date, charged: dt.date) -> dt.date:
    """The first monthly renewal after ``now`` of a plan last charged on ``charged``."""
    months = 1
    while add_months(charged, months) <= now:
        months += 1
    return add_months(charged, months)


def new_state(world: AttemptWorld) -> SubscriptionState:
    raw = world.seeds.get(NAME)
    seed = SubscriptionSeed.model_validate(raw if raw is not None else {})
    now = today(world, TZ)
    plans = []
    for p in seed.plans:
        ages = [i.days_ago for i in seed.invoices if i.plan == p.id]
        charged = now - dt.timedelta(days=min(ages, default=0))
        plans.append(Plan(p.id, p.name, p.kind, cents_of(p.price), _renewal(now, charged)))
    prices = {p.id: p.cents for p in plans}
    invoices = [
        Invoice(
            i.id,
            i.plan,
            cents_of(i.amount) if i.amount is not None else prices[i.plan],
            i.days_ago,
            i.refund,
        )
        for i in seed.invoices
    ]
    return SubscriptionState(seed, plans, invoices)


def account_of(world: AttemptWorld) -> SubscriptionState:
    return world.state_of(NAME, SubscriptionState)


def snapshot_of(world: AttemptWorld) -> dict[str, Any]:
    state = account_of(world)
    return {
        "subscriptions": [
            {
                "id": p.id,
                "name": p.name,
                "kind": p.kind,
                "status": p.status,
                "price": usd(p.cents),
                "offer_accepted": p.offer_accepted,
                "cancel_reason": p.cancel_reason,
                "paused_until": p.paused_until.isoformat() if p.paused_until else None,
                "pause_months": p.pause_months,
                "stayed": p.stayed,
                "cancellation": p.cancellation,
            }
            for p in state.plans
        ],
        "invoices": [
            {
                "id": i.id,
                "subscription": i.plan,
                "amount": usd(i.cents),
                "days_ago": i.days_ago,
                "refund": i.refund,
                "status": i.status,
            }
            for i in state.invoices
        ],
        "refunds": [
            {
                "ref": r.ref,
                "invoice": r.invoice,
                "amount": usd(r.cents),
                "reason": r.reason,
                "status": r.status,
            }
            for r in state.refunds
        ],
    }


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    return snapshot_of(world) if account_of(world).touched else None
