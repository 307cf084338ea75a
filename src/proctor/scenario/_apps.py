"""Seeds of the fake apps (mail, calendar, sheets, chat) as scenario data: ``world.apps``.

These models are the truth for what a scenario may seed; ``proctor.world.apps``
builds each app's state from them. They live here, beside the checks, so that a
bad seed is reported at load time with its field path
(``world.apps.mail.messages[2].from``) and ``proctor schema`` documents them,
without the scenario package importing the world.

Times are never absolute: a ``When`` is relative to the run clock, in the app's
time zone (``tz``), so a seed never rots and the same clock gives the same world.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
    model_validator,
)

from proctor.scenario._bank import BankSeed
from proctor.scenario._booking import BookingSeed
from proctor.scenario._mail_rules import SYSTEM_FOLDERS, FolderName, LabelName, RuleSeed
from proctor.scenario._shop import ShopSeed
from proctor.scenario._subscription import SubscriptionSeed
from proctor.vocab import Emoji, Rsvp

ADDRESS = re.compile(r"^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$")
NAMED_ADDRESS = re.compile(r"^\s*(?:\"?([^\"<>]*?)\"?\s*)?<([^<>\s]+)>\s*$")
CELL_REF = re.compile(r"^([A-Z])([1-9][0-9]{0,2})$")
"""An A1 reference: one column letter A-Z and a row 1-999."""

EMOJI: dict[str, str] = {
    "thumbsup": "\N{THUMBS UP SIGN}",
    "eyes": "\N{EYES}",
    "white_check_mark": "\N{WHITE HEAVY CHECK MARK}",
    "heart": "\N{HEAVY BLACK HEART}",
    "tada": "\N{PARTY POPPER}",
    "raised_hands": "\N{PERSON RAISING BOTH HANDS IN CELEBRATION}",
    "joy": "\N{FACE WITH TEARS OF JOY}",
    "question": "\N{BLACK QUESTION MARK ORNAMENT}",
}
"""Chat reactions by name -> the character shown."""


def split_address(text: str) -> tuple[str, str] | None:
    """``(name, lowercase address)`` of ``a@b.test`` or ``Name <a@b.test>``; None if invalid."""
    text = text.strip()
    named = NAMED_ADDRESS.match(text)
    name, address = (named.group(1) or "", named.group(2)) if named else ("", text)
    if not ADDRESS.match(address):
        return None
    return name.strip(), address.lower()


def _address(text: str) -> str:
    if split_address(text) is None:
        raise ValueError(f"{text!r} is not an email address (a@b.test or Name <a@b.test>)")
    return text.strip()


def _bare_address(text: str) -> str:
    if not ADDRESS.match(text.strip()):
        raise ValueError(f"{text!r} is not an email address like name@example.test")
    return text.strip().lower()


def _zone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r}; use an IANA name like Europe/Paris") from exc
    return name


Address = Annotated[str, AfterValidator(_address)]
"""``a@b.test`` or ``Name <a@b.test>``."""
Email = Annotated[str, AfterValidator(_bare_address)]
"""A bare address, stored lowercase."""
TimeZone = Annotated[str, AfterValidator(_zone)]
"""An IANA time zone name, e.g. Europe/Paris."""
Slug = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=60)]
Handle = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9._-]*$", max_length=40)]
CellValue = StrictStr | StrictInt | StrictFloat | None
"""A cell: text, a number, or empty (null). Quote YAML words like yes/no to keep them text."""


_NUMBER = re.compile(
    r"^(?P<sign>[-+]?)[$€£]?(?P<int>\d+|\d{1,3}(?:,\d{3})+)(?:\.(?P<frac>\d*))?$|"
    r"^(?P<sign2>[-+]?)[$€£]?\.(?P<frac2>\d+)$"
)


def parse_cell(value: str | int | float | None) -> str | int | float | None:
    """What a sheet stores for a typed value: a number when it reads as one, else trimmed text.

    ``"42"`` -> 42, ``"1,250.50"`` and ``"$1,250.50"`` -> 1250.5, ``""`` -> None
    (empty), ``"INV-7"`` -> ``"INV-7"``. Numbers and None pass through.
    """
    if not isinstance(value, str):
        return value
    text = value.strip()
    if not text:
        return None
    found = _NUMBER.match(text)
    if found is None:
        return text
    if found.group("frac2") is not None:
        number = float(f"0.{found.group('frac2')}")
        return -number if found.group("sign2") == "-" else number
    whole = found.group("int").replace(",", "")
    frac = found.group("frac")
    parsed: int | float = int(whole) if frac is None else float(f"{whole}.{frac or 0}")
    return -parsed if found.group("sign") == "-" else parsed


class _Seed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class When(_Seed):
    """A moment relative to the run clock, in the app's time zone.

    With ``at``: that local time on the day ``days`` from today, e.g.
    ``{days: -3, at: "09:30"}``. Without: now plus ``days``, ``hours`` and
    ``minutes``, e.g. ``{minutes: -20}``.
    """

    days: int = Field(default=0, ge=-3650, le=3650, description="Days from today (local).")
    at: str | None = Field(
        default=None, pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="Local time HH:MM."
    )
    hours: int = Field(default=0, ge=-87600, le=87600, description="Hours from now (no `at`).")
    minutes: int = Field(default=0, ge=-525600, le=525600, description="Minutes from now.")

    @model_validator(mode="after")
    def _at_or_offsets(self) -> When:
        if self.at is not None and (self.hours or self.minutes):
            raise ValueError("give `at` (a local time of day), or hours/minutes from now, not both")
        return self


def anchor(when: When, now: dt.datetime, tz: str, day_tz: str | None = None) -> dt.datetime:
    """The aware moment a ``When`` names, for the run clock ``now`` and the zone ``tz``.

    ``at`` is read in ``tz``; ``days`` count from today in ``day_tz`` (default
    ``tz``), so an event kept in another zone still falls on the user's day.
    """
    zone = ZoneInfo(tz)
    now = now if now.tzinfo is not None else now.replace(tzinfo=dt.UTC)
    if when.at is None:
        delta = dt.timedelta(days=when.days, hours=when.hours, minutes=when.minutes)
        return (now + delta).astimezone(zone)
    day = now.astimezone(ZoneInfo(day_tz or tz)).date() + dt.timedelta(days=when.days)
    hour, minute = (int(part) for part in when.at.split(":"))
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=zone)


_REFERENCE_NOW = dt.datetime(2001, 1, 1, 12, tzinfo=dt.UTC)


def _ordered(start: When, end: When, tz: str) -> bool:
    return anchor(start, _REFERENCE_NOW, tz) < anchor(end, _REFERENCE_NOW, tz)


# mail


class AttachmentSeed(_Seed):
    """A file attached to a seeded message: inline text, base64 bytes, or a generated PDF."""

    name: str = Field(pattern=r"^[^/\\]+$", max_length=120, description="File name, no folders.")
    type: str | None = Field(
        default=None, description="Content type; default from the extension (.csv -> text/csv)."
    )
    text: str | None = Field(default=None, description="UTF-8 content.")
    base64: str | None = Field(default=None, description="Binary content, base64.")
    pdf: list[str] | None = Field(
        default=None,
        min_length=1,
        description="A PDF made at set-up: one string per page, one line per newline.",
    )

    @model_validator(mode="after")
    def _one(self) -> AttachmentSeed:
        if sum(v is not None for v in (self.text, self.base64, self.pdf)) != 1:
            raise ValueError("give exactly one of text, base64 or pdf")
        return self


class MessageSeed(_Seed):
    """A message in the mailbox, received at ``at``, or one that arrives later."""

    id: Slug | None = Field(default=None, description="Stable id (default m1, m2... in order).")
    from_: Address = Field(alias="from", description="Sender: a@b.test or Name <a@b.test>.")
    to: list[Address] = Field(default_factory=list, description="Default: the mailbox address.")
    cc: list[Address] = Field(default_factory=list)
    subject: str
    body: str = ""
    at: When | None = Field(
        default=None,
        description="When it arrived, e.g. {days: -2, at: '09:15'}; required unless "
        "`arrives_after` is given (then default: the run clock).",
    )
    read: bool = False
    folder: str = Field(
        default="inbox", description="inbox, archive, spam, or one of the seed's `folders`."
    )
    labels: list[str] = Field(default_factory=list, description="Labels from the seed's `labels`.")
    arrives_after: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="Not in the mailbox at set-up: delivered to the inbox, through the rules "
        "saved by then, once the mail site has answered this many requests of the attempt "
        "(every page, post, API call and download counts), so the next request shows it. Mail "
        "still due when the attempt ends is delivered for the end state. Stamped `at`, or the "
        "run clock.",
    )
    thread: Slug | None = Field(
        default=None, description="Conversation key; messages sharing it form one thread."
    )
    attachments: list[AttachmentSeed] = Field(default_factory=list)

    @model_validator(mode="after")
    def _arrival(self) -> MessageSeed:
        if self.at is None and self.arrives_after is None:
            raise ValueError("give `at` (when it arrived), or `arrives_after` (it arrives later)")
        if self.arrives_after is not None and self.folder.casefold() != "inbox":
            raise ValueError("mail that arrives later arrives in the inbox; leave out `folder`")
        return self


class DraftSeed(_Seed):
    """A draft that already exists."""

    to: list[Address] = Field(default_factory=list)
    cc: list[Address] = Field(default_factory=list)
    subject: str = ""
    body: str = ""
    at: When = Field(default_factory=When, description="Last saved.")


class SentSeed(_Seed):
    """A message the user sent before the attempt (history; never counted as sent by the agent)."""

    to: list[Address] = Field(min_length=1)
    cc: list[Address] = Field(default_factory=list)
    subject: str
    body: str = ""
    at: When
    thread: Slug | None = None


class MailSeed(_Seed):
    """The user's mailbox."""

    tz: TimeZone = Field(default="UTC", description="The user's time zone for `at` and display.")
    address: Email = Field(default="me@example.test", description="The user's own address.")
    name: str = Field(default="Me", description="The user's display name.")
    messages: list[MessageSeed] = Field(default_factory=list)
    drafts: list[DraftSeed] = Field(default_factory=list)
    sent: list[SentSeed] = Field(default_factory=list)
    noise: bool = Field(
        default=False,
        description="Each inbox visit brings a fresh promotion or notification (a trap for "
        "agents that act on position); the same seed and visits give the same mail.",
    )
    folders: list[FolderName] = Field(
        default_factory=list, description="The user's own folders, besides inbox, archive, spam."
    )
    labels: list[LabelName] = Field(default_factory=list, description="The user's labels.")
    rules: list[RuleSeed] = Field(
        default_factory=list,
        description="Rules that already exist (r1, r2... in order); they apply to mail that "
        "arrives during the attempt, never to the seeded messages.",
    )

    @model_validator(mode="after")
    def _unique(self) -> MailSeed:
        ids = [m.id for m in self.messages if m.id is not None]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"message ids must be unique: {', '.join(dupes)}")
        return self

    @model_validator(mode="after")
    def _known_names(self) -> MailSeed:
        problems: list[str] = []
        for what, names in (("folder", self.folders), ("label", self.labels)):
            folded = [n.casefold() for n in names]
            dupes = sorted({n for n in names if folded.count(n.casefold()) > 1})
            if dupes:
                problems.append(f"{what} names must be unique: {', '.join(dupes)}")
        folders = {f.casefold() for f in (*SYSTEM_FOLDERS, *self.folders)}
        labels = {label.casefold() for label in self.labels}
        for i, m in enumerate(self.messages):
            if m.folder.casefold() not in folders:
                problems.append(f"messages[{i}]: unknown folder {m.folder!r} (add it to folders)")
            problems += [
                f"messages[{i}]: unknown label {name!r} (add it to labels)"
                for name in m.labels
                if name.casefold() not in labels
            ]
        for i, r in enumerate(self.rules):
            if r.folder is not None and r.folder.casefold() not in folders:
                problems.append(f"rules[{i}]: unknown folder {r.folder!r} (add it to folders)")
            if r.label is not None and r.label.casefold() not in labels:
                problems.append(f"rules[{i}]: unknown label {r.label!r} (add it to labels)")
        if problems:
            raise ValueError("; ".join(problems))
        return self


# calendar


class AttendeeSeed(_Seed):
    email: Email
    name: str | None = None
    rsvp: Rsvp = "needs_action"


class Span(_Seed):
    """A busy interval."""

    start: When
    end: When


class PersonSeed(_Seed):
    """Someone whose free/busy the calendar knows (besides their events)."""

    email: Email
    name: str | None = None
    busy: list[Span] = Field(default_factory=list)


class EventSeed(_Seed):
    """An event on the user's calendar; an invite when someone else organizes it."""

    id: Slug | None = Field(default=None, description="Stable id (default e1, e2... in order).")
    title: str = Field(min_length=1)
    start: When
    end: When | None = Field(default=None, description="Give end, or minutes.")
    minutes: int | None = Field(default=None, ge=1, le=10080, description="Duration.")
    tz: TimeZone | None = Field(
        default=None,
        description="The event's own zone (default: the calendar's tz): `at` in start and end "
        "is a time there, on the day `days` from today in the calendar's zone.",
    )
    location: str = ""
    description: str = ""
    organizer: Email | None = Field(default=None, description="Default: the calendar owner.")
    attendees: list[AttendeeSeed] = Field(default_factory=list)

    @model_validator(mode="after")
    def _end(self) -> EventSeed:
        if (self.end is None) == (self.minutes is None):
            raise ValueError("give exactly one of end or minutes")
        if self.end is not None and not _ordered(self.start, self.end, "UTC"):
            raise ValueError("end must be after start")
        return self


class CalendarSeed(_Seed):
    """The user's calendar."""

    tz: TimeZone = Field(default="UTC", description="The user's time zone.")
    owner: Email = Field(default="me@example.test", description="The user's address.")
    name: str = "Me"
    events: list[EventSeed] = Field(default_factory=list)
    people: list[PersonSeed] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> CalendarSeed:
        ids = [e.id for e in self.events if e.id is not None]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"event ids must be unique: {', '.join(dupes)}")
        return self


# sheets


class SheetSeed(_Seed):
    name: str = Field(pattern=r"^[^/\\?#%]+$", max_length=40)
    rows: list[list[CellValue]] = Field(
        default_factory=list, description="Rows from row 1, cells from column A; null is empty."
    )

    @model_validator(mode="after")
    def _size(self) -> SheetSeed:
        if len(self.rows) > 999 or any(len(r) > 26 for r in self.rows):
            raise ValueError("a sheet holds at most 999 rows and 26 columns (A-Z)")
        return self


class WorkbookSeed(_Seed):
    id: Slug
    title: str = Field(min_length=1)
    sheets: list[SheetSeed] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> WorkbookSeed:
        names = [s.name for s in self.sheets]
        if len(set(names)) != len(names):
            raise ValueError("sheet names must be unique within a workbook")
        return self


class SheetsSeed(_Seed):
    """The user's spreadsheets."""

    workbooks: list[WorkbookSeed] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> SheetsSeed:
        ids = [w.id for w in self.workbooks]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"workbook ids must be unique: {', '.join(dupes)}")
        return self


# chat


class ChatPerson(_Seed):
    handle: Handle
    name: str


class ReplySeed(_Seed):
    id: Slug | None = Field(default=None, description="Stable id (default c1, c2... in order).")
    by: Handle = Field(description="Author's handle: the user's `me` or one of `people`.")
    text: str = Field(min_length=1)
    at: When
    reactions: dict[Emoji, list[Handle]] = Field(default_factory=dict)


class ChatMessageSeed(ReplySeed):
    replies: list[ReplySeed] = Field(default_factory=list, description="The message's thread.")


class ChannelSeed(_Seed):
    name: Slug
    topic: str = ""
    messages: list[ChatMessageSeed] = Field(default_factory=list)


class ChatSeed(_Seed):
    """The user's team chat."""

    tz: TimeZone = "UTC"
    me: Handle = Field(default="me", description="The user's handle.")
    name: str = Field(default="Me", description="The user's display name.")
    people: list[ChatPerson] = Field(default_factory=list)
    channels: list[ChannelSeed] = Field(default_factory=list)
    noise: bool = Field(
        default=False,
        description="Each channel visit adds a Status Bot post to that channel (a trap for "
        "agents that act on position); the same seed and visits give the same posts.",
    )

    @model_validator(mode="after")
    def _known(self) -> ChatSeed:
        known = {self.me, *(p.handle for p in self.people)}
        problems: list[str] = []
        ids: list[str] = []
        names = [c.name for c in self.channels]
        if len(set(names)) != len(names):
            problems.append("channel names must be unique")
        for i, channel in enumerate(self.channels):
            for j, msg in enumerate(channel.messages):
                posts: list[tuple[str, ReplySeed]] = [(f"channels[{i}].messages[{j}]", msg)]
                posts += [
                    (f"channels[{i}].messages[{j}].replies[{k}]", r)
                    for k, r in enumerate(msg.replies)
                ]
                for where, post in posts:
                    who = [post.by, *(h for hs in post.reactions.values() for h in hs)]
                    problems += [
                        f"{where}: unknown person {h!r} (add them to people)"
                        for h in who
                        if h not in known
                    ]
                    if post.id is not None:
                        ids.append(post.id)
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            problems.append(f"message ids must be unique: {', '.join(dupes)}")
        if problems:
            raise ValueError("; ".join(problems))
        return self


class Apps(_Seed):
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
