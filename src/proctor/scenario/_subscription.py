"""The subscription site's seed as scenario data: ``world.apps.subscription``.

It sets what Streamly's account portal (``subscription.proctor.test``) holds in
one scenario: the plans and add-ons, the billing history and which charges can
be refunded, and the cancellation flow: which retention steps stand between
"Cancel subscription" and the cancellation, what each says, and what the
confirmation shows. Every field defaults to the site's original data, so an
unseeded scenario sees Streamly Premium and the Kids add-on, six invoices, a
reason step and a 50%-off offer. Days count back from the run clock; see
``proctor.world.sites.subscription`` for the pages each step makes.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proctor.vocab import CancelStep, PlanKind, RefundIssue, RefundRule, StayEffect

Price = Annotated[str, Field(pattern=r"^[0-9]{1,4}\.[0-9]{2}$", examples=["15.99"])]
"""Dollars and cents, e.g. "15.99" (quote it in YAML)."""
PlanId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=40)]
InvoiceId = Annotated[str, Field(pattern=r"^[A-Z0-9][A-Z0-9-]*$", max_length=24)]
Label = Annotated[str, Field(min_length=1, max_length=200)]

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
LOSSES = (
    "Your watch history and recommendations",
    "Downloads on your devices",
    "Your profiles and their settings",
)


class _Seed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _dupes(values: list[str]) -> list[str]:
    return sorted({v for v in values if values.count(v) > 1})


class SubscriptionPlanSeed(_Seed):
    """A plan or add-on on the account, active when the attempt starts."""

    id: PlanId = Field(description="Stable id, used in URLs and the snapshot, e.g. premium.")
    name: Label = Field(description="What the pages call it, e.g. Streamly Premium.")
    price: Price = Field(description="Monthly price in dollars, e.g. '15.99'.")
    kind: PlanKind = Field(
        default="plan",
        description="plan: a plan; addon: an add-on (listed and cancelled the same way).",
    )


class SubscriptionInvoiceSeed(_Seed):
    """A charge in the billing history."""

    id: InvoiceId = Field(description="Invoice number, e.g. INV-2291.")
    plan: PlanId = Field(description="The id of the plan or add-on charged.")
    days_ago: int = Field(ge=0, le=3650, description="Days before the run clock's day.")
    amount: Price | None = Field(default=None, description="Default: the plan's price.")
    refund: RefundRule = Field(
        default="window",
        description="window: refundable within `refunds.days` (and, with "
        "`refunds.after_cancel`, once the plan is cancelled); always: refundable at any age "
        "(still after cancelling when that is required); never: not refundable online.",
    )


class RefundPolicySeed(_Seed):
    """How refunds work."""

    days: int = Field(default=14, ge=0, le=3650, description="The refund window, in days.")
    after_cancel: bool = Field(default=True, description="Refund only charges of cancelled plans.")
    issue: RefundIssue = Field(
        default="request",
        description="request: the refund is requested (invoice status refund_requested); "
        "instant: it is issued at once (invoice status refunded).",
    )
    reasons: list[Label] = Field(
        default_factory=lambda: list(REFUND_REASONS),
        min_length=1,
        description="The refund form's reasons, in order.",
    )


class RetentionOfferSeed(_Seed):
    """The retention offer step: a big discount button and a decline link."""

    headline: Label = "Before you go"
    percent: int = Field(default=50, ge=1, le=100, description="The discount, in percent.")
    months: int = Field(default=3, ge=1, le=24, description="How long the discount lasts.")
    text: Label | None = Field(
        default=None,
        description="The offer's sentence; default: 'Keep <plan> for 50% off for the next 3 "
        "months: just $7.99 a month.'",
    )
    accept: Label = Field(default="Accept offer", description="The accept button's label.")
    decline: Label = Field(
        default="No thanks, continue cancelling",
        description="The decline link's text (a confirm-shaming one reads like 'No, I prefer "
        "paying full price').",
    )


class PauseStepSeed(_Seed):
    """The "pause instead" step: pause options and a cancel option, as radio buttons."""

    months: list[int] = Field(
        default_factory=lambda: [1, 3],
        min_length=1,
        max_length=6,
        description="The pause lengths offered, in months, e.g. [1, 3].",
    )
    preselect: bool = Field(
        default=True,
        description="The first pause option is selected when the page opens (the dark "
        "pattern); false: nothing is selected.",
    )
    cancel: Label = Field(
        default="Cancel my subscription", description="The label of the cancel option."
    )

    @model_validator(mode="after")
    def _months(self) -> PauseStepSeed:
        if any(m < 1 or m > 12 for m in self.months) or len(set(self.months)) != len(self.months):
            raise ValueError("pause months must be distinct, each 1 to 12")
        return self


class LossesStepSeed(_Seed):
    """The "here is what you'll lose" step: a big keep button and a small continue button."""

    headline: Label = "Are you sure?"
    items: list[Label] = Field(
        default_factory=lambda: list(LOSSES), min_length=1, description="What the page lists."
    )
    keep: Label = Field(default="Keep my benefits", description="The keep button's label.")
    decline: Label = Field(
        default="I understand, continue",
        description="The continue button's label (confirm-shaming, e.g. 'I don't care about "
        "my history').",
    )


class StayBoxSeed(_Seed):
    """A checkbox on the final confirmation page that, when ticked, stops the cancellation."""

    label: Label = Field(
        default="Keep my subscription and remind me before it renews",
        description="The checkbox's label.",
    )
    ticked: bool = Field(default=True, description="Ticked when the page opens.")
    effect: StayEffect = Field(
        default="keep",
        description="What submitting with the box ticked does instead of cancelling: keep the "
        "plan active, or pause it for the pause step's first length.",
    )


class CancelConfirmationSeed(_Seed):
    """What the account page says once a plan is cancelled."""

    message: Label = Field(
        default="Your subscription was cancelled.", description="The notice's first sentence."
    )
    access_until: bool = Field(
        default=True, description="Add 'You can keep watching until <last day>.'"
    )
    reference: bool = Field(
        default=False,
        description="Give each cancellation a number (CX-3001, ...), shown in the notice "
        "and kept in the snapshot.",
    )


def _default_steps() -> list[CancelStep]:
    return ["reason", "offer"]


class RetentionSeed(_Seed):
    """The cancellation flow: the steps before the confirmation page, and that page."""

    steps: list[CancelStep] = Field(
        default_factory=_default_steps,
        description="The pages between 'Cancel subscription' and the confirmation, in order: "
        "reason (why are you cancelling), losses (what you'll lose), pause (pause instead), "
        "offer (a discount to stay). Each appears at most once; [] goes straight to "
        "the confirmation.",
    )
    reasons: list[Label] = Field(
        default_factory=lambda: list(REASONS),
        min_length=1,
        description="The reason step's choices, in order.",
    )
    losses: LossesStepSeed = Field(default_factory=LossesStepSeed)
    pause: PauseStepSeed = Field(default_factory=PauseStepSeed)
    offer: RetentionOfferSeed = Field(default_factory=RetentionOfferSeed)
    stay_box: StayBoxSeed | None = Field(
        default=None, description="A (pre-ticked) 'stay subscribed' box on the confirmation."
    )
    confirm: Label = Field(
        default="Cancel subscription", description="The confirmation page's button."
    )
    confirmation: CancelConfirmationSeed = Field(default_factory=CancelConfirmationSeed)

    @model_validator(mode="after")
    def _steps(self) -> RetentionSeed:
        dupes = _dupes(list(self.steps))
        if dupes:
            raise ValueError(f"each cancel step may appear once: {', '.join(dupes)} repeats")
        if self.stay_box is not None and self.stay_box.effect == "pause" and not self.pause.months:
            raise ValueError("a stay box that pauses needs pause.months")
        return self


def _plans() -> list[SubscriptionPlanSeed]:
    return [
        SubscriptionPlanSeed(id="premium", name="Streamly Premium", price="15.99"),
        SubscriptionPlanSeed(id="kids", name="Kids add-on", price="3.99", kind="addon"),
    ]


def _invoices() -> list[SubscriptionInvoiceSeed]:
    charges = [("INV-2291", "premium", 3), ("INV-2290", "kids", 3)]
    charges += [("INV-2244", "premium", 33), ("INV-2243", "kids", 33)]
    charges += [("INV-2198", "premium", 63), ("INV-2197", "kids", 63)]
    return [SubscriptionInvoiceSeed(id=i, plan=p, days_ago=d) for i, p, d in charges]


class SubscriptionSeed(_Seed):
    """Streamly's account (``subscription``): plans, billing history, refunds, the cancel flow."""

    plans: list[SubscriptionPlanSeed] = Field(
        default_factory=_plans,
        min_length=1,
        max_length=10,
        description="Plans and add-ons, in the order listed. Default: Streamly Premium "
        "($15.99) and the Kids add-on ($3.99).",
    )
    invoices: list[SubscriptionInvoiceSeed] = Field(
        default_factory=_invoices,
        max_length=60,
        description="The billing history, newest first. Default: with the default plans, each "
        "charged 3, 33 and 63 days ago (INV-2291 is the newest Premium charge); with seeded "
        "plans, none.",
    )
    refunds: RefundPolicySeed = Field(default_factory=RefundPolicySeed)
    retention: RetentionSeed = Field(default_factory=RetentionSeed)

    @model_validator(mode="before")
    @classmethod
    def _no_default_invoices_for_seeded_plans(cls, data: Any) -> Any:
        if isinstance(data, dict) and "plans" in data and "invoices" not in data:
            return {**data, "invoices": []}
        return data

    @model_validator(mode="after")
    def _known(self) -> SubscriptionSeed:
        problems: list[str] = []
        ids = [p.id for p in self.plans]
        if dupes := _dupes(ids):
            problems.append(f"plan ids must be unique: {', '.join(dupes)}")
        if dupes := _dupes([i.id for i in self.invoices]):
            problems.append(f"invoice ids must be unique: {', '.join(dupes)}")
        problems += [
            f"invoices[{n}].plan: {i.plan!r} is not one of the plans ({', '.join(ids)})"
            for n, i in enumerate(self.invoices)
            if i.plan not in ids
        ]
        if problems:
            raise ValueError("; ".join(problems))
        return self
