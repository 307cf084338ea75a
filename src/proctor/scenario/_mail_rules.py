"""Mail folders, labels and rules as scenario data, and the one rule-matching function.

A mail rule (a filter) has conditions, each "this field contains this text", and
actions (move to a folder, apply a label, mark as read). ``rule_matches`` is the
meaning of a rule's conditions: the mail app applies it to arriving mail and the
``mail_rule_exists`` check evaluates it over the end state's messages, so the two
cannot disagree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from proctor.vocab import MailRuleField

RuleField = MailRuleField
"""What a rule's condition reads: from (``Name <address>``), to (To and Cc), subject, body."""
RULE_FIELDS: tuple[RuleField, ...] = get_args(RuleField)

SYSTEM_FOLDERS = ("inbox", "archive", "spam")
"""The folders every mailbox has; the user's own folders come after them."""
RESERVED_NAMES = (*SYSTEM_FOLDERS, "sent", "drafts", "all")
"""Names no folder or label may take (case-insensitive): the mailbox's own views."""
NAME_MAX = 40
CONDITION_MAX = 200
_NAME = re.compile(r"^\w[\w .&'()+-]*$")


def name_problem(name: str, what: Literal["folder", "label"]) -> str | None:
    """Why ``name`` (already trimmed) cannot name a folder or label; None when it can."""
    if not name:
        return f"Give the {what} a name."
    if len(name) > NAME_MAX:
        return f"A {what} name has at most {NAME_MAX} characters."
    if not _NAME.match(name):
        return (
            f"A {what} name starts with a letter or digit and may use letters, digits, "
            "spaces and . & ' ( ) + - _ only."
        )
    if name.casefold() in RESERVED_NAMES:
        return f"{name!r} is a name the mailbox uses itself; choose another {what} name."
    return None


def _folder_name(name: str) -> str:
    problem = name_problem(name.strip(), "folder")
    if problem is not None:
        raise ValueError(problem)
    return name.strip()


def _label_name(name: str) -> str:
    problem = name_problem(name.strip(), "label")
    if problem is not None:
        raise ValueError(problem)
    return name.strip()


FolderName = Annotated[str, AfterValidator(_folder_name)]
"""A folder of the user's own: not inbox, archive, spam (or sent, drafts, all)."""
LabelName = Annotated[str, AfterValidator(_label_name)]


def fold(text: str) -> str:
    """Case- and whitespace-insensitive form of a text, for "contains"."""
    return " ".join(text.split()).casefold()


def message_texts(
    sender: str, sender_name: str, to: Sequence[str], cc: Sequence[str], subject: str, body: str
) -> dict[RuleField, str]:
    """What each condition field of a rule reads in one message."""
    shown = f"{sender_name} <{sender}>" if sender_name else sender
    return {"from": shown, "to": " ".join([*to, *cc]), "subject": subject, "body": body}


def rule_matches(conditions: Mapping[RuleField, str], texts: Mapping[RuleField, str]) -> bool:
    """Whether a message (its ``message_texts``) meets every condition of a rule.

    Each condition holds when its text is in that field, ignoring case and runs of
    white space; a rule with no condition matches nothing.
    """
    return bool(conditions) and all(
        fold(want) in fold(texts.get(key, "")) for key, want in conditions.items()
    )


class RuleSeed(BaseModel):
    """A rule the mailbox already has: conditions (all must hold) and actions."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    from_: str | None = Field(
        default=None,
        alias="from",
        min_length=1,
        max_length=CONDITION_MAX,
        description="The sender (`Name <address>`) contains this text.",
    )
    to: str | None = Field(
        default=None,
        min_length=1,
        max_length=CONDITION_MAX,
        description="A To or Cc address contains this text.",
    )
    subject: str | None = Field(
        default=None,
        min_length=1,
        max_length=CONDITION_MAX,
        description="The subject contains this text.",
    )
    body: str | None = Field(
        default=None,
        min_length=1,
        max_length=CONDITION_MAX,
        description="The body contains this text.",
    )
    folder: str | None = Field(
        default=None,
        description="Move matching mail to this folder: archive, spam or one of `folders`.",
    )
    label: str | None = Field(default=None, description="Apply this label (one of `labels`).")
    read: bool = Field(default=False, description="Mark matching mail as read.")

    def conditions(self) -> dict[RuleField, str]:
        """The given conditions, field -> text."""
        given: tuple[tuple[RuleField, str | None], ...] = (
            ("from", self.from_),
            ("to", self.to),
            ("subject", self.subject),
            ("body", self.body),
        )
        return {key: text for key, text in given if text is not None}

    @model_validator(mode="after")
    def _complete(self) -> RuleSeed:
        if not self.conditions():
            raise ValueError("give at least one condition: from, to, subject or body")
        if self.folder is None and self.label is None and not self.read:
            raise ValueError("give at least one action: folder, label or read: true")
        if self.folder is not None and self.folder.casefold() == "inbox":
            raise ValueError("a rule cannot move mail to the inbox: mail arrives there")
        return self
