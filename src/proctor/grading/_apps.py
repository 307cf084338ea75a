"""Evaluators of the app-state checks over the apps' end-state snapshots (``EndState.apps``).

Each app's snapshot is written by ``proctor.world.apps`` (its module docstring
gives the shape) and read here through ``EndState.app(MailSnapshot)`` and the
like (``proctor.records._app_snapshots``): a snapshot of another shape is a
``GradingError`` naming the app and the field. An app that is missing from
``EndState.apps`` was neither seeded nor touched, and reads as empty: nothing
sent, no drafts, no events.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from proctor.grading._mail import attachment_misses
from proctor.grading._outcome import CheckOutcome
from proctor.records import (
    CalendarEvent,
    CalendarSnapshot,
    ChatPost,
    ChatSnapshot,
    EndState,
    MailDraft,
    MailSnapshot,
    SentMail,
    SheetsSnapshot,
)
from proctor.scenario import (
    ChatPosted,
    DraftExists,
    EventExists,
    MailMatch,
    MailSent,
    NothingSent,
    Pattern,
    SheetCells,
    When,
    ZonedWhen,
    anchor,
    parse_cell,
    split_address,
)

SHOWN = 5
"""How many non-matching items a result shows."""


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


def _mail_misses(args: MailMatch, item: SentMail | MailDraft, state: EndState) -> list[str]:
    """Why a sent message or draft does not match; empty when it does."""
    to = [a.lower() for a in item.to]
    cc = [a.lower() for a in item.cc]
    misses = [f"to lacks {a}" for a in _addresses(args.to) if a not in to]
    misses += [f"cc lacks {a}" for a in _addresses(args.cc) if a not in cc]
    if args.only_to:
        extra = sorted(set(to + cc) - set(_addresses(args.to) + _addresses(args.cc)))
        misses += [f"also to {a}" for a in extra]
    if args.subject_contains is not None and not _contains_all(
        item.subject, [args.subject_contains]
    ):
        misses.append(f"subject {item.subject!r}, expected it to contain {args.subject_contains!r}")
    if args.body_contains is not None and not _contains_all(item.body, _texts(args.body_contains)):
        misses.append("body lacks " + ", ".join(repr(t) for t in _texts(args.body_contains)))
    misses += attachment_misses(list(args.attachments), list(item.attachments), state)
    return misses


def _mail_expected(args: MailMatch) -> dict[str, Any]:
    keys = ("to", "cc", "only_to", "subject_contains", "body_contains")
    out = {k: getattr(args, k) for k in keys if getattr(args, k) not in (None, False)}
    if args.attachments:
        out["attachments"] = [a.model_dump(exclude_none=True) for a in args.attachments]
    out["count"] = args.expectation()
    return out


def _mail_items(
    args: MailMatch, items: list[SentMail] | list[MailDraft], what: str, state: EndState
) -> CheckOutcome:
    matching, misses = [], []
    for item in items:
        why = _mail_misses(args, item, state)
        if why:
            misses.append(f"{item.id}: " + "; ".join(why))
        else:
            matching.append(item.id)
    actual = {"matching": matching, what: len(items)}
    detail = "non-matching: " + " | ".join(misses[:SHOWN]) if misses else ""
    if not items:
        detail = f"no {what}"
    return CheckOutcome(args.accepts(len(matching)), _mail_expected(args), actual, detail)


def _sent_mail(state: EndState) -> list[SentMail]:
    """Mail sent during the attempt (seeded history left out)."""
    mail = state.app(MailSnapshot)
    return [s for s in mail.sent if not s.seeded] if mail else []


def _my_posts(state: EndState) -> list[ChatPost]:
    """Chat posts and replies the user made during the attempt."""
    chat = state.app(ChatSnapshot)
    return [p for p in chat.posts if not p.seeded and p.by == chat.me] if chat else []


def mail_sent(args: MailSent, state: EndState) -> CheckOutcome:
    return _mail_items(args, _sent_mail(state), "sent", state)


def draft_exists(args: DraftExists, state: EndState) -> CheckOutcome:
    mail = state.app(MailSnapshot)
    return _mail_items(args, list(mail.drafts) if mail else [], "drafts", state)


def nothing_sent(args: NothingSent, state: EndState) -> CheckOutcome:
    if args.app == "mail":
        mails = _sent_mail(state)
        count = len(mails)
        shown = [f"{s.id} to {', '.join(s.to)}" for s in mails]
    else:
        posts = _my_posts(state)
        count = len(posts)
        shown = [f"{p.id} in #{p.channel}" for p in posts]
    detail = "sent: " + ", ".join(shown[:SHOWN]) if shown else ""
    return CheckOutcome(not count, {"app": args.app, "count": 0}, count, detail)


def moment(value: When | dt.datetime, now: dt.datetime, tz: str) -> dt.datetime:
    """The instant a check's time names on the calendar in zone ``tz``.

    A ``When``'s ``days`` count from today in ``tz``, its ``at`` is a time in
    the ``ZonedWhen``'s own ``tz`` when it has one, else in ``tz``.
    """
    if isinstance(value, ZonedWhen):
        return anchor(value, now, value.tz or tz, tz)
    return anchor(value, now, tz) if isinstance(value, When) else value


def event_exists(args: EventExists, state: EndState) -> CheckOutcome:
    calendar = state.app(CalendarSnapshot)
    expected: dict[str, Any] = {
        k: v for k, v in args.model_dump(exclude={"name", "count", "min", "max"}).items() if v
    }
    expected["count"] = args.expectation()
    if calendar is None:
        return CheckOutcome(False, expected, {"matching": []}, "no calendar in the end state")
    now, tz = calendar.now, calendar.tz or "UTC"
    start = moment(args.start, now, tz) if args.start is not None else None
    end = moment(args.end, now, tz) if args.end is not None else None
    if start is not None:
        expected["start"] = start.isoformat()
    if end is not None:
        expected["end"] = end.isoformat()
    matching, misses = [], []
    for event in calendar.events:
        why = _event_misses(args, event, start, end, calendar.owner)
        if why:
            misses.append(f"{event.id} {event.title!r}: " + "; ".join(why))
        else:
            matching.append(event.id)
    detail = "non-matching: " + " | ".join(misses[:SHOWN]) if misses else ""
    return CheckOutcome(args.accepts(len(matching)), expected, {"matching": matching}, detail)


def _event_misses(
    args: EventExists,
    event: CalendarEvent,
    start: dt.datetime | None,
    end: dt.datetime | None,
    owner: str,
) -> list[str]:
    title = event.title
    ev_start, ev_end = event.start, event.end
    people: dict[str, str | None] = {a.email.lower(): a.rsvp for a in event.attendees}
    misses = []
    if args.id is not None and event.id != args.id:
        misses.append("another id")
    if args.title is not None and _fold(title) != _fold(args.title):
        misses.append(f"title {title!r}, expected {args.title!r}")
    if args.title_contains is not None and not _contains_all(title, [args.title_contains]):
        misses.append(f"title {title!r}, expected it to contain {args.title_contains!r}")
    if start is not None and ev_start != start:
        misses.append(f"starts {ev_start.isoformat()}, expected {start.isoformat()}")
    if end is not None and ev_end != end:
        misses.append(f"ends {ev_end.isoformat()}, expected {end.isoformat()}")
    if args.minutes is not None and ev_end - ev_start != dt.timedelta(minutes=args.minutes):
        misses.append(
            f"lasts {ev_start.isoformat()}..{ev_end.isoformat()}, expected {args.minutes} min"
        )
    misses += [f"{a} not invited" for a in _addresses(args.attendees) if a not in people]
    misses += [f"{a} invited" for a in _addresses(args.uninvited) if a in people]
    for who, rsvp in args.rsvp.items():
        email = _addresses(who)[0]
        got = event.my_rsvp if email == owner else people.get(email)
        if got != rsvp:
            misses.append(f"{email} rsvp {got}, expected {rsvp}")
    if args.new is not None:
        # An invite that arrived during the attempt (a timeline ``deliver``) was not seeded,
        # but the user did not create it either: what the user creates, the user organizes.
        created = not event.seeded and event.organizer.lower() == owner.lower()
        if created != args.new:
            if not args.new:
                misses.append("created during the attempt")
            else:
                misses.append("seeded" if event.seeded else f"an invite from {event.organizer}")
    return misses


def _same_cell(expected: Any, actual: Any) -> bool:
    if isinstance(expected, Pattern):
        return actual is not None and re.fullmatch(expected.regex, str(actual)) is not None
    return bool(parse_cell(expected) == parse_cell(actual))


def _ref_key(ref: str) -> tuple[int, str]:
    return int(ref[1:]), ref[0]


def sheet_cells(args: SheetCells, state: EndState) -> CheckOutcome:
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
    snapshot = state.app(SheetsSnapshot)
    books = {b.id: b for b in snapshot.workbooks} if snapshot else {}
    book = books.get(args.workbook)
    if book is None:
        return CheckOutcome(
            False, expected, None, f"no workbook {args.workbook!r}; workbooks: {sorted(books)}"
        )
    sheet = next((s for s in book.sheets if args.sheet in (None, s.name)), None)
    if sheet is None:
        names = [s.name for s in book.sheets]
        return CheckOutcome(
            False, expected, None, f"no sheet {args.sheet!r} in {args.workbook}; sheets: {names}"
        )
    cells: dict[str, Any] = dict(sheet.cells)
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
    actual = {"sheet": sheet.name, "cells": shown}
    return CheckOutcome(not misses, expected, actual, ("; ".join(misses[:10]) if misses else ""))


def chat_posted(args: ChatPosted, state: EndState) -> CheckOutcome:
    mine = _my_posts(state)
    matching, misses = [], []
    for post in mine:
        why = []
        if args.channel is not None and post.channel != args.channel.lstrip("#"):
            why.append(f"in #{post.channel}")
        if args.thread is not None and post.thread != args.thread:
            why.append(f"thread {post.thread}")
        if args.top_level and post.thread is not None:
            why.append(f"a reply in {post.thread}")
        if args.text_contains is not None and not _contains_all(
            post.text, _texts(args.text_contains)
        ):
            why.append(f"text {post.text[:80]!r}")
        if why:
            misses.append(f"{post.id}: " + "; ".join(why))
        else:
            matching.append(post.id)
    keys = ("channel", "thread", "top_level", "text_contains")
    expected = {k: getattr(args, k) for k in keys if getattr(args, k) not in (None, False)}
    expected["count"] = args.expectation()
    detail = "non-matching: " + " | ".join(misses[:SHOWN]) if misses else ""
    if not mine:
        detail = "the user posted nothing"
    return CheckOutcome(
        args.accepts(len(matching)), expected, {"matching": matching, "posts": len(mine)}, detail
    )
