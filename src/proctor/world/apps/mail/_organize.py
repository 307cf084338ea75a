"""Organizing mail: folders, labels, moving a message, and select-many actions over a list.

Every post answers 303 to the page that shows the change (with a notice), or
400 with the page again and each problem named; an unknown message is 404.
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from proctor.scenario import name_problem
from proctor.vocab import MAIL_BULK_ACTIONS
from proctor.world._kit import page_error, read_form, see_other
from proctor.world._site import world_of
from proctor.world.apps.mail._items import Message
from proctor.world.apps.mail._state import MAX_FOLDERS, MAX_LABELS, Mailbox, mailbox
from proctor.world.apps.mail._view import (
    after,
    back_path,
    label_path,
    list_notice,
    list_path,
)
from proctor.world.apps.mail._view import page as _page


def _folders(box: Mailbox, status: int = 200, **ctx: object) -> Response:
    counts = {f: (len(box.folder(f)), box.unread_in(f)) for f in box.all_folders()}
    ctx.setdefault("errors", [])
    ctx.setdefault("typed", "")
    return _page("folders.html", box, status, counts=counts, **ctx)


async def folders_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    created = box.folder_named(request.query_params.get("created", ""))
    return _folders(box, created=created)


async def create_folder(request: Request) -> Response:
    box = mailbox(world_of(request))
    name = (await read_form(request, trim=True)).get("name", "")
    problem = name_problem(name, "folder")
    existing = box.folder_named(name)
    if problem is None and existing is not None:
        problem = f"There is already a folder called {box.folder_title(existing)!r}."
    if problem is None and len(box.folders) >= MAX_FOLDERS:
        problem = f"You have {MAX_FOLDERS} folders, the most a mailbox can have."
    if problem is not None:
        return _folders(box, 400, created=None, errors=[problem], typed=name)
    box.folders.append(name)
    box.touched = True
    return see_other(f"/folders?{urlencode({'created': name})}")


def _labels(box: Mailbox, status: int = 200, **ctx: object) -> Response:
    counts = {label: len(box.labelled(label)) for label in box.labels}
    ctx.setdefault("errors", [])
    ctx.setdefault("typed", "")
    return _page("labels.html", box, status, counts=counts, **ctx)


async def labels_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    return _labels(box, created=box.label_named(request.query_params.get("created", "")))


async def create_label(request: Request) -> Response:
    box = mailbox(world_of(request))
    name = (await read_form(request, trim=True)).get("name", "")
    problem = name_problem(name, "label")
    if problem is None and box.label_named(name) is not None:
        problem = f"There is already a label called {box.label_named(name)!r}."
    if problem is None and len(box.labels) >= MAX_LABELS:
        problem = f"You have {MAX_LABELS} labels, the most a mailbox can have."
    if problem is not None:
        return _labels(box, 400, created=None, errors=[problem], typed=name)
    box.labels.append(name)
    box.touched = True
    return see_other(f"/labels?{urlencode({'created': name})}")


async def label_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    label = box.label_named(request.path_params["name"])
    if label is None:
        shown = request.path_params["name"]
        return page_error([f"There is no label called {shown!r}."], 404, back="/labels")
    return _page(
        "list.html",
        box,
        folder=None,
        label=label,
        title=f"Label: {label}",
        back=label_path(label),
        messages=box.labelled(label),
        notice=list_notice(box, request.query_params),
    )


def _message(box: Mailbox, request: Request) -> Message | Response:
    msg = box.message(request.path_params["id"])
    if msg is None:
        return page_error(["This message does not exist."], 404, back="/")
    return msg


def _refused(msg: Message, problem: str) -> Response:
    return page_error([problem], 400, back=f"/message/{msg.id}")


async def move(request: Request) -> Response:
    """POST /message/<id>/move {folder}: to the folder it was in, with a notice."""
    box = mailbox(world_of(request))
    msg = _message(box, request)
    if isinstance(msg, Response):
        return msg
    typed = (await read_form(request, trim=True)).get("folder", "")
    target = box.folder_named(typed)
    if not typed:
        return _refused(msg, "Choose a folder to move the message to.")
    if target is None:
        return _refused(msg, f"There is no folder called {typed!r}.")
    was = msg.folder
    box.move(msg, target)
    return see_other(after(list_path(was), "move", 1, target))


async def unarchive(request: Request) -> Response:
    """POST /message/<id>/unarchive: back to the inbox (from archive, spam or a folder)."""
    box = mailbox(world_of(request))
    msg = _message(box, request)
    if isinstance(msg, Response):
        return msg
    if msg.folder == "inbox":
        return _refused(msg, "This message is already in the Inbox.")
    was = msg.folder
    box.move(msg, "inbox")
    return see_other(after(list_path(was), "inbox", 1))


async def add_label(request: Request) -> Response:
    """POST /message/<id>/label {label}: back to the message, which shows it."""
    return await _label(request, add=True)


async def remove_label(request: Request) -> Response:
    """POST /message/<id>/unlabel {label}."""
    return await _label(request, add=False)


async def _label(request: Request, *, add: bool) -> Response:
    box = mailbox(world_of(request))
    msg = _message(box, request)
    if isinstance(msg, Response):
        return msg
    typed = (await read_form(request, trim=True)).get("label", "")
    label = box.label_named(typed)
    if not typed:
        return _refused(msg, "Choose a label.")
    if label is None:
        return _refused(msg, f"There is no label called {typed!r}.")
    if add:
        box.add_label(msg, label)
    elif label in msg.labels:
        msg.labels.remove(label)
        box.touched = True
    else:
        return _refused(msg, f"This message does not have the label {label!r}.")
    return see_other(after(f"/message/{msg.id}", "label" if add else "unlabel", 1, label))


async def bulk(request: Request) -> Response:
    """POST /bulk {ids..., action, folder?, label?, back}: the ticked messages of a list."""
    box = mailbox(world_of(request))
    form = await request.form()
    ids = [v for v in form.getlist("ids") if isinstance(v, str)]
    fields = await read_form(request, trim=True)
    back = back_path(fields.get("back", "/"))
    action = fields.get("action", "")
    problems: list[str] = []
    if action not in MAIL_BULK_ACTIONS:
        problems.append(f"Unknown action {action!r}.")
    if not ids:
        problems.append("Select at least one message first.")
    picked = [box.message(mid) for mid in dict.fromkeys(ids)]
    if any(m is None for m in picked):
        problems.append("A selected message no longer exists; reload the page.")
    target = ""
    if action == "move":
        folder = box.folder_named(fields.get("folder", ""))
        if folder is None:
            problems.append("Choose the folder to move the selected messages to.")
        target = folder or ""
    if action == "label":
        label = box.label_named(fields.get("label", ""))
        if label is None:
            problems.append("Choose the label to apply to the selected messages.")
        target = label or ""
    if problems:
        return page_error(problems, 400, back=back)
    messages = [m for m in picked if m is not None]
    for msg in messages:
        _apply(box, msg, action, target)
    box.touched = True
    return see_other(after(back, action, len(messages), target))


def _apply(box: Mailbox, msg: Message, action: str, target: str) -> None:
    if action == "archive":
        msg.folder = "archive"
    elif action == "inbox":
        msg.folder = "inbox"
    elif action in ("read", "unread"):
        msg.read = action == "read"
    elif action == "move":
        msg.folder = target
    elif action == "label":
        box.add_label(msg, target)
