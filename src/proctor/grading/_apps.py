"""Evaluators of the app-state checks over the apps' end-state snapshots (``EndState.apps``).

Each app's snapshot is written by ``proctor.world.apps`` (its module docstring
gives the shape). An app that is missing from ``EndState.apps`` was neither
seeded nor touched, and reads as empty: nothing sent, no drafts, no events.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from proctor.records import EndState
from proctor.scenario._apps import When, anchor, parse_cell, split_address
from proctor.scenario._checks import (
    ChatPosted,
    DraftExists,
    EventExists,
    MailMatch,
    MailSent,
    NothingSent,
    Pattern,
    SheetCells,
)

Verdict = tuple[bool, Any, Any, str]
SHOWN = 5
"""How many non-matching items a result shows."""


def _app(state: EndState, name: str) -> dict[str, Any]:
    snapshot = state.apps.get(name)
    return snapshot if isinstance(snapshot, dict) else {}


def _fold(text: str) -> str:
    """Case- and whitespace-insensitive form for ``*_contains``."""
    return " ".join(text.split()).casefold()


def _texts(value: str | list[str] | None) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def _addresses(value: str | list[str] | None) -> list[str]:
    out = []
    for text in _texts(value):
        parts = split_address(text)
        out.append(parts[1] if parts else text.strip().lower())
    return out


def _contains_all(haystack: str, needles: list[str]) -> bool:
    folded = _fold(haystack)
    return all(_fold(n) in folded for n in needles)


def _mail_misses(args: MailMatch, item: dict[str, Any]) -> list[str]:
    """Why a sent message or draft does not match; empty when it does."""
    to = [str(a).lower() for a in item.get("to", [])]
    cc = [str(a).lower() for a in item.get("cc", [])]
    misses = [f"to lacks {a}" for a in _addresses(args.to) if a not in to]
    misses += [f"cc lacks {a}" for a in _addresses(args.cc) if a not in cc]
    if args.only_to:
        extra = sorted(set(to + cc) - set(_addresses(args.to) + _addresses(args.cc)))
        misses += [f"also to {a}" for a in extra]
    if args.subject_contains is not None and not _contains_all(
        str(item.get("subject", "")), [args.subject_contains]
    ):
        misses.append(f"subject {item.get('subject')!r}")
    if args.body_contains is not None and not _contains_all(
        str(item.get("body", "")), _texts(args.body_contains)
    ):
        misses.append("body lacks " + ", ".join(repr(t) for t in _texts(args.body_contains)))
    return misses


def _mail_expected(args: MailMatch) -> dict[str, Any]:
    keys = ("to", "cc", "only_to", "subject_contains", "body_contains")
    out = {k: getattr(args, k) for k in keys if getattr(args, k) not in (None, False)}
    out["count"] = args.expectation()
    return out


def _mail_items(args: MailMatch, items: list[dict[str, Any]], what: str) -> Verdict:
    matching, misses = [], []
    for item in items:
        why = _mail_misses(args, item)
        if why:
            misses.append(f"{item.get('id')}: " + "; ".join(why))
        else:
            matching.append(item.get("id"))
    actual = {"matching": matching, what: len(items)}
    detail = "non-matching: " + " | ".join(misses[:SHOWN]) if misses else ""
    if not items:
        detail = f"no {what}"
    return args.accepts(len(matching)), _mail_expected(args), actual, detail


def mail_sent(args: MailSent, state: EndState) -> Verdict:
    sent = [s for s in _app(state, "mail").get("sent", []) if not s.get("seeded")]
    return _mail_items(args, sent, "sent")


def draft_exists(args: DraftExists, state: EndState) -> Verdict:
    return _mail_items(args, list(_app(state, "mail").get("drafts", [])), "drafts")


def nothing_sent(args: NothingSent, state: EndState) -> Verdict:
    snapshot = _app(state, args.app)
    if args.app == "mail":
        sent = [s for s in snapshot.get("sent", []) if not s.get("seeded")]
        shown = [f"{s.get('id')} to {', '.join(s.get('to', []))}" for s in sent]
    else:
        me = snapshot.get("me")
        sent = [p for p in snapshot.get("posts", []) if not p.get("seeded") and p.get("by") == me]
        shown = [f"{p.get('id')} in #{p.get('channel')}" for p in sent]
    detail = "sent: " + ", ".join(shown[:SHOWN]) if shown else ""
    return not sent, {"app": args.app, "count": 0}, len(sent), detail


def _instant(text: Any) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(str(text))
    except ValueError:
        return None


def _moment(value: When | dt.datetime, now: dt.datetime, tz: str) -> dt.datetime:
    return anchor(value, now, tz) if isinstance(value, When) else value


def event_exists(args: EventExists, state: EndState) -> Verdict:
    snapshot = _app(state, "calendar")
    now = _instant(snapshot.get("now"))
    tz = str(snapshot.get("tz") or "UTC")
    expected: dict[str, Any] = {
        k: v for k, v in args.model_dump(exclude={"name", "count", "min", "max"}).items() if v
    }
    expected["count"] = args.expectation()
    if now is None:
        return False, expected, {"matching": []}, "no calendar in the end state"
    start = _moment(args.start, now, tz) if args.start is not None else None
    end = _moment(args.end, now, tz) if args.end is not None else None
    if start is not None:
        expected["start"] = start.isoformat()
    if end is not None:
        expected["end"] = end.isoformat()
    matching, misses = [], []
    events = list(snapshot.get("events", []))
    for event in events:
        why = _event_misses(args, event, start, end, str(snapshot.get("owner", "")))
        if why:
            misses.append(f"{event.get('id')} {event.get('title')!r}: " + "; ".join(why))
        else:
            matching.append(event.get("id"))
    detail = "non-matching: " + " | ".join(misses[:SHOWN]) if misses else ""
    return args.accepts(len(matching)), expected, {"matching": matching}, detail


def _event_misses(
    args: EventExists,
    event: dict[str, Any],
    start: dt.datetime | None,
    end: dt.datetime | None,
    owner: str,
) -> list[str]:
    title = str(event.get("title", ""))
    ev_start, ev_end = _instant(event.get("start")), _instant(event.get("end"))
    people = {str(a.get("email", "")).lower(): a.get("rsvp") for a in event.get("attendees", [])}
    misses = []
    if args.title is not None and _fold(title) != _fold(args.title):
        misses.append(f"title {title!r}")
    if args.title_contains is not None and not _contains_all(title, [args.title_contains]):
        misses.append(f"title {title!r}")
    if start is not None and ev_start != start:
        misses.append(f"starts {event.get('start')}")
    if end is not None and ev_end != end:
        misses.append(f"ends {event.get('end')}")
    length = ev_end - ev_start if ev_start is not None and ev_end is not None else None
    if args.minutes is not None and length != dt.timedelta(minutes=args.minutes):
        misses.append(f"lasts {event.get('start')}..{event.get('end')}")
    misses += [f"{a} not invited" for a in _addresses(args.attendees) if a not in people]
    for who, rsvp in args.rsvp.items():
        email = _addresses(who)[0]
        got = event.get("my_rsvp") if email == owner else people.get(email)
        if got != rsvp:
            misses.append(f"{email} rsvp {got}")
    if args.new is not None and bool(event.get("seeded")) == args.new:
        misses.append("seeded" if args.new else "created during the attempt")
    return misses


def _same_cell(expected: Any, actual: Any) -> bool:
    if isinstance(expected, Pattern):
        return actual is not None and re.fullmatch(expected.regex, str(actual)) is not None
    return bool(parse_cell(expected) == parse_cell(actual))


def _ref_key(ref: str) -> tuple[int, str]:
    return int(ref[1:]), ref[0]


def sheet_cells(args: SheetCells, state: EndState) -> Verdict:
    expected: dict[str, Any] = {"workbook": args.workbook, "sheet": args.sheet}
    if args.cells:
        expected["cells"] = {
            ref: ({"regex": v.regex} if isinstance(v, Pattern) else v)
            for ref, v in args.cells.items()
        }
    if args.rows:
        expected["rows"] = args.rows
    if args.nonempty_rows is not None:
        expected["nonempty_rows"] = args.nonempty_rows
    books = {b.get("id"): b for b in _app(state, "sheets").get("workbooks", [])}
    book = books.get(args.workbook)
    if book is None:
        return False, expected, None, f"no workbook {args.workbook!r}; workbooks: {sorted(books)}"
    sheets = list(book.get("sheets", []))
    sheet = next((s for s in sheets if args.sheet in (None, s.get("name"))), None)
    if sheet is None:
        names = [s.get("name") for s in sheets]
        return False, expected, None, f"no sheet {args.sheet!r} in {args.workbook}; sheets: {names}"
    cells: dict[str, Any] = dict(sheet.get("cells", {}))
    misses = [
        f"{ref}={cells.get(ref)!r}"
        for ref, want in args.cells.items()
        if not _same_cell(want, cells.get(ref))
    ]
    grid: dict[int, dict[int, Any]] = {}
    for ref, value in cells.items():
        row, col = _ref_key(ref)
        grid.setdefault(row, {})[ord(col) - ord("A")] = value
    rows = [grid[r] for r in sorted(grid)]
    for want in args.rows:
        if not any(all(_same_cell(v, row.get(i)) for i, v in enumerate(want)) for row in rows):
            misses.append(f"no row {want!r}")
    if args.nonempty_rows is not None and len(rows) != args.nonempty_rows:
        misses.append(f"{len(rows)} non-empty rows")
    shown = dict(sorted(cells.items(), key=lambda kv: _ref_key(kv[0]))[:60])
    actual = {"sheet": sheet.get("name"), "cells": shown}
    return not misses, expected, actual, ("; ".join(misses[:10]) if misses else "")


def chat_posted(args: ChatPosted, state: EndState) -> Verdict:
    snapshot = _app(state, "chat")
    me = snapshot.get("me")
    mine = [p for p in snapshot.get("posts", []) if not p.get("seeded") and p.get("by") == me]
    matching, misses = [], []
    for post in mine:
        why = []
        if args.channel is not None and post.get("channel") != args.channel.lstrip("#"):
            why.append(f"in #{post.get('channel')}")
        if args.thread is not None and post.get("thread") != args.thread:
            why.append(f"thread {post.get('thread')}")
        if args.top_level and post.get("thread") is not None:
            why.append(f"a reply in {post.get('thread')}")
        if args.text_contains is not None and not _contains_all(
            str(post.get("text", "")), _texts(args.text_contains)
        ):
            why.append(f"text {str(post.get('text', ''))[:80]!r}")
        if why:
            misses.append(f"{post.get('id')}: " + "; ".join(why))
        else:
            matching.append(post.get("id"))
    keys = ("channel", "thread", "top_level", "text_contains")
    expected = {k: getattr(args, k) for k in keys if getattr(args, k) not in (None, False)}
    expected["count"] = args.expectation()
    detail = "non-matching: " + " | ".join(misses[:SHOWN]) if misses else ""
    if not mine:
        detail = "the user posted nothing"
    return args.accepts(len(matching)), expected, {"matching": matching, "posts": len(mine)}, detail
