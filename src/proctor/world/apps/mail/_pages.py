"""The mailbox's pages: folders, messages, threads, compose, sent, drafts, search."""

from __future__ import annotations

from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import Response

from proctor.world._kit import page_error, read_form, see_other
from proctor.world._kit._time import show
from proctor.world._site import world_of
from proctor.world.apps.mail._attach import ACCEPT, kept, over_limits, read_uploads
from proctor.world.apps.mail._items import Attachment
from proctor.world.apps.mail._state import Mailbox, Message, Sent, mailbox
from proctor.world.apps.mail._view import after, list_notice, list_path
from proctor.world.apps.mail._view import page as _page


def list_page(box: Mailbox, request: Request, folder: str) -> Response:
    """A folder's list, with the select-many actions and the notice of the last one."""
    return _page(
        "list.html",
        box,
        folder=folder,
        label=None,
        title=box.folder_title(folder),
        back=list_path(folder),
        messages=box.folder(folder),
        notice=list_notice(box, request.query_params),
    )


async def inbox(request: Request) -> Response:
    world = world_of(request)
    box = mailbox(world)
    box.visit_inbox(world)
    return list_page(box, request, "inbox")


async def folder(request: Request) -> Response:
    world = world_of(request)
    box = mailbox(world)
    name = box.folder_named(request.path_params["name"])
    if name is None:
        shown = request.path_params["name"]
        return page_error([f"There is no folder called {shown!r}."], 404, back="/")
    if name == "inbox":
        box.visit_inbox(world)
    return list_page(box, request, name)


async def message_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    msg = box.message(request.path_params["id"])
    if msg is None:
        return page_error(["This message does not exist."], 404, back="/")
    if not msg.read:
        msg.read = True
        box.touched = True
    return _page(
        "message.html",
        box,
        msg=msg,
        in_thread=len(box.thread(msg.thread)),
        notice=list_notice(box, request.query_params),
    )


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
    return _download(msg.attachments if msg is not None else [], request.path_params["n"], "/")


async def sent_attachment(request: Request) -> Response:
    box = mailbox(world_of(request))
    item = box.sent_item(request.path_params["id"])
    return _download(
        item.attachments if item is not None else [], request.path_params["n"], "/sent"
    )


def _download(files: list[Attachment], n: int, back: str) -> Response:
    if not 1 <= n <= len(files):
        return page_error(["This attachment does not exist."], 404, back=back)
    file = files[n - 1]
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
    return see_other(after(list_path(msg.folder), "unread", 1))


async def archive(request: Request) -> Response:
    box = mailbox(world_of(request))
    msg = box.message(request.path_params["id"])
    if msg is None:
        return page_error(["This message does not exist."], 404, back="/")
    was = msg.folder
    box.move(msg, "archive")
    return see_other(after(list_path(was), "archive", 1))


def _quote(msg: Message | Sent, box: Mailbox) -> str:
    who = msg.sender_shown if isinstance(msg, Message) else box.address
    quoted = "\n".join(f"> {line}" for line in msg.body.splitlines())
    return f"\n\nOn {show(msg.at, box.tz)}, {who} wrote:\n{quoted}"


FIELDS = ("to", "cc", "subject", "body", "draft", "reply_to", "forward_of")
"""The compose form's text fields (hidden ones included)."""


def _compose(
    box: Mailbox,
    values: dict[str, str],
    carried: list[Attachment],
    *,
    keep: set[int] | None = None,
    errors: list[str] | None = None,
    status: int = 200,
) -> Response:
    """The compose form; ``carried`` are a forward's or draft's files, ``keep`` those ticked."""
    ticked = set(range(1, len(carried) + 1)) if keep is None else keep
    return _page(
        "compose.html",
        box,
        status,
        values=values,
        carried=carried,
        keep=ticked,
        accept=ACCEPT,
        errors=errors or [],
    )


async def compose_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    query = request.query_params
    values = dict.fromkeys(FIELDS, "")
    carried: list[Attachment] = []
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
        carried = draft.attachments
    elif "reply" in query or "forward" in query:
        mid = query.get("reply") or query.get("forward") or ""
        msg = box.message(mid)
        if msg is None:
            return page_error(["This message does not exist."], 404, back="/")
        if "reply" in query:
            subject = msg.subject if msg.subject.lower().startswith("re:") else f"Re: {msg.subject}"
            values.update(to=msg.sender, subject=subject, body=_quote(msg, box), reply_to=msg.id)
        else:
            values.update(subject=f"Fwd: {msg.subject}", body=_quote(msg, box), forward_of=msg.id)
            carried = msg.attachments
    return _compose(box, values, carried)


async def compose_post(request: Request) -> Response:
    box = mailbox(world_of(request))
    form = await request.form()
    fields = await read_form(request, trim=False)
    values = {k: fields.get(k, "") for k in FIELDS}
    action = fields.get("action", "send")
    draft = box.draft(values["draft"]) if values["draft"] else None
    if values["draft"] and draft is None:
        return page_error(["This draft does not exist any more."], 404, back="/drafts")
    if action not in ("send", "save"):
        return page_error([f"Unknown action {action!r}."], 400, back="/compose")
    carried: list[Attachment] = []
    if draft is not None:
        carried = draft.attachments
    elif values["forward_of"]:
        original = box.message(values["forward_of"])
        if original is None:
            return page_error(["The message you are forwarding does not exist."], 404, back="/")
        carried = original.attachments
    picks = [v for v in form.getlist("keep") if isinstance(v, str)]
    files, problems = kept(carried, picks)
    uploaded, upload_problems = await read_uploads(form)
    files += uploaded
    problems += upload_problems + over_limits(files)
    reply_to = values["reply_to"] or None
    out = box.check(
        values["to"],
        values["cc"],
        values["subject"],
        values["body"],
        sending=action == "send",
        reply_to=reply_to,
        files=files,
    )
    out.errors += problems
    if out.errors:
        if uploaded:
            out.errors.append("Choose the files to attach again.")
        keep = {int(p) for p in picks if p.isdigit()}
        return _compose(box, values, carried, keep=keep, errors=out.errors, status=422)
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
