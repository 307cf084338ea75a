"""What a mailbox holds: attachments, received messages, drafts, sent mail, rules."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from typing import Any

from proctor.scenario import RuleField, message_texts, rule_matches
from proctor.vocab import MailDelivery
from proctor.world._kit._time import iso


@dataclass
class Attachment:
    name: str
    type: str
    data: bytes

    def facts(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "size": len(self.data),
            "sha256": hashlib.sha256(self.data).hexdigest(),
        }


@dataclass
class Message:
    """A received message."""

    id: str
    folder: str
    thread: str
    sender: str
    sender_name: str
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    at: dt.datetime
    read: bool
    attachments: list[Attachment] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    """Ids of the rules that acted on it."""
    delivered: MailDelivery = "setup"

    def data(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "folder": self.folder,
            "thread": self.thread,
            "from": self.sender,
            "from_name": self.sender_name,
            "to": list(self.to),
            "cc": list(self.cc),
            "subject": self.subject,
            "body": self.body,
            "at": iso(self.at),
            "read": self.read,
            "attachments": [a.facts() for a in self.attachments],
            "labels": list(self.labels),
            "rules": list(self.rules),
            "delivered": self.delivered,
        }

    @property
    def sender_shown(self) -> str:
        return self.sender_name or self.sender


@dataclass
class Draft:
    id: str
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    at: dt.datetime
    seeded: bool
    edited: bool = False
    in_reply_to: str | None = None
    attachments: list[Attachment] = field(default_factory=list)

    def data(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "to": list(self.to),
            "cc": list(self.cc),
            "subject": self.subject,
            "body": self.body,
            "at": iso(self.at),
            "seeded": self.seeded,
            "edited": self.edited,
            "in_reply_to": self.in_reply_to,
            "attachments": [a.facts() for a in self.attachments],
        }


@dataclass
class Sent:
    id: str
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    at: dt.datetime
    seeded: bool
    thread: str
    in_reply_to: str | None = None
    attachments: list[Attachment] = field(default_factory=list)

    def data(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "to": list(self.to),
            "cc": list(self.cc),
            "subject": self.subject,
            "body": self.body,
            "at": iso(self.at),
            "seeded": self.seeded,
            "in_reply_to": self.in_reply_to,
            "thread": self.thread,
            "attachments": [a.facts() for a in self.attachments],
        }


@dataclass
class Outgoing:
    """A message being composed, as typed, with what is wrong with it."""

    to: list[str]
    cc: list[str]
    subject: str
    body: str
    errors: list[str]
    attachments: list[Attachment] = field(default_factory=list)


CONDITION_NAMES: dict[RuleField, str] = {
    "from": "From",
    "to": "To",
    "subject": "Subject",
    "body": "Body",
}
"""How the rule editor names each condition field."""


@dataclass
class Rule:
    """A rule (filter): when every condition holds, its actions apply."""

    id: str
    conditions: dict[RuleField, str]
    folder: str | None
    label: str | None
    read: bool
    seeded: bool
    existing: int = 0
    """Messages already in the mailbox it acted on when it was saved."""

    def matches(self, msg: Message) -> bool:
        texts = message_texts(msg.sender, msg.sender_name, msg.to, msg.cc, msg.subject, msg.body)
        return rule_matches(self.conditions, texts)

    def act(self, msg: Message) -> None:
        """Apply the actions to ``msg``."""
        if self.folder is not None:
            msg.folder = self.folder
        if self.label is not None and self.label not in msg.labels:
            msg.labels.append(self.label)
        if self.read:
            msg.read = True
        msg.rules.append(self.id)

    def same_as(self, other: Rule) -> bool:
        return (self.conditions, self.folder, self.label, self.read) == (
            other.conditions,
            other.folder,
            other.label,
            other.read,
        )

    def when_text(self) -> str:
        """``From contains "billing@x" and Subject contains "invoice"``."""
        return " and ".join(
            f'{CONDITION_NAMES[key]} contains "{text}"' for key, text in self.conditions.items()
        )

    def then_text(self, title: str | None) -> str:
        """``move to Invoices, apply label Bills, mark as read``; ``title`` is the folder's."""
        parts = []
        if self.folder is not None:
            parts.append(f"move to {title or self.folder}")
        if self.label is not None:
            parts.append(f"apply label {self.label}")
        if self.read:
            parts.append("mark as read")
        return ", ".join(parts)

    def data(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "conditions": dict(self.conditions),
            "folder": self.folder,
            "label": self.label,
            "read": self.read,
            "seeded": self.seeded,
            "existing": self.existing,
        }


@dataclass
class Later:
    """A seeded message still on its way: delivered once ``after`` requests were answered."""

    after: int
    message: Message
