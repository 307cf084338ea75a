"""The mailbox: received messages, folders, labels, rules, drafts and sent mail."""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from proctor.errors import WorldError
from proctor.scenario import SYSTEM_FOLDERS, split_address
from proctor.vocab import MailDelivery
from proctor.world._kit import MAX_TEXT, addresses
from proctor.world._kit._time import iso
from proctor.world._site import AttemptWorld
from proctor.world.apps._noise import mail_noise
from proctor.world.apps.mail._items import (
    Attachment,
    Draft,
    Later,
    Message,
    Outgoing,
    Rule,
    Sent,
)

NAME = "mail"
FOLDERS = SYSTEM_FOLDERS
"""The folders every mailbox has (inbox, archive, spam); the user's own come after."""
MAX_FOLDERS = 50
MAX_LABELS = 50
MAX_RULES = 100

__all__ = [
    "FOLDERS",
    "NAME",
    "Attachment",
    "Draft",
    "Mailbox",
    "Message",
    "Outgoing",
    "Rule",
    "Sent",
    "deliver",
    "mailbox",
    "name_and_address",
    "snapshot",
]


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
    folders: list[str] = field(default_factory=list)
    """The user's own folders, in the order made (names as typed)."""
    labels: list[str] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    pending: list[Later] = field(default_factory=list)
    """Seeded mail still on its way, in seed order."""
    served: int = 0
    """Requests of this attempt the mail site has answered (or is answering)."""
    touched: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    noise: bool = False
    visits: int = 0
    """Inbox visits so far (counted only with noise on)."""

    def new_id(self, prefix: str, taken: Iterable[str]) -> str:
        taken = set(taken)
        while True:
            self.counters[prefix] = self.counters.get(prefix, 0) + 1
            candidate = f"{prefix}{self.counters[prefix]}"
            if candidate not in taken:
                return candidate

    def message_ids(self) -> list[str]:
        """Ids of the messages delivered and on their way."""
        return [m.id for m in self.messages] + [p.message.id for p in self.pending]

    def message(self, mid: str) -> Message | None:
        return next((m for m in self.messages if m.id == mid), None)

    def draft(self, did: str) -> Draft | None:
        return next((d for d in self.drafts if d.id == did), None)

    def sent_item(self, sid: str) -> Sent | None:
        return next((s for s in self.sent if s.id == sid), None)

    def rule(self, rid: str) -> Rule | None:
        return next((r for r in self.rules if r.id == rid), None)

    # folders and labels

    def all_folders(self) -> list[str]:
        """Every folder: inbox, archive, spam, then the user's own."""
        return [*FOLDERS, *self.folders]

    def folder_named(self, name: str) -> str | None:
        """The folder called ``name`` (case-insensitive), as the mailbox spells it."""
        wanted = name.strip().casefold()
        return next((f for f in self.all_folders() if f.casefold() == wanted), None)

    def label_named(self, name: str) -> str | None:
        wanted = name.strip().casefold()
        return next((label for label in self.labels if label.casefold() == wanted), None)

    @staticmethod
    def folder_title(name: str) -> str:
        """How a folder is shown: ``Inbox`` for inbox, the user's own folders as typed."""
        return name.capitalize() if name in FOLDERS else name

    def folder(self, name: str) -> list[Message]:
        """A folder's messages, newest first (``all``: every folder)."""
        return self._newest([m for m in self.messages if name == "all" or m.folder == name])

    def labelled(self, label: str) -> list[Message]:
        """The messages that carry ``label``, in any folder, newest first."""
        return self._newest([m for m in self.messages if label in m.labels])

    def _newest(self, picked: list[Message]) -> list[Message]:
        order = {id(m): i for i, m in enumerate(self.messages)}
        # Ties (mail delivered at the run clock) go by arrival, not by id: "m10" < "m9".
        return sorted(picked, key=lambda m: (m.at, order[id(m)]), reverse=True)

    def move(self, msg: Message, folder: str) -> None:
        msg.folder = folder
        self.touched = True

    def add_label(self, msg: Message, label: str) -> None:
        if label not in msg.labels:
            msg.labels.append(label)
        self.touched = True

    # arrival

    def arrive(self, msg: Message, how: MailDelivery) -> None:
        """Deliver ``msg`` to the inbox; every matching rule acts on it, in order."""
        msg.folder, msg.delivered = "inbox", how
        for rule in self.rules:
            if rule.matches(msg):
                rule.act(msg)
        self.messages.append(msg)
        self.touched = True

    def tick(self) -> None:
        """One request to the mail site: first deliver the mail due by now, then count it."""
        due = [p for p in self.pending if p.after <= self.served]
        for later in due:
            self.pending.remove(later)
            self.arrive(later.message, "attempt")
        self.served += 1

    def receive(
        self, prefix: str, sender: str, subject: str, body: str, files: list[Attachment]
    ) -> Message:
        """A new unread message from ``sender`` (``a@b.test`` or ``Name <a@b.test>``).

        It arrives in the inbox, through the rules.
        """
        name, address = name_and_address(sender)
        mid = self.new_id(prefix, self.message_ids())
        msg = Message(
            mid, "inbox", mid, address, name, [self.address], [], subject, body, self.now, False
        )
        msg.attachments = list(files)
        self.arrive(msg, "attempt")
        return msg

    def visit_inbox(self, world: AttemptWorld) -> None:
        """Count an inbox visit; with noise on, a fresh promotion arrives first."""
        if not self.noise:
            return
        self.visits += 1
        item = mail_noise(world, self.visits)
        self.receive("n", item.sender, item.subject, item.body, [])

    def add_rule(self, rule: Rule, *, existing: bool) -> Rule:
        """Save ``rule``; with ``existing``, it acts on matching mail already here (not spam)."""
        self.rules.append(rule)
        if existing:
            for msg in self.messages:
                if msg.folder != "spam" and rule.matches(msg):
                    rule.act(msg)
                    rule.existing += 1
        self.touched = True
        return rule

    def unread(self) -> int:
        return sum(not m.read for m in self.messages if m.folder == "inbox")

    def unread_in(self, folder: str) -> int:
        return sum(not m.read for m in self.messages if m.folder == folder)

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
        self,
        to: str,
        cc: str,
        subject: str,
        body: str,
        *,
        sending: bool,
        reply_to: str | None,
        files: Sequence[Attachment] = (),
    ) -> Outgoing:
        """What is typed, checked; ``files`` are the attachments it will carry."""
        to_list, bad_to = addresses(to)
        cc_list, bad_cc = addresses(cc)
        errors = [f"{b!r} is not a valid email address." for b in (*bad_to, *bad_cc)]
        if sending and not to_list and not bad_to:
            errors.append("Add at least one recipient in To.")
        if sending and not subject.strip() and not body.strip():
            errors.append("Write a subject or a message before sending.")
        typed = to.strip() or cc.strip() or subject.strip() or body.strip()
        if not sending and not typed and not files:
            errors.append("There is nothing to save: the draft is empty.")
        if len(subject) > 500 or len(body) > MAX_TEXT:
            errors.append("The message is too long.")
        if reply_to and self.message(reply_to) is None and self.sent_item(reply_to) is None:
            errors.append("The message you are replying to does not exist.")
        return Outgoing(to_list, cc_list, subject.strip(), body, errors, list(files))

    def send(self, out: Outgoing, draft: Draft | None, reply_to: str | None) -> Sent:
        sid = self.new_id("s", [s.id for s in self.sent])
        thread = sid
        if reply_to:
            parent = self.message(reply_to) or self.sent_item(reply_to)
            thread = parent.thread if parent is not None else sid
        item = Sent(sid, out.to, out.cc, out.subject, out.body, self.now, False, thread, reply_to)
        item.attachments = list(out.attachments)
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
        draft.attachments = list(out.attachments)
        draft.at = self.now
        self.touched = True
        return draft

    def snapshot(self) -> dict[str, Any] | None:
        """The end state; mail still on its way is shown delivered (through the rules).

        The mailbox itself is left as it is: a snapshot taken mid-attempt changes nothing.
        """
        if not self.seeded and not self.touched:
            return None
        box = self
        if self.pending:
            box = copy.deepcopy(self)
            for later in list(box.pending):
                box.pending.remove(later)
                box.arrive(later.message, "end")
        return {
            "now": iso(box.now),
            "tz": box.tz,
            "address": box.address,
            "name": box.name,
            "messages": [m.data() for m in box.messages],
            "drafts": [d.data() for d in box.drafts],
            "sent": [s.data() for s in box.sent],
            "folders": list(box.folders),
            "labels": list(box.labels),
            "rules": [r.data() for r in box.rules],
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
