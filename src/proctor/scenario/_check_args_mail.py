"""Arguments of the mail-organizing checks: folders, labels, rules and sent attachments."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from proctor.scenario._check_args import CheckArgs, Counted
from proctor.scenario._files import ScratchPath
from proctor.scenario._mail_rules import RuleField
from proctor.scenario._seed import split_address


class AttachmentExpect(BaseModel):
    """A file a sent message (or draft) must carry: by name, and/or by its bytes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str | None = Field(
        default=None, description="The attachment's file name, exactly (case-insensitive)."
    )
    file: ScratchPath | None = Field(
        default=None,
        description="A scratch path: the attachment holds that seeded file's original bytes "
        "(by SHA-256), e.g. input/report.csv.",
    )
    sha256: str | None = Field(
        default=None, pattern=r"^[0-9a-f]{64}$", description="The attachment's SHA-256 (hex)."
    )
    from_message: str | None = Field(
        default=None,
        description="A received message's id: the attachment holds the bytes of that "
        "message's attachment called `name` (a forward).",
    )

    @model_validator(mode="after")
    def _something(self) -> AttachmentExpect:
        if self.name is None and self.file is None and self.sha256 is None:
            raise ValueError("give name, file or sha256 (from_message also needs name)")
        if self.from_message is not None and self.name is None:
            raise ValueError("from_message needs name: which of that message's attachments")
        return self


class MailSelect(CheckArgs):
    """Which received messages a check is about: by id, subject and sender (all given must hold)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    reads_site: ClassVar[str | None] = "mail"

    id: str | list[str] | None = Field(
        default=None, description="Message id(s): a seed's `id`, or m1, m2... in seed order."
    )
    subject_contains: str | None = Field(
        default=None, description="Text in the subject (case-insensitive)."
    )
    from_: str | None = Field(
        default=None, alias="from", description="The sender's address (a@b.test or Name <a@b>)."
    )
    count: int | None = Field(
        default=None,
        ge=1,
        description="How many messages the selectors must pick (default: at least one).",
    )

    @field_validator("from_")
    @classmethod
    def _address(cls, value: str | None) -> str | None:
        if value is not None and split_address(value) is None:
            raise ValueError(f"{value!r} is not an email address")
        return value

    @model_validator(mode="after")
    def _selects(self) -> MailSelect:
        if self.id is None and self.subject_contains is None and self.from_ is None:
            raise ValueError("select messages by id, subject_contains or from")
        return self

    def ids(self) -> list[str]:
        """The ids given, as a list."""
        return [self.id] if isinstance(self.id, str) else list(self.id or [])


class MailInFolder(MailSelect):
    """Every selected message is in this folder at the end (mail due later counts as delivered)."""

    folder: str = Field(
        min_length=1, description="inbox, archive, spam or a folder's name (case-insensitive)."
    )


class MessageLabels(MailSelect):
    """Every selected message carries the labels of `has` and none of `lacks` (case-insensitive)."""

    has: list[str] = Field(
        default_factory=list, description="Labels each picked message has (case-insensitive)."
    )
    lacks: list[str] = Field(
        default_factory=list, description="Labels no picked message has (case-insensitive)."
    )

    @model_validator(mode="after")
    def _labels(self) -> MessageLabels:
        if not self.has and not self.lacks:
            raise ValueError("give has or lacks")
        return self


class MailRuleExists(Counted):
    """Mail rules at the end that match: conditions, what they catch, and their actions.

    ``catches`` and ``spares`` run the rule's conditions over the end state's
    messages (the app's own matching), so a rule is judged by what it files, not
    by how its text is phrased.
    """

    reads_site: ClassVar[str | None] = "mail"

    conditions: dict[RuleField, str] = Field(
        default_factory=dict,
        description="Field (from, to, subject, body) -> text the rule's condition on that "
        "field must contain (case-insensitive); the rule may have other conditions.",
    )
    catches: list[str] = Field(
        default_factory=list, description="Ids of messages the rule's conditions must match."
    )
    spares: list[str] = Field(
        default_factory=list, description="Ids of messages the rule's conditions must not match."
    )
    folder: str | None = Field(
        default=None, description="The rule moves mail to this folder (case-insensitive)."
    )
    label: str | None = Field(default=None, description="The rule applies this label.")
    read: bool | None = Field(default=None, description="The rule marks mail read (or not).")
    new: bool | None = Field(
        default=None, description="Only rules saved during the attempt (true) or seeded (false)."
    )
