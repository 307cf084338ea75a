"""The user's actions: asking the user, asking for approval, scheduling a wake-up.

The simulated user answers them (``tool="user"``); they never touch a page."""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from pydantic import Field, model_validator

from proctor.computer.actions._model import (
    BOTH,
    ActionModel,
)


class AskUser(ActionModel):
    """Ask the user a question and wait for the answer (the step's output). Ask for what only the user knows (a preference, a password, a code) instead of guessing. Give a short topic key if the task named one."""  # noqa: E501

    op: Literal["ask_user"] = "ask_user"
    needs_lease = False
    user_op = True
    surfaces = BOTH
    watches_popups = False
    question: str = Field(min_length=1, max_length=2000, description="The question, in words.")
    key: str | None = Field(
        default=None, max_length=60, description="Topic key the task named, e.g. shoe_size."
    )


class RequestApproval(ActionModel):
    """Ask the user to approve an action before you take it (a payment, a booking, a deletion, sending something); the step's output says approved or denied. Never take the action when it is denied."""  # noqa: E501

    op: Literal["request_approval"] = "request_approval"
    needs_lease = False
    user_op = True
    surfaces = BOTH
    watches_popups = False
    action: str = Field(
        min_length=1, max_length=200, description="What you will do, e.g. payment or booking."
    )
    amount: float | None = Field(default=None, ge=0, description="The amount, if money moves.")
    currency: str | None = Field(
        default=None, pattern=r"^[A-Za-z]{3}$", description="ISO currency code, e.g. USD."
    )
    details: str = Field(
        default="", max_length=2000, description="What exactly: the item, the recipient, the date."
    )


RELATIVE_AT = re.compile(r"^\+([1-9][0-9]{0,4})([mhd])$")
"""A relative ``schedule`` time: +30m, +2h, +1d."""


class Schedule(ActionModel):
    """Schedule a wake-up: when the time comes you are woken with the note, as a message. Use it to check on something later (tomorrow's price, a reply) instead of waiting; then finish your turn with done."""  # noqa: E501

    op: Literal["schedule"] = "schedule"
    needs_lease = False
    user_op = True
    timeline_op = True
    surfaces = BOTH
    watches_popups = False
    at: str = Field(
        min_length=2,
        max_length=40,
        description="When: +30m, +2h, +1d (from now), or a date and time, "
        "e.g. 2026-05-04T09:00 (the user's time zone unless it has an offset).",
    )
    note: str = Field(
        min_length=1, max_length=2000, description="What to do then, in your own words."
    )

    @model_validator(mode="after")
    def _when(self) -> Schedule:
        if RELATIVE_AT.match(self.at) is None:
            try:
                dt.datetime.fromisoformat(self.at)
            except ValueError:
                raise ValueError(
                    f"at {self.at!r} is neither +N followed by m, h or d nor an ISO date and "
                    "time such as 2026-05-04T09:00"
                ) from None
        return self
