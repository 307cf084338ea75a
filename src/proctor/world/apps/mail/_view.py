"""How the mailbox's pages are drawn: the page helper, list paths and the notice after a post."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlencode

from starlette.responses import Response

from proctor.world._kit._time import show, show_brief
from proctor.world._render import render
from proctor.world.apps.mail._state import Mailbox


def page(template: str, box: Mailbox, status: int = 200, **ctx: Any) -> Response:
    """A mail page (``templates/mail/<template>``) with the mailbox and date helpers."""

    def brief(moment: dt.datetime) -> str:
        return show_brief(moment, box.tz, box.now)

    def full(moment: dt.datetime) -> str:
        return show(moment, box.tz)

    return render(
        f"mail/{template}",
        status,
        box=box,
        brief=brief,
        full=full,
        q=ctx.pop("q", ""),
        quote=_segment,
        **ctx,
    )


def _segment(name: str) -> str:
    """A folder or label name as one URL path segment."""
    return quote(name, safe="")


def list_path(folder: str) -> str:
    """The page that lists a folder: ``/`` for the inbox."""
    return "/" if folder == "inbox" else f"/folder/{_segment(folder)}"


def label_path(label: str) -> str:
    """The page that lists a label's messages."""
    return f"/label/{_segment(label)}"


def back_path(text: str) -> str:
    """Where a bulk action returns: the list page it came from, else the inbox."""
    if text.startswith(("/folder/", "/label/")) and "?" not in text and "#" not in text:
        return text
    return "/"


def after(path: str, done: str, n: int, to: str = "") -> str:
    """``path`` with the notice of what was done (``list_notice`` reads it)."""
    params = {"done": done, "n": str(n), **({"to": to} if to else {})}
    return f"{path}?{urlencode(params)}"


def list_notice(box: Mailbox, query: Mapping[str, str]) -> str | None:
    """The line shown after a move, archive, label or read change, from the page's query."""
    done = query.get("done", "")
    try:
        n = int(query.get("n", "1"))
    except ValueError:
        return None
    if n < 1:
        return None
    what = "1 message" if n == 1 else f"{n} messages"
    to = query.get("to", "")
    folder = box.folder_named(to) if to else None
    label = box.label_named(to) if to else None
    simple = {
        "archive": f"{what.capitalize()} archived.",
        "inbox": f"{what.capitalize()} moved to Inbox.",
        "read": f"{what.capitalize()} marked as read.",
        "unread": f"{what.capitalize()} marked as unread.",
    }
    if done in simple:
        return simple[done]
    if done == "move" and folder is not None:
        return f"{what.capitalize()} moved to {box.folder_title(folder)}."
    if done == "label" and label is not None:
        return f"Label {label} added to {what}."
    if done == "unlabel" and label is not None:
        return f"Label {label} removed from {what}."
    return None
