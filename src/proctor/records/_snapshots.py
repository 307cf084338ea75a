"""Typed end-state snapshots of the apps and account sites (``EndState.apps[<site>]``).

The world writes each snapshot as a plain dict (the app's or site's module
docstring documents it); grading reads it through ``EndState.app(MailSnapshot)``,
which validates the dict into one of these models. The models are exact
(``extra="forbid"``, every key required), so a key renamed on one side fails
loudly at the grading boundary instead of reading as "no sent mail".

``SNAPSHOTS`` maps each site's name to its model; ``site_state`` and
``file_sha256``'s ``sha256_from`` validate a snapshot through it before they
walk the raw dict by dotted path.

The models live by kind: ``_app_snapshots`` (the fake apps), ``_site_snapshots``
(the account sites and MiniWoB), over ``_snapshot`` (the bases and ``read_snapshot``);
this module is their registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from proctor.records._app_snapshots import (
    CalendarSnapshot,
    ChatSnapshot,
    MailSnapshot,
    SheetsSnapshot,
)
from proctor.records._site_snapshots import (
    BankSnapshot,
    BookingSnapshot,
    MetricsSnapshot,
    MiniwobSnapshot,
    ShopSnapshot,
    SubscriptionSnapshot,
    TwosignSnapshot,
)
from proctor.records._snapshot import Snapshot, read_snapshot

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


def check_snapshot(apps: Mapping[str, Any], site: str) -> None:
    """Validate ``apps[site]`` when the site has a snapshot model (see ``read_snapshot``)."""
    model = SNAPSHOTS.get(site)
    if model is not None:
        read_snapshot(apps, model)
