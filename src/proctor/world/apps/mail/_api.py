"""The mailbox's JSON API."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from proctor.world._kit import BadJson, api_error, json_object, text_of
from proctor.world._site import world_of
from proctor.world.apps.mail._state import FOLDERS, Draft, Mailbox, Message, Outgoing, mailbox


def _message_json(msg: Message) -> dict[str, Any]:
    data = msg.data()
    for i, facts in enumerate(data["attachments"], start=1):
        facts["url"] = f"/api/messages/{msg.id}/attachments/{i}"
    return data


async def api_messages(request: Request) -> Response:
    box = mailbox(world_of(request))
    typed = request.query_params.get("folder", "inbox")
    name = "all" if typed == "all" else box.folder_named(typed)
    if name is None:
        return api_error([f"folder must be one of: {', '.join(box.all_folders())}, all"], 400)
    messages = box.folder(name)
    if "label" in request.query_params:
        label = box.label_named(request.query_params["label"])
        if label is None:
            return api_error([f"no label {request.query_params['label']!r}"], 400)
        messages = [m for m in messages if label in m.labels]
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
        files=draft.attachments if draft is not None else (),
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


async def api_folders(request: Request) -> Response:
    """GET /api/folders: every folder (with counts) and every label."""
    box = mailbox(world_of(request))
    folders = [
        {
            "name": f,
            "system": f in FOLDERS,
            "messages": len(box.folder(f)),
            "unread": box.unread_in(f),
        }
        for f in box.all_folders()
    ]
    labels = [{"name": label, "messages": len(box.labelled(label))} for label in box.labels]
    return JSONResponse({"folders": folders, "labels": labels})


async def api_rules(request: Request) -> Response:
    """GET /api/rules: the rules, in the order they act."""
    box = mailbox(world_of(request))
    return JSONResponse({"rules": [r.data() for r in box.rules]})
