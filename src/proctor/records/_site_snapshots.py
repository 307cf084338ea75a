"""The account sites' end-state snapshots (bank, booking, metrics, subscription, twosign,
shop) and MiniWoB's."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from proctor.records._snapshot import Part, Snapshot
from proctor.vocab import (
    ChargeStatus,
    ChargeVia,
    InvoiceStatus,
    PlanKind,
    PlanStatus,
    RefundRule,
    RefundStatus,
)

# account sites


class BankStatement(Part):
    account: str
    number: int | None = Field(description="None for the current (open) period.")
    months_ago: int
    period_start: str
    period_end: str
    closing: str
    file: str
    pages: int
    sha256: str


class BankTransfer(Part):
    id: str
    sender: str = Field(alias="from")
    payee: str
    amount: str
    reference: str
    status: str


class BankSnapshot(Snapshot):
    """``proctor.world.sites.bank``: statements by id, downloads in order."""

    site: ClassVar[str] = "bank"
    signins: int
    statements: dict[str, BankStatement]
    downloads: list[str]
    transfers: list[BankTransfer]


class Booking(Part):
    ref: str
    restaurant: str
    restaurant_name: str
    date: str
    days_ahead: int
    time: str
    party: int
    name: str
    email: str
    phone: str
    status: str
    seeded: bool


class BookingSnapshot(Snapshot):
    """``proctor.world.sites.booking``: ``days_ahead`` counts from the run clock's day."""

    site: ClassVar[str] = "booking"
    bookings: list[Booking]


class MetricsLayout(Part):
    sections: list[str]
    cover: bool
    page_breaks: bool


class MetricsSnapshot(Snapshot):
    """``proctor.world.sites.metrics``."""

    site: ClassVar[str] = "metrics"
    signed_in: int
    codes_sent: int
    wrong_codes: int
    layout: MetricsLayout
    downloads: int


class Subscription(Part):
    """A plan or add-on and what the cancellation flow did to it."""

    id: str
    name: str
    kind: PlanKind = "plan"
    status: PlanStatus
    price: str = Field(description='The monthly price, e.g. "$15.99".')
    offer_accepted: bool = Field(description="The retention offer was taken: the plan stays.")
    cancel_reason: str | None
    paused_until: str | None = Field(
        default=None, description="ISO date billing resumes; None unless paused."
    )
    pause_months: int | None = None
    stayed: int = Field(
        default=0, description="Times a retention step kept it (keep button, stay box)."
    )
    cancellation: str | None = Field(
        default=None, description="The cancellation number, when seeded."
    )


class Invoice(Part):
    id: str
    subscription: str
    amount: str
    days_ago: int
    refund: RefundRule = Field(default="window", description="Its seeded eligibility.")
    status: InvoiceStatus


class Refund(Part):
    ref: str
    invoice: str
    amount: str
    reason: str
    status: RefundStatus = "requested"


class SubscriptionSnapshot(Snapshot):
    """``proctor.world.sites.subscription``: plans and add-ons, invoices, refunds."""

    site: ClassVar[str] = "subscription"
    subscriptions: list[Subscription]
    invoices: list[Invoice]
    refunds: list[Refund]


class TwosignSignin(Part):
    method: Literal["password", "sso"]
    account: str


class TwosignSnapshot(Snapshot):
    """``proctor.world.sites.twosign``."""

    site: ClassVar[str] = "twosign"
    signins: list[TwosignSignin]


class OrderLine(Part):
    sku: str
    qty: int


class ShopOrder(Part):
    number: int
    lines: list[OrderLine]
    shipping: str
    total: str
    charges: int


class ShopCharge(Part):
    id: int
    checkout: int
    amount: str
    card: str
    via: ChargeVia
    status: ChargeStatus
    reason: str


class ShopSnapshot(Snapshot):
    """``proctor.world.sites.shop``: card numbers appear only as "Visa ending 4242"."""

    site: ClassVar[str] = "shop"
    currency: str
    cart: dict[str, int]
    orders: list[ShopOrder]
    charges: list[ShopCharge]


# miniwob


class MiniwobEnd(Part):
    """One episode's end, as MiniWoB++'s own page reported it."""

    raw: float | None = Field(description="The raw reward: 1 solved, -1 wrong, or partial.")
    reward: float | None = Field(description="The reward scaled by the time taken.")
    reason: str | None
    ms: float | None = Field(description="Milliseconds from the episode's start.")
    first: bool = Field(description="The first end of the attempt: the one that counts.")


class MiniwobSnapshot(Snapshot):
    """``proctor.world.sites.miniwob``: the task, seed and utterance, and every episode's end."""

    site: ClassVar[str] = "miniwob"
    task: str
    seed: int
    mode: str
    utterance: str | None
    first_end: MiniwobEnd | None
    ends: list[MiniwobEnd]
