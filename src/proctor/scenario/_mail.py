"""The mailbox's seed (``world.apps.mail``): messages, drafts, sent mail, folders, labels, rules."""

from __future__ import annotations

from pydantic import (
    Field,
    model_validator,
)

from proctor.scenario._mail_rules import SYSTEM_FOLDERS, FolderName, LabelName, RuleSeed
from proctor.scenario._seed import Address, Email, Seed, Slug, TimeZone, When


class AttachmentSeed(Seed):
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


class MessageSeed(Seed):
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


class DraftSeed(Seed):
    """A draft that already exists."""

    to: list[Address] = Field(default_factory=list)
    cc: list[Address] = Field(default_factory=list)
    subject: str = ""
    body: str = ""
    at: When = Field(default_factory=When, description="Last saved.")


class SentSeed(Seed):
    """A message the user sent before the attempt (history; never counted as sent by the agent)."""

    to: list[Address] = Field(min_length=1)
    cc: list[Address] = Field(default_factory=list)
    subject: str
    body: str = ""
    at: When
    thread: Slug | None = None


class MailSeed(Seed):
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
