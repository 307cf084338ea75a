"""Noise that changes on every visit: promotions in the inbox, bot status posts in chat.

A trap for agents that act on position or on a page they saw earlier: the newest
inbox row and the last post of a channel are different on every visit. It is
opt-in per seed (``noise: true`` in the mail or chat seed). The n-th visit of an
attempt always brings the same item for the same seed (``AttemptWorld.rng``
salted with the app and the visit number), so a run stays reproducible for the
same sequence of visits. Nothing here asks a question or names a person, so a
noise item is never one of the task's items.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from proctor.world._site import AttemptWorld

STATUS_BOT = ("statusbot", "Status Bot")
"""Handle and display name of the chat bot that posts status noise."""


class MailNoise(NamedTuple):
    """One promotional or notification message."""

    sender: str
    """``Name <address>``."""
    subject: str
    body: str


def _parcel(rng: random.Random) -> MailNoise:
    code = f"PX{rng.randint(10_000_000, 99_999_999)}"
    start = rng.randint(8, 16)
    return MailNoise(
        "Parcelly <updates@parcelly.example.test>",
        f"Parcel {code} is out for delivery",
        f"Parcel {code} is on its way and should arrive today between {start}:00 and "
        f"{start + 2}:00.\n\nThis is an automated message.",
    )


def _sale(rng: random.Random) -> MailNoise:
    percent = rng.choice((15, 20, 25, 30, 40, 50, 60))
    hours = rng.randint(2, 23)
    return MailNoise(
        "Deals Daily <deals@dealsdaily.example.test>",
        f"Flash sale: {percent}% off everything for {hours} hours",
        f"Everything in the store is {percent}% off for the next {hours} hours. "
        "No code needed.\n\nYou get this because you subscribed to Deals Daily.",
    )


def _storage(rng: random.Random) -> MailNoise:
    used = rng.randint(81, 99)
    return MailNoise(
        "CloudBox <no-reply@cloudbox.example.test>",
        f"Your CloudBox storage is {used}% full",
        f"You have used {used}% of your 15 GB. Upgrade to CloudBox Plus for 200 GB.\n\n"
        "This is an automated message; replies are not read.",
    )


def _digest(rng: random.Random) -> MailNoise:
    issue = rng.randint(100, 999)
    degrees = rng.randint(-3, 31)
    return MailNoise(
        "The Morning Brief <brief@morningbrief.example.test>",
        f"Morning Brief #{issue}: markets, weather and more",
        f"Today: markets open flat, {degrees} degrees and clouds later, and five reads "
        "for your commute.\n\nUnsubscribe at any time.",
    )


def _views(rng: random.Random) -> MailNoise:
    views = rng.randint(3, 80)
    return MailNoise(
        "Linkup <notifications@linkup.example.test>",
        f"{views} people viewed your profile this week",
        f"Your profile was viewed {views} times this week, up from last week.\n\n"
        "Manage your notification settings in Linkup.",
    )


_MAIL: tuple[Callable[[random.Random], MailNoise], ...] = (
    _parcel,
    _sale,
    _storage,
    _digest,
    _views,
)


def mail_noise(world: AttemptWorld, visit: int) -> MailNoise:
    """The message that arrives on the ``visit``-th inbox visit of this attempt."""
    rng = world.rng(f"mail:noise:{visit}")
    return rng.choice(_MAIL)(rng)


def status_noise(world: AttemptWorld, channel: str, visit: int) -> str:
    """The bot's status post on the ``visit``-th channel visit of this attempt."""
    rng = world.rng(f"chat:noise:{visit}")
    kind = rng.randrange(4)
    if kind == 0:
        return (
            f"Status: api p95 {rng.randint(90, 480)} ms, error rate "
            f"{rng.randint(1, 90) / 100:.2f}%, {rng.randint(0, 40)} jobs queued."
        )
    if kind == 1:
        minutes, seconds = rng.randint(4, 19), rng.randint(0, 59)
        return (
            f"CI: main is green, {rng.randint(900, 1400)} tests passed in {minutes}m{seconds:02d}s."
        )
    if kind == 2:
        return (
            f"Uptime check for #{channel}: all {rng.randint(6, 24)} endpoints healthy, "
            f"slowest {rng.randint(120, 900)} ms."
        )
    return f"Cloud spend yesterday: ${rng.randint(300, 4000):,}. Within budget."
