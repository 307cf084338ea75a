"""mail.proctor.test: the user's mailbox: inbox, threads, read/unread, compose, drafts.

Seed: ``world.apps.mail`` (``proctor.scenario._apps.MailSeed``). Other sites put
mail in the inbox with ``deliver`` (e.g. a sign-in code).

Pages: ``/`` inbox, ``/folder/{archive,spam}``, ``/message/<id>`` (opening marks
it read), ``/thread/<key>``, ``/message/<id>/attachments/<n>`` (download),
``/compose`` (``?reply=<id>``, ``?forward=<id>``, ``?draft=<id>``), ``/sent``,
``/sent/<id>``, ``/drafts``, ``/search?q=``. Posts: ``/compose`` (action send or
save), ``/message/<id>/unread``, ``/message/<id>/archive``,
``/drafts/<id>/delete``; each answers 303, or 4xx with the messages shown.

JSON API: ``GET /api/messages?folder=inbox|archive|spam|all&unread=true&q=``,
``GET /api/messages/<id>`` (does not mark read), ``POST /api/messages/<id>/read
{read}``, ``GET /api/drafts``, ``POST /api/drafts {to, cc, subject, body, id?,
in_reply_to?}``, ``GET /api/sent``, ``POST /api/send {to, cc, subject, body,
draft?, in_reply_to?}``; ``to``/``cc`` are a list or a comma-separated string.
Errors are ``{"ok": false, "errors": [...]}`` with 400, 404 or 422.

Snapshot (``EndState.apps["mail"]``; ``None`` when unseeded and untouched)::

    {now, tz, address, name,
     messages: [{id, folder, thread, from, from_name, to, cc, subject, body, at,
                 read, attachments: [{name, type, size, sha256}]}],
     drafts: [{id, to, cc, subject, body, at, seeded, edited, in_reply_to}],
     sent: [{id, to, cc, subject, body, at, seeded, in_reply_to, thread}]}

Addresses are lowercase bare addresses; times are UTC ISO 8601.

Noise (seed ``noise: true``): every visit of the inbox page (``/`` or
``/folder/inbox``) first delivers a fresh promotion or notification, ids ``n1``,
``n2``..., stamped with the run clock (``proctor.world.apps._noise``). The JSON
API never adds noise; it lists what the visits delivered, as the snapshot does.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import io
import mimetypes
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from reportlab.pdfgen import canvas
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from proctor.errors import WorldError
from proctor.scenario._apps import AttachmentSeed, MailSeed, split_address
from proctor.world._render import render
from proctor.world._site import AttemptWorld, Site, world_of
from proctor.world.apps._noise import mail_noise
from proctor.world.apps._time import at, iso, run_now, show, show_brief
from proctor.world.apps._web import (
    MAX_TEXT,
    BadJson,
    addresses,
    api_error,
    form_fields,
    fresh_ids,
    json_object,
    page_error,
    see_other,
    text_of,
)

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
        name, address = _name_and_address(sender)
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


def pdf_bytes(pages: Sequence[str]) -> bytes:
    """A real PDF with one page per string; the same pages give the same bytes."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, invariant=True)
    for page in pages:
        y = 760.0
        for line in page.splitlines() or [""]:
            pdf.drawString(72, y, line)
            y -= 16
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _attachment(seed: AttachmentSeed) -> Attachment:
    ctype = seed.type or mimetypes.guess_type(seed.name)[0] or "application/octet-stream"
    if seed.text is not None:
        return Attachment(seed.name, ctype, seed.text.encode("utf-8"))
    if seed.base64 is not None:
        return Attachment(seed.name, ctype, base64.b64decode(seed.base64))
    return Attachment(seed.name, seed.type or "application/pdf", pdf_bytes(seed.pdf or []))


def _name_and_address(text: str) -> tuple[str, str]:
    parsed = split_address(text)
    if parsed is None:  # the seed model already refused it
        raise WorldError(f"mail seed: {text!r} is not an email address")
    return parsed


def new_state(world: AttemptWorld) -> dict[str, Any]:
    raw = world.seeds.get(NAME)
    seed = MailSeed.model_validate(raw if raw is not None else {})
    box = Mailbox(seed.tz, seed.address, seed.name, run_now(world), seeded=raw is not None)
    box.noise = seed.noise
    ids = fresh_ids("m", {m.id for m in seed.messages if m.id})
    for m in seed.messages:
        name, sender = _name_and_address(m.from_)
        mid = m.id or next(ids)
        to = [_name_and_address(a)[1] for a in m.to] or [seed.address]
        cc = [_name_and_address(a)[1] for a in m.cc]
        box.messages.append(
            Message(
                id=mid,
                folder=m.folder,
                thread=m.thread or mid,
                sender=sender,
                sender_name=name,
                to=to,
                cc=cc,
                subject=m.subject,
                body=m.body,
                at=at(m.at, world, seed.tz),
                read=m.read,
                attachments=[_attachment(a) for a in m.attachments],
            )
        )
    for i, d in enumerate(seed.drafts, start=1):
        to = [_name_and_address(a)[1] for a in d.to]
        cc = [_name_and_address(a)[1] for a in d.cc]
        box.drafts.append(Draft(f"d{i}", to, cc, d.subject, d.body, at(d.at, world, seed.tz), True))
    box.counters["d"] = len(seed.drafts)
    for i, s in enumerate(seed.sent, start=1):
        to = [_name_and_address(a)[1] for a in s.to]
        cc = [_name_and_address(a)[1] for a in s.cc]
        sid = f"s{i}"
        when = at(s.at, world, seed.tz)
        box.sent.append(Sent(sid, to, cc, s.subject, s.body, when, True, s.thread or sid))
    box.counters["s"] = len(seed.sent)
    return {"box": box}


def mailbox(world: AttemptWorld) -> Mailbox:
    """The attempt's mailbox.

    Raises:
        WorldError: the mail app is not served to this attempt.
    """
    box = world.sites.get(NAME, {}).get("box")
    if not isinstance(box, Mailbox):
        raise WorldError(f"attempt {world.attempt}: the mail app is not on this server")
    return box


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


# pages


def _page(template: str, box: Mailbox, status: int = 200, **ctx: Any) -> Response:
    def brief(moment: dt.datetime) -> str:
        return show_brief(moment, box.tz, box.now)

    def full(moment: dt.datetime) -> str:
        return show(moment, box.tz)

    return render(
        f"mail/{template}", status, box=box, brief=brief, full=full, q=ctx.pop("q", ""), **ctx
    )


async def inbox(request: Request) -> Response:
    world = world_of(request)
    box = mailbox(world)
    box.visit_inbox(world)
    return _page("list.html", box, folder="inbox", messages=box.folder("inbox"))


async def folder(request: Request) -> Response:
    world = world_of(request)
    box = mailbox(world)
    name = request.path_params["name"]
    if name not in FOLDERS:
        return page_error([f"There is no folder called {name!r}."], 404, back="/")
    if name == "inbox":
        box.visit_inbox(world)
    return _page("list.html", box, folder=name, messages=box.folder(name))


async def message_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    msg = box.message(request.path_params["id"])
    if msg is None:
        return page_error(["This message does not exist."], 404, back="/")
    if not msg.read:
        msg.read = True
        box.touched = True
    return _page("message.html", box, msg=msg, in_thread=len(box.thread(msg.thread)))


async def thread_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    items = box.thread(request.path_params["key"])
    if not items:
        return page_error(["This conversation does not exist."], 404, back="/")
    for item in items:
        if isinstance(item, Message) and not item.read:
            item.read = True
            box.touched = True
    return _page("thread.html", box, items=items, mine=[isinstance(i, Sent) for i in items])


async def attachment(request: Request) -> Response:
    box = mailbox(world_of(request))
    msg = box.message(request.path_params["id"])
    n = request.path_params["n"]
    if msg is None or not 1 <= n <= len(msg.attachments):
        return page_error(["This attachment does not exist."], 404, back="/")
    file = msg.attachments[n - 1]
    disposition = f"attachment; filename*=UTF-8''{quote(file.name)}"
    ctype = file.type + ("; charset=utf-8" if file.type.startswith("text/") else "")
    return Response(file.data, media_type=ctype, headers={"content-disposition": disposition})


async def mark_unread(request: Request) -> Response:
    box = mailbox(world_of(request))
    msg = box.message(request.path_params["id"])
    if msg is None:
        return page_error(["This message does not exist."], 404, back="/")
    msg.read = False
    box.touched = True
    return see_other(f"/?unread={msg.id}")


async def archive(request: Request) -> Response:
    box = mailbox(world_of(request))
    msg = box.message(request.path_params["id"])
    if msg is None:
        return page_error(["This message does not exist."], 404, back="/")
    msg.folder = "archive"
    box.touched = True
    return see_other(f"/?archived={msg.id}")


def _quote(msg: Message | Sent, box: Mailbox) -> str:
    who = msg.sender_shown if isinstance(msg, Message) else box.address
    quoted = "\n".join(f"> {line}" for line in msg.body.splitlines())
    return f"\n\nOn {show(msg.at, box.tz)}, {who} wrote:\n{quoted}"


async def compose_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    query = request.query_params
    values = {"to": "", "cc": "", "subject": "", "body": "", "draft": "", "reply_to": ""}
    if "draft" in query:
        draft = box.draft(query["draft"])
        if draft is None:
            return page_error(["This draft does not exist."], 404, back="/drafts")
        values.update(
            to=", ".join(draft.to),
            cc=", ".join(draft.cc),
            subject=draft.subject,
            body=draft.body,
            draft=draft.id,
            reply_to=draft.in_reply_to or "",
        )
    elif "reply" in query or "forward" in query:
        mid = query.get("reply") or query.get("forward") or ""
        msg = box.message(mid)
        if msg is None:
            return page_error(["This message does not exist."], 404, back="/")
        if "reply" in query:
            subject = msg.subject if msg.subject.lower().startswith("re:") else f"Re: {msg.subject}"
            values.update(to=msg.sender, subject=subject, body=_quote(msg, box), reply_to=msg.id)
        else:
            values.update(subject=f"Fwd: {msg.subject}", body=_quote(msg, box))
    return _page("compose.html", box, values=values, errors=[])


async def compose_post(request: Request) -> Response:
    box = mailbox(world_of(request))
    form = await form_fields(request)
    values = {k: form.get(k, "") for k in ("to", "cc", "subject", "body", "draft", "reply_to")}
    action = form.get("action", "send")
    draft = box.draft(values["draft"]) if values["draft"] else None
    if values["draft"] and draft is None:
        return page_error(["This draft does not exist any more."], 404, back="/drafts")
    if action not in ("send", "save"):
        return page_error([f"Unknown action {action!r}."], 400, back="/compose")
    reply_to = values["reply_to"] or None
    out = box.check(
        values["to"],
        values["cc"],
        values["subject"],
        values["body"],
        sending=action == "send",
        reply_to=reply_to,
    )
    if out.errors:
        return _page("compose.html", box, 422, values=values, errors=out.errors)
    if action == "save":
        saved = box.save(out, draft, reply_to)
        return see_other(f"/drafts?saved={saved.id}")
    sent = box.send(out, draft, reply_to)
    return see_other(f"/sent?sent={sent.id}")


async def sent_list(request: Request) -> Response:
    box = mailbox(world_of(request))
    flash = box.sent_item(request.query_params.get("sent", ""))
    return _page("sent.html", box, items=box.sent_newest(), flash=flash)


async def sent_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    item = box.sent_item(request.path_params["id"])
    if item is None:
        return page_error(["This sent message does not exist."], 404, back="/sent")
    return _page("sent_item.html", box, item=item)


async def drafts_list(request: Request) -> Response:
    box = mailbox(world_of(request))
    flash = box.draft(request.query_params.get("saved", ""))
    deleted = request.query_params.get("deleted", "")
    return _page("drafts.html", box, items=box.drafts_newest(), flash=flash, deleted=deleted)


async def delete_draft(request: Request) -> Response:
    box = mailbox(world_of(request))
    draft = box.draft(request.path_params["id"])
    if draft is None:
        return page_error(["This draft does not exist."], 404, back="/drafts")
    box.drafts.remove(draft)
    box.touched = True
    return see_other(f"/drafts?deleted={draft.id}")


async def search(request: Request) -> Response:
    box = mailbox(world_of(request))
    query = request.query_params.get("q", "").strip()
    if not query:
        return _page(
            "search.html", box, 400, q="", found=[], sent=[], errors=["Type something to search."]
        )
    found, sent = box.search(query)
    return _page("search.html", box, q=query, found=found, sent=sent, errors=[])


# JSON API


def _message_json(msg: Message) -> dict[str, Any]:
    data = msg.data()
    for i, facts in enumerate(data["attachments"], start=1):
        facts["url"] = f"/api/messages/{msg.id}/attachments/{i}"
    return data


async def api_messages(request: Request) -> Response:
    box = mailbox(world_of(request))
    name = request.query_params.get("folder", "inbox")
    if name not in (*FOLDERS, "all"):
        return api_error([f"folder must be one of: {', '.join(FOLDERS)}, all"], 400)
    messages = box.folder(name)
    query = request.query_params.get("q", "").strip()
    if query:
        found = box.search(query)[0]
        messages = [m for m in messages if m in found]
    if request.query_params.get("unread", "").lower() in ("1", "true", "yes"):
        messages = [m for m in messages if not m.read]
    return JSONResponse({"messages": [_message_json(m) for m in messages]})


async def api_message(request: Request) -> Response:
    box = mailbox(world_of(request))
    msg = box.message(request.path_params["id"])
    if msg is None:
        return api_error([f"no message {request.path_params['id']!r}"], 404)
    return JSONResponse(_message_json(msg))


async def api_mark(request: Request) -> Response:
    box = mailbox(world_of(request))
    msg = box.message(request.path_params["id"])
    if msg is None:
        return api_error([f"no message {request.path_params['id']!r}"], 404)
    try:
        body = await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)
    read = body.get("read", True)
    if not isinstance(read, bool):
        return api_error(["read must be true or false"], 422)
    msg.read = read
    box.touched = True
    return JSONResponse(_message_json(msg))


async def _api_outgoing(
    request: Request, *, sending: bool
) -> tuple[Mailbox, Outgoing, Draft | None, str | None] | Response:
    box = mailbox(world_of(request))
    try:
        body = await json_object(request)
    except BadJson as exc:
        return api_error([str(exc)], 400)
    draft_key = "draft" if sending else "id"
    draft_id = text_of(body.get(draft_key))
    draft = box.draft(draft_id) if draft_id else None
    if draft_id and draft is None:
        return api_error([f"no draft {draft_id!r}"], 404)
    reply_to = text_of(body.get("in_reply_to")) or (draft.in_reply_to if draft else None)
    out = box.check(
        text_of(body.get("to")),
        text_of(body.get("cc")),
        text_of(body.get("subject")),
        text_of(body.get("body")),
        sending=sending,
        reply_to=reply_to,
    )
    if out.errors:
        return api_error(out.errors)
    return box, out, draft, reply_to


async def api_send(request: Request) -> Response:
    found = await _api_outgoing(request, sending=True)
    if isinstance(found, Response):
        return found
    box, out, draft, reply_to = found
    return JSONResponse({"ok": True, "sent": box.send(out, draft, reply_to).data()}, 201)


async def api_save_draft(request: Request) -> Response:
    found = await _api_outgoing(request, sending=False)
    if isinstance(found, Response):
        return found
    box, out, draft, reply_to = found
    saved = box.save(out, draft, reply_to)
    return JSONResponse({"ok": True, "draft": saved.data()}, 200 if draft else 201)


async def api_drafts(request: Request) -> Response:
    box = mailbox(world_of(request))
    return JSONResponse({"drafts": [d.data() for d in box.drafts_newest()]})


async def api_sent(request: Request) -> Response:
    box = mailbox(world_of(request))
    return JSONResponse({"sent": [s.data() for s in box.sent_newest()]})


SITE = Site(
    name=NAME,
    routes=[
        Route("/", inbox),
        Route("/folder/{name:str}", folder),
        Route("/message/{id:str}", message_page),
        Route("/message/{id:str}/attachments/{n:int}", attachment),
        Route("/message/{id:str}/unread", mark_unread, methods=["POST"]),
        Route("/message/{id:str}/archive", archive, methods=["POST"]),
        Route("/thread/{key:str}", thread_page),
        Route("/compose", compose_page),
        Route("/compose", compose_post, methods=["POST"]),
        Route("/sent", sent_list),
        Route("/sent/{id:str}", sent_page),
        Route("/drafts", drafts_list),
        Route("/drafts/{id:str}/delete", delete_draft, methods=["POST"]),
        Route("/search", search),
        Route("/api/messages", api_messages),
        Route("/api/messages/{id:str}", api_message),
        Route("/api/messages/{id:str}/read", api_mark, methods=["POST"]),
        Route("/api/messages/{id:str}/attachments/{n:int}", attachment),
        Route("/api/drafts", api_drafts),
        Route("/api/drafts", api_save_draft, methods=["POST"]),
        Route("/api/sent", api_sent),
        Route("/api/send", api_send, methods=["POST"]),
    ],
    new_state=new_state,
    snapshot=snapshot,
)
