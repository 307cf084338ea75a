"""The mailbox's pages: folders, messages, threads, compose, sent, drafts, search."""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit import page_error, read_form, see_other
from proctor.world._kit._time import show, show_brief
from proctor.world._render import render
from proctor.world._site import world_of
from proctor.world.apps.mail._state import FOLDERS, Mailbox, Message, Sent, mailbox


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
    form = await read_form(request, trim=False)
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
