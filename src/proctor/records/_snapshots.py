"""Typed end-state snapshots of the apps and account sites (``EndState.apps[<site>]``).

The world writes each snapshot as a plain dict (the app's or site's module
docstring documents it); grading reads it through ``EndState.app(MailSnapshot)``,
which validates the dict into one of these models. The models are exact
(``extra="forbid"``, every key required), so a key renamed on one side fails
loudly at the grading boundary instead of reading as "no sent mail".

``SNAPSHOTS`` maps each site's name to its model; ``site_state`` and
``file_sha256``'s ``sha256_from`` validate a snapshot through it before they
walk the raw dict by dotted path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, model_validator

from proctor.errors import GradingError
from proctor.vocab import (
    ChargeStatus,
    ChargeVia,
    InvoiceStatus,
    MailDelivery,
    MailRuleField,
    PlanKind,
    PlanStatus,
    RefundRule,
    RefundStatus,
    Rsvp,
)

CellValue = str | int | float
"""A non-empty cell as a sheet stores it: a number when it read as one, else text."""


class Part(BaseModel):
    """An item inside a snapshot: exact and immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Snapshot(Part):
    """One site's end-state snapshot; ``site`` names its key in ``EndState.apps``."""

    site: ClassVar[str]


S = TypeVar("S", bound=Snapshot)


# mail


class Attachment(Part):
    name: str
    type: str
    size: int
    sha256: str


class MailMessage(Part):
    """A received message."""

    id: str
    folder: str
    thread: str
    sender: str = Field(alias="from")
    from_name: str
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    at: AwareDatetime
    read: bool
    attachments: list[Attachment]
    labels: list[str] = Field(default_factory=list)
    rules: list[str] = Field(
        default_factory=list, description="Ids of the rules that acted on it, in order."
    )
    delivered: MailDelivery = Field(
        default="setup",
        description="setup: in the mailbox from the start; attempt: arrived during the attempt "
        "(later seeded mail, noise, another site's mail); end: seeded mail still due when the "
        "attempt ended, delivered (through the rules) for the end state.",
    )


class MailRule(Part):
    """A rule (filter): every condition must hold; then its actions apply."""

    id: str
    conditions: dict[MailRuleField, str] = Field(description="Field -> text it must contain.")
    folder: str | None
    label: str | None
    read: bool
    seeded: bool
    existing: int = Field(
        description="Messages already in the mailbox it acted on when saved (0 unless asked)."
    )


class MailDraft(Part):
    id: str
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    at: AwareDatetime
    seeded: bool
    edited: bool
    in_reply_to: str | None
    attachments: list[Attachment] = Field(default_factory=list)


class SentMail(Part):
    id: str
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    at: AwareDatetime
    seeded: bool
    in_reply_to: str | None
    thread: str
    attachments: list[Attachment] = Field(default_factory=list)


class MailSnapshot(Snapshot):
    """``proctor.world.apps.mail``: addresses lowercase and bare, times UTC."""

    site: ClassVar[str] = "mail"
    now: AwareDatetime
    tz: str
    address: str
    name: str
    messages: list[MailMessage]
    drafts: list[MailDraft]
    sent: list[SentMail]
    folders: list[str] = Field(
        default_factory=list, description="The user's own folders, in the order made."
    )
    labels: list[str] = Field(default_factory=list)
    rules: list[MailRule] = Field(default_factory=list)


# calendar


class CalendarAttendee(Part):
    email: str
    name: str
    rsvp: Rsvp


class CalendarEvent(Part):
    id: str
    title: str
    start: AwareDatetime
    end: AwareDatetime
    tz: str
    location: str
    description: str
    organizer: str
    attendees: list[CalendarAttendee]
    my_rsvp: Rsvp | None = Field(description="The owner's own answer; None when not invited.")
    seeded: bool
    original_start: AwareDatetime = Field(
        description="Its start when the attempt began (seeded) or when it was created."
    )
    original_end: AwareDatetime

    @model_validator(mode="before")
    @classmethod
    def _stored_before_moves(cls, data: Any) -> Any:
        """An end state stored before events could move: they started where they are."""
        if isinstance(data, dict):
            data = {"original_start": data.get("start"), "original_end": data.get("end"), **data}
        return data


class CalendarSnapshot(Snapshot):
    """``proctor.world.apps.calendar``: ``deleted`` holds events deleted during the attempt."""

    site: ClassVar[str] = "calendar"
    now: AwareDatetime
    tz: str
    owner: str
    name: str
    events: list[CalendarEvent]
    deleted: list[CalendarEvent] = Field(
        default_factory=list, description="Events deleted during the attempt."
    )


# sheets


class SheetData(Part):
    name: str
    cells: dict[str, CellValue] = Field(description="A1 ref -> value; only non-empty cells.")


class Workbook(Part):
    id: str
    title: str
    sheets: list[SheetData]


class SheetEdit(Part):
    workbook: str
    sheet: str
    ref: str
    value: CellValue | None = Field(description="None when the write emptied the cell.")


class SheetsSnapshot(Snapshot):
    """``proctor.world.apps.sheets``: ``edits`` lists every write in order."""

    site: ClassVar[str] = "sheets"
    workbooks: list[Workbook]
    edits: list[SheetEdit]


# chat


class ChatChannel(Part):
    name: str
    topic: str


class ChatPost(Part):
    id: str
    channel: str
    thread: str | None = Field(description="The parent's id; None for a top-level post.")
    by: str
    text: str
    at: AwareDatetime
    reactions: dict[str, list[str]]
    seeded: bool


class ChatSnapshot(Snapshot):
    """``proctor.world.apps.chat``: ``posts`` is flat, in posting order."""

    site: ClassVar[str] = "chat"
    now: AwareDatetime
    tz: str
    me: str
    channels: list[ChatChannel]
    posts: list[ChatPost]


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


SNAPSHOTS: dict[str, type[Snapshot]] = {
    model.site: model
    for model in (
        MailSnapshot,
        CalendarSnapshot,
        SheetsSnapshot,
        ChatSnapshot,
        BankSnapshot,
        BookingSnapshot,
        MetricsSnapshot,
        SubscriptionSnapshot,
        TwosignSnapshot,
        ShopSnapshot,
        MiniwobSnapshot,
    )
}
"""Site name -> the model of its snapshot in ``EndState.apps``."""


def read_snapshot(apps: Mapping[str, Any], model: type[S]) -> S | None:
    """``apps[model.site]`` validated into ``model``; None when the site has no snapshot.

    Raises:
        GradingError: the snapshot does not have the model's shape; the message
            names the site and each wrong field.
    """
    raw = apps.get(model.site)
    if raw is None:
        return None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        wrong = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()[:5]
        )
        raise GradingError(
            f"the {model.site} snapshot in the end state does not have the shape grading "
            f"reads ({model.__name__}): {wrong}; the site's snapshot and "
            f"proctor.records.{model.__name__} must change together"
        ) from exc


def check_snapshot(apps: Mapping[str, Any], site: str) -> None:
    """Validate ``apps[site]`` when the site has a snapshot model (see ``read_snapshot``)."""
    model = SNAPSHOTS.get(site)
    if model is not None:
        read_snapshot(apps, model)
