"""The fake apps' end-state snapshots: mail, calendar, sheets, chat."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import AwareDatetime, Field, model_validator

from proctor.records._snapshot import Part, Snapshot
from proctor.vocab import (
    MailDelivery,
    MailRuleField,
    Rsvp,
)

CellValue = str | int | float
"""A non-empty cell as a sheet stores it: a number when it read as one, else text."""


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
