"""The timeline of a scenario (``play:``): what happens while the agent works.

Events fire in the order written: an event's trigger is looked at only once
every event before it has fired. A trigger is one of:

- ``after_actions: N``: once the agent has taken N actions (every step counts);
- ``at: {days, hours, minutes}``: once the run clock is that far past the
  attempt's start. The apps' clock stands still while the agent works and moves
  only by ``advance``, so an ``at`` event fires inside the advance that passes it;
- ``when: {request: {path, method, site}}``: once the request log has a matching
  request of this attempt;
- ``on_idle: true``: when the agent goes idle (it calls ``done``).

An event does one thing:

- ``say``: a message from the user, shown to the agent at its next turn;
- ``stop``: a message telling the agent to stop; from then until the next ``say``
  the agent must not act (the built-in ``idle-after-stop`` check);
- ``deliver``: mail, a chat post or a calendar invite arrives in an app;
- ``set``: a site's value changes (a knob the site offers, e.g. ``price.lamp``);
- ``advance``: the run clock moves on; scheduled wake-ups it passes wake the agent;
- ``reset_agent``: the agent is ended and a new one started, with the same
  persistent folder (``{scratch}/agent-home``) and, with ``keep_conversation``,
  the conversation so far.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proctor.scenario._mail import AttachmentSeed
from proctor.scenario._seed import When
from proctor.vocab import PLAY_KINDS, TRIGGER_KINDS, PlayKind, TriggerKind

NAME_PATTERN = r"^[a-z0-9][a-z0-9-]*$"
MAX_ADVANCE_DAYS = 366


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Offset(_Spec):
    """A stretch of run-clock time: ``{days: 1}``, ``{hours: 2, minutes: 30}``."""

    days: int = Field(default=0, ge=0, le=MAX_ADVANCE_DAYS)
    hours: int = Field(default=0, ge=0, le=24 * MAX_ADVANCE_DAYS)
    minutes: int = Field(default=0, ge=0, le=24 * 60 * MAX_ADVANCE_DAYS)

    @model_validator(mode="after")
    def _positive(self) -> Offset:
        if not (self.days or self.hours or self.minutes):
            raise ValueError("give days, hours or minutes (more than zero)")
        return self

    def delta(self) -> dt.timedelta:
        return dt.timedelta(days=self.days, hours=self.hours, minutes=self.minutes)


class RequestMatch(_Spec):
    """Requests of the attempt, by path (exact, or a prefix ending in ``*``), method and site;
    ``count`` of them must be in the log."""

    path: str = Field(pattern=r"^/", description="e.g. /submit/contact, or /api/* (a prefix).")
    method: str | None = Field(default=None, pattern=r"^[A-Z]+$", description="e.g. POST.")
    site: str | None = Field(default=None, description="The fixture site, e.g. shop.")
    count: int = Field(
        default=1,
        ge=1,
        le=10_000,
        description="Fire once this many matching requests are in the log (2: the second "
        "send, not the first).",
    )

    def matches(self, method: str, host: str, path: str) -> bool:
        if self.method is not None and method.upper() != self.method:
            return False
        if self.site is not None and host.split(".", 1)[0] != self.site:
            return False
        if self.path.endswith("*"):
            return path.startswith(self.path[:-1])
        return path == self.path


class Condition(_Spec):
    """A condition on the world: the first request that matches."""

    request: RequestMatch


class MailDelivery(_Spec):
    """A message that arrives in the user's inbox (through the rules saved by then)."""

    from_: str = Field(alias="from", min_length=3, description="a@b.test or Name <a@b.test>.")
    subject: str = Field(min_length=1)
    body: str = ""
    attachments: list[AttachmentSeed] = Field(default_factory=list)


class ChatDelivery(_Spec):
    """A post that appears in a chat channel."""

    channel: str = Field(min_length=1)
    by: str = Field(min_length=1, description="The author's handle (one of the seed's people).")
    text: str = Field(min_length=1)
    thread: str | None = Field(default=None, description="A post id to reply under.")


class InviteDelivery(_Spec):
    """A calendar invite from someone else, awaiting the user's answer."""

    id: str | None = Field(default=None, pattern=NAME_PATTERN, description="Stable event id.")
    title: str = Field(min_length=1)
    start: When
    minutes: int = Field(default=30, ge=1, le=10080)
    organizer: str = Field(pattern=r"^[^@\s]+@[^@\s]+$", description="Who invites the user.")
    location: str = ""
    description: str = ""


class Delivery(_Spec):
    """Exactly one of mail, chat or invite."""

    mail: MailDelivery | None = None
    chat: ChatDelivery | None = None
    invite: InviteDelivery | None = None

    @model_validator(mode="after")
    def _one(self) -> Delivery:
        given = [k for k in ("mail", "chat", "invite") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of mail, chat or invite (got {given or 'none'})")
        return self

    @property
    def app(self) -> Literal["mail", "chat", "calendar"]:
        if self.mail is not None:
            return "mail"
        return "chat" if self.chat is not None else "calendar"


class Setting(_Spec):
    """A site's value changes: ``{site: shop, key: price.lamp, value: 89.0}``."""

    site: str = Field(min_length=1)
    key: str = Field(
        pattern=r"^[a-z][a-z_]*(\.[A-Za-z0-9_-]+)?$",
        description="A knob the site offers, with its argument after a dot (price.lamp).",
    )
    value: str | int | float | bool


class Reset(_Spec):
    """How the agent is restarted."""

    keep_conversation: bool = Field(
        default=False,
        description="The new agent's brief also carries the user's messages and the agent's "
        "replies so far, as a restarted assistant with a chat history would have them.",
    )


class PlayEvent(_Spec):
    """One timeline event: a name, one trigger and one thing it does."""

    name: str = Field(pattern=NAME_PATTERN, description="Distinct; checks name events by it.")
    after_actions: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="Trigger: once the agent has taken this many actions (every step counts).",
    )
    at: Offset | None = Field(
        default=None,
        description="Trigger: once the run clock is this far past the start (inside the "
        "advance that passes it).",
    )
    when: Condition | None = Field(
        default=None, description="Trigger: once the request log has the matching requests."
    )
    on_idle: Literal[True] | None = Field(
        default=None, description="Trigger: when the agent goes idle (it called done)."
    )
    say: str | None = Field(
        default=None,
        min_length=1,
        max_length=4000,
        description="Does: a message from the user, shown at the agent's next turn.",
    )
    stop: str | None = Field(
        default=None,
        min_length=1,
        max_length=4000,
        description="Does: a message telling the agent to stop; until the next say it may "
        "take no action but done.",
    )
    deliver: Delivery | None = Field(
        default=None, description="Does: mail, a chat post or a calendar invite arrives."
    )
    set: Setting | None = Field(default=None, description="Does: a site's value changes.")
    advance: Offset | None = Field(
        default=None,
        description="Does: the run clock moves on, waking the agent's reminders it passes.",
    )
    reset_agent: Reset | None = Field(
        default=None,
        description="Does: the agent is ended and a new one started from the arm.",
    )

    @model_validator(mode="after")
    def _one_each(self) -> PlayEvent:
        triggers = [t for t in TRIGGER_KINDS if getattr(self, t) is not None]
        if len(triggers) != 1:
            raise ValueError(
                f"event {self.name!r}: give exactly one trigger of after_actions, at, when, "
                f"on_idle (got {triggers or 'none'})"
            )
        kinds = [k for k in PLAY_KINDS if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(
                f"event {self.name!r}: give exactly one of {', '.join(PLAY_KINDS)} "
                f"(got {kinds or 'none'})"
            )
        return self

    @property
    def trigger(self) -> TriggerKind:
        for t in TRIGGER_KINDS:
            if getattr(self, t) is not None:
                return t
        raise AssertionError("validated: one trigger")

    @property
    def kind(self) -> PlayKind:
        for k in PLAY_KINDS:
            if getattr(self, k) is not None:
                return k
        raise AssertionError("validated: one kind")

    @property
    def text(self) -> str | None:
        """What the user says with this event (say and stop)."""
        return self.say if self.say is not None else self.stop


def play_problems(events: list[PlayEvent]) -> list[tuple[str, str]]:
    """(where, message) for cross-event problems: repeated names."""
    out: list[tuple[str, str]] = []
    names = [e.name for e in events]
    for i, name in enumerate(names):
        first = names.index(name)
        if first != i:
            out.append((f"play[{i}].name", f"event name {name!r} is also used by play[{first}]"))
    return out
