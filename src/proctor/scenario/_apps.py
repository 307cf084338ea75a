"""The seeds of the fake apps and account sites as scenario data: ``world.apps``.

These models are the truth for what a scenario may seed; ``proctor.world.apps``
builds each app's state from them. They live here, beside the checks, so that a
bad seed is reported at load time with its field path
(``world.apps.mail.messages[2].from``) and ``proctor schema`` documents them,
without the scenario package importing the world.

Each app's seed has its module (``_mail``, ``_calendar``, ``_sheets``, ``_chat``, and
the sites' ``_shop``, ``_subscription``, ``_booking``, ``_bank``), over ``_seed`` (the
base, addresses, zones and ``When``); ``Apps`` gathers them.
"""

from __future__ import annotations

from pydantic import (
    Field,
)

from proctor.scenario._bank import BankSeed
from proctor.scenario._booking import BookingSeed
from proctor.scenario._calendar import CalendarSeed
from proctor.scenario._chat import ChatSeed
from proctor.scenario._mail import MailSeed
from proctor.scenario._seed import Seed
from proctor.scenario._sheets import SheetsSeed
from proctor.scenario._shop import ShopSeed
from proctor.scenario._subscription import SubscriptionSeed


class Apps(Seed):
    """The fake apps and account sites a scenario seeds; each needs its name in ``world.sites``."""

    mail: MailSeed | None = None
    calendar: CalendarSeed | None = None
    sheets: SheetsSeed | None = None
    chat: ChatSeed | None = None
    shop: ShopSeed | None = Field(
        default=None, description="The shop site's currency, checkout kind and card form."
    )
    subscription: SubscriptionSeed | None = Field(
        default=None,
        description="The subscription site's plans, invoices, refund rules and cancel flow.",
    )
    booking: BookingSeed | None = Field(
        default=None, description="The booking site's free and taken tables and the bookings."
    )
    bank: BankSeed | None = Field(
        default=None, description="The bank site's saved payees and daily transfer limit."
    )

    def seeded(self) -> list[str]:
        """Names of the apps given a seed."""
        return [name for name in type(self).model_fields if getattr(self, name) is not None]
