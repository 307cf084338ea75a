"""The mailbox: received messages, drafts and sent mail, and their snapshot shapes."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from proctor.errors import WorldError
from proctor.scenario import split_address
from proctor.world._kit import MAX_TEXT, addresses
from proctor.world._kit._time import iso
from proctor.world._site import AttemptWorld
from proctor.world.apps._noise import mail_noise

NAME = "mail"
FOLDERS = ("inbox", "archive", "spam")


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
        }


@dataclass
class Outgoing:
    """A message being composed, as typed, with what is wrong with it."""

    to: list[str]
    cc: list[str]
    subject: str
    body: str
    errors: list[str]


@dataclass
class Mailbox:
    """One attempt's mailbox."""

    tz: str
    address: str
    name: str
    now: dt.datetime
    seeded: bool
    messages: list[Message] = field(default_factory=list)
    drafts: list[Draft] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    touched: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    noise: bool = False
    visits: int = 0
    """Inbox visits so far (counted only with noise on)."""

    def new_id(self, prefix: str, taken: Sequence[str]) -> str:
        while True:
            self.counters[prefix] = self.counters.get(prefix, 0) + 1
            candidate = f"{prefix}{self.counters[prefix]}"
            if candidate not in taken:
                return candidate

    def message(self, mid: str) -> Message | None:
        return next((m for m in self.messages if m.id == mid), None)

    def draft(self, did: str) -> Draft | None:
        return next((d for d in self.drafts if d.id == did), None)

    def sent_item(self, sid: str) -> Sent | None:
        return next((s for s in self.sent if s.id == sid), None)

    def folder(self, name: str) -> list[Message]:
        """A folder's messages, newest first (``all``: every folder)."""
        order = {id(m): i for i, m in enumerate(self.messages)}
        picked = [m for m in self.messages if name == "all" or m.folder == name]
        # Ties (mail delivered at the run clock) go by arrival, not by id: "m10" < "m9".
        return sorted(picked, key=lambda m: (m.at, order[id(m)]), reverse=True)

    def receive(
        self, prefix: str, sender: str, subject: str, body: str, files: list[Attachment]
    ) -> Message:
        """A new unread inbox message from ``sender`` (``a@b.test`` or ``Name <a@b.test>``)."""
        name, address = name_and_address(sender)
        mid = self.new_id(prefix, [m.id for m in self.messages])
        msg = Message(
            mid, "inbox", mid, address, name, [self.address], [], subject, body, self.now, False
        )
        msg.attachments = list(files)
        self.messages.append(msg)
        self.touched = True
        return msg

    def visit_inbox(self, world: AttemptWorld) -> None:
        """Count an inbox visit; with noise on, a fresh promotion arrives first."""
        if not self.noise:
            return
        self.visits += 1
        item = mail_noise(world, self.visits)
        self.receive("n", item.sender, item.subject, item.body, [])

    def unread(self) -> int:
        return sum(not m.read for m in self.messages if m.folder == "inbox")

    def search(self, query: str) -> tuple[list[Message], list[Sent]]:
        words = query.casefold().split()

        def hit(*texts: str) -> bool:
            hay = " ".join(texts).casefold()
            return all(w in hay for w in words)

        found = [
            m
            for m in self.folder("all")
            if hit(
                m.sender, m.sender_name, *m.to, m.subject, m.body, *(a.name for a in m.attachments)
            )
        ]
        sent = [s for s in self.sent_newest() if hit(*s.to, *s.cc, s.subject, s.body)]
        return found, sent

    def sent_newest(self) -> list[Sent]:
        return sorted(self.sent, key=lambda s: (s.at, s.id), reverse=True)

    def drafts_newest(self) -> list[Draft]:
        return sorted(self.drafts, key=lambda d: (d.at, d.id), reverse=True)

    def thread(self, key: str) -> list[Message | Sent]:
        items: list[Message | Sent] = [m for m in self.messages if m.thread == key]
        items += [s for s in self.sent if s.thread == key]
        return sorted(items, key=lambda i: (i.at, i.id))

    def check(
        self, to: str, cc: str, subject: str, body: str, *, sending: bool, reply_to: str | None
    ) -> Outgoing:
        to_list, bad_to = addresses(to)
        cc_list, bad_cc = addresses(cc)
        errors = [f"{b!r} is not a valid email address." for b in (*bad_to, *bad_cc)]
        if sending and not to_list and not bad_to:
            errors.append("Add at least one recipient in To.")
        if sending and not subject.strip() and not body.strip():
            errors.append("Write a subject or a message before sending.")
        if not sending and not (to.strip() or cc.strip() or subject.strip() or body.strip()):
            errors.append("There is nothing to save: the draft is empty.")
        if len(subject) > 500 or len(body) > MAX_TEXT:
            errors.append("The message is too long.")
        if reply_to and self.message(reply_to) is None and self.sent_item(reply_to) is None:
            errors.append("The message you are replying to does not exist.")
        return Outgoing(to_list, cc_list, subject.strip(), body, errors)

    def send(self, out: Outgoing, draft: Draft | None, reply_to: str | None) -> Sent:
        sid = self.new_id("s", [s.id for s in self.sent])
        thread = sid
        if reply_to:
            parent = self.message(reply_to) or self.sent_item(reply_to)
            thread = parent.thread if parent is not None else sid
        item = Sent(sid, out.to, out.cc, out.subject, out.body, self.now, False, thread, reply_to)
        self.sent.append(item)
        if draft is not None:
            self.drafts.remove(draft)
        self.touched = True
        return item

    def save(self, out: Outgoing, draft: Draft | None, reply_to: str | None) -> Draft:
        if draft is None:
            did = self.new_id("d", [d.id for d in self.drafts])
            draft = Draft(did, [], [], "", "", self.now, False, in_reply_to=reply_to)
            self.drafts.append(draft)
        else:
            draft.edited = True
        draft.to, draft.cc, draft.subject, draft.body = out.to, out.cc, out.subject, out.body
        draft.at = self.now
        self.touched = True
        return draft

    def snapshot(self) -> dict[str, Any] | None:
        if not self.seeded and not self.touched:
            return None
        return {
            "now": iso(self.now),
            "tz": self.tz,
            "address": self.address,
            "name": self.name,
            "messages": [m.data() for m in self.messages],
            "drafts": [d.data() for d in self.drafts],
            "sent": [s.data() for s in self.sent],
        }


def name_and_address(text: str) -> tuple[str, str]:
    parsed = split_address(text)
    if parsed is None:  # the seed model already refused it
        raise WorldError(f"mail seed: {text!r} is not an email address")
    return parsed


def mailbox(world: AttemptWorld) -> Mailbox:
    """The attempt's mailbox.

    Raises:
        WorldError: the mail app is not served to this attempt.
    """
    return world.state_of(NAME, Mailbox)


def deliver(
    world: AttemptWorld,
    *,
    sender: str,
    subject: str,
    body: str = "",
    attachments: Sequence[tuple[str, str, bytes]] = (),
) -> str:
    """Put a new unread message in the user's inbox (e.g. a sign-in code); returns its id.

    ``sender`` is ``a@b.test`` or ``Name <a@b.test>``; each attachment is
    ``(file name, content type, bytes)``. It is stamped with the run clock.
    """
    files = [Attachment(n, t, data) for n, t, data in attachments]
    return mailbox(world).receive("m", sender, subject, body, files).id


def snapshot(world: AttemptWorld) -> dict[str, Any] | None:
    return mailbox(world).snapshot()
