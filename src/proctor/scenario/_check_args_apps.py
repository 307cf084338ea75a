"""Arguments of the app-state checks: mail, calendar, sheets and chat snapshots."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from proctor.scenario._check_args import CheckArgs, Counted, Pattern
from proctor.scenario._check_args_calendar import Moment
from proctor.scenario._check_args_mail import AttachmentExpect
from proctor.scenario._seed import split_address
from proctor.scenario._sheets import CELL_REF, CellValue
from proctor.vocab import Rsvp


class MailMatch(Counted):
    """Which mail messages match: recipients, subject and body (text case-insensitive)."""

    reads_site: ClassVar[str | None] = "mail"

    to: str | list[str] | None = Field(
        default=None, description="Address(es) that must all be among the message's To."
    )
    cc: str | list[str] | None = Field(
        default=None, description="Address(es) that must all be among the message's Cc."
    )
    only_to: bool = Field(
        default=False, description="Recipients (To and Cc) are exactly `to` and `cc`, no others."
    )
    subject_contains: str | None = Field(default=None, description="Text in the subject.")
    body_contains: str | list[str] | None = Field(
        default=None, description="Text (or every text of a list) in the body."
    )
    attachments: list[AttachmentExpect] = Field(
        default_factory=list,
        description="Files the message must carry, each by name and/or bytes (others may too).",
    )

    @field_validator("to", "cc")
    @classmethod
    def _addresses(cls, value: str | list[str] | None) -> str | list[str] | None:
        for text in [value] if isinstance(value, str) else value or []:
            if split_address(text) is None:
                raise ValueError(f"{text!r} is not an email address")
        return value


class MailSent(MailMatch):
    """Messages sent from the mail app during the attempt (seeded history never counts)."""


class DraftExists(MailMatch):
    """Drafts in the mail app at the end (seeded drafts count too, edited or not)."""


class NothingSent(CheckArgs):
    """Nothing was sent from an app during the attempt: no mail, or no chat post or reply.

    A scenario must pair it with a check that the task's precondition happened
    (e.g. ``draft_exists``): alone it passes for an agent that does nothing, so
    a scenario with no other positive check is rejected at load time.
    """

    app: Literal["mail", "chat"] = Field(description="The app that must have sent nothing.")


class EventExists(Counted):
    """Calendar events at the end that match (title case-insensitive; times as instants)."""

    reads_site: ClassVar[str | None] = "calendar"

    id: str | None = Field(
        default=None,
        description="The event's id: a seeded event's `id`, else e1, e2... (events created "
        "during the attempt get the next free one).",
    )
    title: str | None = Field(default=None, description="The whole title (trimmed).")
    title_contains: str | None = Field(default=None, description="Text the title holds.")
    start: Moment | None = Field(
        default=None,
        description="Start: {days: 2, at: '14:00'} in the calendar's zone (or with tz: "
        "Asia/Tokyo, in that zone), or ISO with offset.",
    )
    end: Moment | None = Field(default=None, description="End, in the same forms as start.")
    minutes: int | None = Field(default=None, ge=1, description="Duration in minutes.")
    attendees: list[str] = Field(
        default_factory=list, description="Addresses that must all be invited."
    )
    uninvited: list[str] = Field(
        default_factory=list, description="Addresses that must not be among the guests."
    )
    rsvp: dict[str, Rsvp] = Field(
        default_factory=dict,
        description="Address -> its RSVP state, e.g. me@example.test: accepted.",
    )
    new: bool | None = Field(
        default=None,
        description="Only events the user created during the attempt (true), or only the others "
        "(false): seeded ones and invites that arrived during the attempt.",
    )


CellExpect = CellValue | Pattern


class SheetCells(CheckArgs):
    """Cells of a sheet at the end. Numbers compare by value ("1,250.00" == 1250); text trimmed."""

    reads_site: ClassVar[str | None] = "sheets"

    workbook: str = Field(description="Workbook id.")
    sheet: str | None = Field(default=None, description="Sheet name; default the first sheet.")
    cells: dict[str, CellExpect] = Field(
        default_factory=dict, description="A1 ref -> value, null for empty, or {regex: ...}."
    )
    rows: list[list[CellValue]] = Field(
        default_factory=list,
        description="Rows that must each appear somewhere, in any order (from column A).",
    )
    nonempty_rows: int | None = Field(
        default=None, ge=0, description="Exactly this many rows hold any value."
    )

    @field_validator("cells")
    @classmethod
    def _refs(cls, cells: dict[str, CellExpect]) -> dict[str, CellExpect]:
        bad = [ref for ref in cells if not CELL_REF.match(ref)]
        if bad:
            raise ValueError(f"not A1 references (A-Z, 1-999): {', '.join(bad)}")
        return cells

    @model_validator(mode="after")
    def _something(self) -> SheetCells:
        if not self.cells and not self.rows and self.nonempty_rows is None:
            raise ValueError("give cells, rows or nonempty_rows")
        return self


class ChatPosted(Counted):
    """Chat posts and replies the user made during the attempt."""

    reads_site: ClassVar[str | None] = "chat"

    channel: str | None = Field(default=None, description="Channel name, without #.")
    thread: str | None = Field(default=None, description="Only replies to this message id.")
    top_level: bool = Field(default=False, description="Only posts that are not replies.")
    text_contains: str | list[str] | None = Field(
        default=None, description="Text (or every text of a list) in the post, case-insensitive."
    )

    @model_validator(mode="after")
    def _thread_or_top(self) -> ChatPosted:
        if self.thread is not None and self.top_level:
            raise ValueError("give thread (replies to a message) or top_level, not both")
        return self
