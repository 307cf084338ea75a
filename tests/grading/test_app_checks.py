"""The app-state checks over constructed end states: verdicts, and what they report."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from proctor.errors import GradingError
from proctor.grading import grade_one
from proctor.records import CheckResult, EndState, MailSnapshot
from proctor.scenario import CheckSpec

_CHECK: TypeAdapter[Any] = TypeAdapter(CheckSpec)


def check(data: dict[str, Any]) -> BaseModel:
    parsed: BaseModel = _CHECK.validate_python(data)
    return parsed


def run(data: dict[str, Any], apps: dict[str, Any]) -> CheckResult:
    return grade_one(check(data), EndState(apps=apps))


AT = "2025-03-04T10:00:00+00:00"


def draft(**fields: Any) -> dict[str, Any]:
    """A draft as the mail app snapshots it, with these fields."""
    return {"at": AT, "edited": False, "in_reply_to": None, "attachments": [], **fields}


def event(**fields: Any) -> dict[str, Any]:
    """An event as the calendar snapshots it, with these fields."""
    base = {
        "tz": "Europe/Paris",
        "location": "",
        "description": "",
        "organizer": "sam@example.test",
    }
    people = [{"name": "", **a} for a in fields.pop("attendees", [])]
    origin = {"original_start": fields.get("start"), "original_end": fields.get("end")}
    return {**base, **origin, "attendees": people, **fields}


def post(**fields: Any) -> dict[str, Any]:
    """A chat post as the chat app snapshots it, with these fields."""
    return {"at": AT, "reactions": {}, **fields}


def sent(sid: str, to: list[str], subject: str, body: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": sid,
        "to": to,
        "cc": extra.pop("cc", []),
        "subject": subject,
        "body": body,
        "at": "2025-03-04T10:00:00+00:00",
        "seeded": extra.pop("seeded", False),
        "in_reply_to": None,
        "thread": sid,
        "attachments": extra.pop("attachments", []),
    }


MAIL = {
    "mail": {
        "now": "2025-03-04T10:00:00+00:00",
        "tz": "Europe/Paris",
        "address": "sam@example.test",
        "name": "Sam",
        "messages": [],
        "drafts": [
            draft(
                id="d1",
                to=["ana@example.test"],
                cc=[],
                subject="Reminder: invoice INV-7",
                body="Hi Ana,\n\nINV-7 for  120 EUR is overdue.",
                seeded=False,
            ),
            draft(id="d2", to=[], cc=[], subject="", body="notes", seeded=True),
        ],
        "sent": [
            sent("s1", ["ana@example.test"], "Old", "history", seeded=True),
            sent("s2", ["bo@example.test"], "Re: Lunch", "Yes, noon works", cc=["cy@example.test"]),
        ],
        "folders": [],
        "labels": [],
        "rules": [],
    }
}


def test_mail_sent_matches_recipients_subject_and_body_and_ignores_history() -> None:
    hit = run(
        {
            "mail_sent": {
                "to": "Bo <BO@example.test>",
                "subject_contains": "lunch",
                "body_contains": ["noon", "YES"],
            }
        },
        MAIL,
    )
    assert (hit.passed, hit.actual, hit.detail) == (True, {"matching": ["s2"], "sent": 1}, "")
    assert hit.expected == {
        "to": "Bo <BO@example.test>",
        "subject_contains": "lunch",
        "body_contains": ["noon", "YES"],
        "count": "at least 1",
    }
    history = run({"mail_sent": {"to": "ana@example.test"}}, MAIL)
    assert (history.passed, history.actual) == (False, {"matching": [], "sent": 1})
    assert history.detail == "non-matching: s2: to lacks ana@example.test"
    exact = run({"mail_sent": {"to": "bo@example.test", "only_to": True}}, MAIL)
    assert (exact.passed, exact.detail) == (False, "non-matching: s2: also to cy@example.test")
    both = run(
        {"mail_sent": {"to": "bo@example.test", "cc": "cy@example.test", "only_to": True}}, MAIL
    )
    assert both.passed is True
    counted = run({"mail_sent": {"count": 2}}, MAIL)
    assert (counted.passed, counted.actual["matching"]) == (False, ["s2"])


def test_mail_sent_with_no_mail_app_reads_as_nothing_sent() -> None:
    result = run({"mail_sent": {"to": "bo@example.test"}}, {})
    assert (result.passed, result.actual, result.detail) == (
        False,
        {"matching": [], "sent": 0},
        "no sent",
    )


def test_draft_exists_counts_drafts_with_whitespace_insensitive_text() -> None:
    result = run(
        {
            "draft_exists": {
                "to": "ana@example.test",
                "subject_contains": "INV-7",
                "body_contains": "INV-7 for 120 eur",
                "count": 1,
            }
        },
        MAIL,
    )
    assert (result.passed, result.actual) == (True, {"matching": ["d1"], "drafts": 2})
    wrong = run({"draft_exists": {"to": "bo@example.test"}}, MAIL)
    assert wrong.passed is False
    assert wrong.detail == (
        "non-matching: d1: to lacks bo@example.test | d2: to lacks bo@example.test"
    )
    none = run({"draft_exists": {"max": 0}}, {})
    assert (none.passed, none.detail) == (True, "no drafts")


def test_nothing_sent_for_mail_and_chat() -> None:
    mail = run({"nothing_sent": {"app": "mail"}}, MAIL)
    assert (mail.passed, mail.actual, mail.detail) == (False, 1, "sent: s2 to bo@example.test")
    quiet = {"mail": {**MAIL["mail"], "sent": [MAIL["mail"]["sent"][0]]}}
    assert run({"nothing_sent": {"app": "mail"}}, quiet).passed is True
    assert run({"nothing_sent": {"app": "mail"}}, {}).passed is True
    chat = run({"nothing_sent": {"app": "chat"}}, CHAT)
    assert (chat.passed, chat.actual, chat.detail) == (
        False,
        2,
        "sent: c3 in #general, c4 in #general",
    )
    seeded_only = {"chat": {**CHAT["chat"], "posts": CHAT["chat"]["posts"][:2]}}
    assert run({"nothing_sent": {"app": "chat"}}, seeded_only).passed is True


CALENDAR = {
    "calendar": {
        "now": "2025-03-04T10:00:00+00:00",
        "tz": "Europe/Paris",
        "owner": "sam@example.test",
        "name": "Sam",
        "events": [
            event(
                **{
                    "id": "e1",
                    "title": "Standup",
                    "start": "2025-03-04T08:00:00+00:00",
                    "end": "2025-03-04T08:15:00+00:00",
                    "attendees": [],
                    "my_rsvp": "accepted",
                    "seeded": True,
                }
            ),
            event(
                **{
                    "id": "e2",
                    "title": "Budget review",
                    "start": "2025-03-06T13:00:00+00:00",
                    "end": "2025-03-06T14:00:00+00:00",
                    "attendees": [
                        {"email": "bo@example.test", "rsvp": "needs_action"},
                        {"email": "ana@example.test", "rsvp": "accepted"},
                    ],
                    "my_rsvp": "accepted",
                    "seeded": False,
                }
            ),
            event(
                **{
                    "id": "offsite",
                    "title": "Offsite",
                    "start": "2025-03-06T09:00:00+00:00",
                    "end": "2025-03-06T15:00:00+00:00",
                    "attendees": [{"email": "sam@example.test", "rsvp": "declined"}],
                    "my_rsvp": "declined",
                    "seeded": True,
                }
            ),
        ],
        "deleted": [],
    }
}


def test_event_exists_with_an_anchored_start_in_the_calendar_zone() -> None:
    result = run(
        {
            "event_exists": {
                "title": "budget REVIEW",
                "start": {"days": 2, "at": "14:00"},
                "minutes": 60,
                "attendees": ["bo@example.test", "Ana <ana@example.test>"],
                "new": True,
            }
        },
        CALENDAR,
    )
    assert (result.passed, result.actual) == (True, {"matching": ["e2"]})
    assert result.expected["start"] == "2025-03-06T14:00:00+01:00"
    off = run(
        {"event_exists": {"title": "Budget review", "start": {"days": 2, "at": "15:00"}}}, CALENDAR
    )
    assert off.passed is False
    assert "e2 'Budget review': starts 2025-03-06T13:00:00+00:00" in off.detail


def test_event_exists_with_iso_start_rsvp_and_count() -> None:
    iso = run({"event_exists": {"start": "2025-03-06T10:00:00+01:00", "count": 1}}, CALENDAR)
    assert (iso.passed, iso.actual) == (True, {"matching": ["offsite"]})
    mine = run(
        {"event_exists": {"title": "Offsite", "rsvp": {"sam@example.test": "declined"}}}, CALENDAR
    )
    assert mine.passed is True
    organizer = run({"event_exists": {"rsvp": {"sam@example.test": "accepted"}}}, CALENDAR)
    assert organizer.actual == {"matching": ["e1", "e2"]}
    guest = run({"event_exists": {"rsvp": {"bo@example.test": "accepted"}}}, CALENDAR)
    assert (guest.passed, guest.actual) == (False, {"matching": []})
    contains = run({"event_exists": {"title_contains": "stand", "new": False}}, CALENDAR)
    assert contains.actual == {"matching": ["e1"]}
    missing = run({"event_exists": {"title": "x"}}, {})
    assert (missing.passed, missing.detail) == (False, "no calendar in the end state")


def test_an_invite_that_arrived_is_not_an_event_the_user_created() -> None:
    arrived = event(
        id="e4",
        title="Budget review",
        start="2025-03-07T13:00:00+00:00",
        end="2025-03-07T14:00:00+00:00",
        organizer="bo@example.test",
        attendees=[{"email": "sam@example.test", "rsvp": "needs_action"}],
        my_rsvp="needs_action",
        seeded=False,
    )
    state = {
        "calendar": {**CALENDAR["calendar"], "events": [*CALENDAR["calendar"]["events"], arrived]}
    }
    created = run({"event_exists": {"title": "Budget review", "new": True}}, state)
    assert created.actual == {"matching": ["e2"]}
    assert "e4 'Budget review': an invite from bo@example.test" in created.detail
    others = run({"event_exists": {"title": "Budget review", "new": False}}, state)
    assert others.actual == {"matching": ["e4"]}


SHEETS = {
    "sheets": {
        "workbooks": [
            {
                "id": "ledger",
                "title": "Ledger",
                "sheets": [
                    {
                        "name": "Invoices",
                        "cells": {
                            "A1": "Client",
                            "B1": "Amount",
                            "A2": "Ana Ruiz",
                            "B2": 1250.5,
                            "A3": "Bo Chen",
                            "B3": 80,
                            "C3": "late",
                        },
                    },
                    {"name": "Notes", "cells": {}},
                ],
            }
        ],
        "edits": [],
    }
}


def test_sheet_cells_compare_numbers_by_value_and_text_trimmed() -> None:
    result = run(
        {
            "sheet_cells": {
                "workbook": "ledger",
                "cells": {"B2": "$1,250.50", "B3": 80.0, "A2": " Ana Ruiz ", "D9": None},
            }
        },
        SHEETS,
    )
    assert (result.passed, result.detail) == (True, "")
    assert result.actual["sheet"] == "Invoices"
    wrong = run(
        {"sheet_cells": {"workbook": "ledger", "cells": {"B2": 1250, "C3": {"regex": "on.*"}}}},
        SHEETS,
    )
    assert (wrong.passed, wrong.detail) == (False, "B2=1250.5; C3='late'")


def test_sheet_cells_rows_in_any_order_and_row_count() -> None:
    rows = run(
        {
            "sheet_cells": {
                "workbook": "ledger",
                "sheet": "Invoices",
                "rows": [["Bo Chen", "80"], ["Ana Ruiz", 1250.5]],
                "nonempty_rows": 3,
            }
        },
        SHEETS,
    )
    assert rows.passed is True
    missing = run(
        {"sheet_cells": {"workbook": "ledger", "rows": [["Cy"]], "nonempty_rows": 4}}, SHEETS
    )
    assert (missing.passed, missing.detail) == (False, "no row ['Cy']; 3 non-empty rows")
    empty = run(
        {"sheet_cells": {"workbook": "ledger", "sheet": "Notes", "nonempty_rows": 0}}, SHEETS
    )
    assert empty.passed is True
    no_book = run({"sheet_cells": {"workbook": "budget", "cells": {"A1": 1}}}, SHEETS)
    assert (no_book.passed, no_book.detail) == (
        False,
        "no workbook 'budget'; workbooks: ['ledger']",
    )
    no_sheet = run(
        {"sheet_cells": {"workbook": "ledger", "sheet": "X", "cells": {"A1": 1}}}, SHEETS
    )
    assert no_sheet.detail == "no sheet 'X' in ledger; sheets: ['Invoices', 'Notes']"


CHAT = {
    "chat": {
        "now": "2025-03-04T10:00:00+00:00",
        "tz": "UTC",
        "me": "sam",
        "channels": [{"name": "general", "topic": ""}],
        "posts": [
            post(
                **{
                    "id": "c1",
                    "channel": "general",
                    "thread": None,
                    "by": "ana",
                    "text": "Review?",
                    "seeded": True,
                }
            ),
            post(
                **{
                    "id": "c2",
                    "channel": "general",
                    "thread": "c1",
                    "by": "sam",
                    "text": "old",
                    "seeded": True,
                }
            ),
            post(
                **{
                    "id": "c3",
                    "channel": "general",
                    "thread": "c1",
                    "by": "sam",
                    "text": "I can review it",
                    "seeded": False,
                }
            ),
            post(
                **{
                    "id": "c4",
                    "channel": "general",
                    "thread": None,
                    "by": "sam",
                    "text": "Morning",
                    "seeded": False,
                }
            ),
        ],
    }
}


def test_chat_posted_by_channel_thread_and_text() -> None:
    reply = run(
        {
            "chat_posted": {
                "channel": "#general",
                "thread": "c1",
                "text_contains": "REVIEW",
                "count": 1,
            }
        },
        CHAT,
    )
    assert (reply.passed, reply.actual) == (True, {"matching": ["c3"], "posts": 2})
    top = run({"chat_posted": {"top_level": True}}, CHAT)
    assert top.actual == {"matching": ["c4"], "posts": 2}
    elsewhere = run({"chat_posted": {"channel": "random"}}, CHAT)
    assert (elsewhere.passed, elsewhere.detail) == (
        False,
        "non-matching: c3: in #general | c4: in #general",
    )
    assert run({"chat_posted": {}}, {}).detail == "the user posted nothing"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"mail_sent": {"to": "not an address"}}, "'not an address' is not an email address"),
        ({"sheet_cells": {"workbook": "w"}}, "give cells, rows or nonempty_rows"),
        ({"sheet_cells": {"workbook": "w", "cells": {"AA1": 1}}}, "not A1 references"),
        ({"chat_posted": {"thread": "c1", "top_level": True}}, "give thread"),
        ({"nothing_sent": {"app": "calendar"}}, "Input should be 'mail' or 'chat'"),
        ({"event_exists": {"start": "2025-03-06T10:00:00"}}, "timezone"),
    ],
)
def test_bad_app_check_arguments_fail_at_load(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as info:
        check(data)
    assert message in str(info.value)


def test_a_renamed_snapshot_key_is_a_grading_error_naming_the_app_and_field() -> None:
    renamed = {"mail": {**MAIL["mail"], "outbox": MAIL["mail"]["sent"]}}
    del renamed["mail"]["sent"]
    with pytest.raises(GradingError, match=r"^check mail_sent: the mail snapshot .*sent: Field"):
        run({"mail_sent": {"to": "bo@example.test"}}, renamed)
    with pytest.raises(GradingError, match=r"outbox: Extra inputs are not permitted"):
        run({"nothing_sent": {"app": "mail"}}, renamed)


def test_the_typed_accessor_reads_the_snapshot_and_none_when_absent() -> None:
    mail = EndState(apps=MAIL).app(MailSnapshot)
    assert mail is not None
    assert [s.id for s in mail.sent] == ["s1", "s2"]
    assert EndState().app(MailSnapshot) is None
