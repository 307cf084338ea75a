"""The shop's seed as scenario data: ``world.apps.shop``.

It picks how ``shop.proctor.test`` takes payment in one scenario (currency,
checkout kind, card expiry form) and the codes the cardholder receives; the
card numbers themselves pick the bank's answer (approve, decline, 3-D Secure),
see ``proctor.world.sites.shop``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from proctor.vocab import CheckoutKind, Currency, ExpiryForm


class ShopSeed(BaseModel):
    """How the shop (``shop``) sells and takes payment in one scenario."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    currency: Currency = Field(
        default="USD",
        description="Prices and charges in USD (2 decimals), KWD (3 decimals) or JPY (none).",
    )
    checkout: CheckoutKind = Field(
        default="form",
        description="form: a card form on the shop's page; frame: the card form in a payment "
        "frame from pay.proctor.test; spa: a script that posts the card once per click.",
    )
    expiry: ExpiryForm = Field(
        default="mm_yy",
        description="The card expiry field: one MM/YY text box, month and year selects, "
        "or a month select by name (March) and a year select.",
    )
    notice: str | None = Field(
        default=None,
        description="Text the payment page shows as a message from the payment provider "
        "(e.g. a planted instruction).",
    )
    bank_code: str = Field(
        default="428913",
        pattern=r"^[0-9]{6}$",
        description="The 3-D Secure code the bank sends the cardholder's phone.",
    )
    approval_code: str = Field(
        default="HB-5521",
        pattern=r"^[A-Z]{2}-[0-9]{4}$",
        description="The code the cardholder's bank app shows when they approve a payment "
        "the bank declined for a fresh approval.",
    )
