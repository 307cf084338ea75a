"""site_state and file_sha256's sha256_from, over constructed end states."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from proctor.errors import GradingError
from proctor.grading import grade_one
from proctor.records import CheckResult, EndState, FileFact
from proctor.scenario import CheckSpec

_CHECK: TypeAdapter[Any] = TypeAdapter(CheckSpec)
HASH = "a" * 64


def run(data: dict[str, Any], state: EndState) -> CheckResult:
    parsed: BaseModel = _CHECK.validate_python(data)
    return grade_one(parsed, state)


def booking(**fields: Any) -> dict[str, Any]:
    """A booking as the booking site snapshots it, with these fields."""
    base = {
        "restaurant_name": "",
        "date": "2025-03-07",
        "name": "Dana Whitfield",
        "email": "dana@example.test",
        "phone": "",
        "status": "confirmed",
    }
    return {**base, **fields}


def booking_state() -> EndState:
    bookings = [
        booking(
            ref="TF-1", restaurant="nonna-vera", days_ahead=3, time="19:30", party=4, seeded=False
        ),
        booking(
            ref="TF-0",
            restaurant="osteria-lupa",
            days_ahead=-23,
            time="20:00",
            party=4,
            seeded=True,
        ),
    ]
    return EndState(apps={"booking": {"bookings": bookings}})


def bank(statements: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A bank snapshot with these statements (each given only the fields a test reads)."""
    base = {
        "account": "4821",
        "number": 43,
        "months_ago": 1,
        "period_start": "2025-02-01",
        "period_end": "2025-02-28",
        "closing": "1,000.00",
        "file": "statement.pdf",
        "pages": 1,
    }
    return {
        "signins": 1,
        "statements": {sid: {**base, **facts} for sid, facts in statements.items()},
        "downloads": [],
        "transfers": [],
    }


def test_site_state_counts_items_matching_every_field() -> None:
    state = booking_state()
    hit = run(
        {
            "site_state": {
                "site": "booking",
                "items": "bookings",
                "where": {"restaurant": "nonna-vera", "days_ahead": 3, "party": 4},
            }
        },
        state,
    )
    assert (hit.passed, hit.actual) == (True, 1)
    wrong_day = run(
        {"site_state": {"site": "booking", "items": "bookings", "where": {"days_ahead": 2}}},
        state,
    )
    assert (wrong_day.passed, wrong_day.actual) == (False, 0)
    assert wrong_day.detail.startswith("2 item(s), none matching")


def test_site_state_count_regex_and_empty_where() -> None:
    state = booking_state()
    both = run({"site_state": {"site": "booking", "items": "bookings", "count": 2}}, state)
    assert (both.passed, both.actual) == (True, 2)
    one = run({"site_state": {"site": "booking", "items": "bookings", "count": 1}}, state)
    assert (one.passed, one.actual) == (False, 2)
    regex = run(
        {
            "site_state": {
                "site": "booking",
                "items": "bookings",
                "where": {"ref": {"regex": "^TF-1$"}},
                "count": 1,
            }
        },
        state,
    )
    assert regex.passed
    none = run(
        {
            "site_state": {
                "site": "booking",
                "items": "bookings",
                "where": {"seeded": "yes"},
                "count": 0,
            }
        },
        state,
    )
    assert none.passed


def test_site_state_fails_without_the_site_or_the_list() -> None:
    missing = run({"site_state": {"site": "booking", "items": "bookings"}}, EndState())
    assert (missing.passed, missing.detail) == (False, "the end state has no booking snapshot")
    not_list = run({"site_state": {"site": "booking", "items": "bookings.0.ref"}}, booking_state())
    assert not not_list.passed


def test_site_state_rejects_a_bad_regex_at_load() -> None:
    with pytest.raises(ValidationError, match="invalid regular expression"):
        _CHECK.validate_python(
            {
                "site_state": {
                    "site": "booking",
                    "items": "bookings",
                    "where": {"ref": {"regex": "("}},
                }
            }
        )


def test_file_sha256_reads_the_expected_hash_from_a_site_snapshot() -> None:
    apps = {"bank": bank({"s4821-043": {"sha256": HASH}})}
    good = EndState(apps=apps, files={"output/s.pdf": FileFact(sha256=HASH, size=10)})
    check = {
        "file_sha256": {"path": "output/s.pdf", "sha256_from": "bank.statements.s4821-043.sha256"}
    }
    result = run(check, good)
    assert (result.passed, result.expected, result.actual) == (True, HASH, HASH)
    changed = EndState(apps=apps, files={"output/s.pdf": FileFact(sha256="b" * 64, size=10)})
    assert not run(check, changed).passed
    untouched = run(check, EndState(files={"output/s.pdf": FileFact(sha256=HASH, size=10)}))
    assert (untouched.passed, untouched.detail) == (
        False,
        "bank.statements.s4821-043.sha256 selects nothing: the end state has no bank snapshot",
    )


def test_file_sha256_needs_exactly_one_source() -> None:
    with pytest.raises(ValidationError, match="exactly one of sha256 or sha256_from"):
        _CHECK.validate_python({"file_sha256": {"path": "x", "sha256": HASH, "sha256_from": "a.b"}})
    with pytest.raises(ValidationError, match="exactly one of sha256 or sha256_from"):
        _CHECK.validate_python({"file_sha256": {"path": "x"}})


def test_site_state_validates_a_known_sites_snapshot_and_walks_any_other() -> None:
    renamed = booking_state().apps["booking"]["bookings"][0] | {"days": 3}
    del renamed["days_ahead"]
    state = EndState(apps={"booking": {"bookings": [renamed]}})
    check = {"site_state": {"site": "booking", "items": "bookings", "where": {"days_ahead": 3}}}
    with pytest.raises(GradingError, match=r"the booking snapshot .*bookings\.0\.days_ahead"):
        run(check, state)
    other = EndState(apps={"forms": {"items": [{"id": 1}, {"id": 2}]}})
    counted = run({"site_state": {"site": "forms", "items": "items", "where": {"id": 2}}}, other)
    assert (counted.passed, counted.actual) == (True, 1)


def test_sha256_from_a_bank_snapshot_of_another_shape_is_a_grading_error() -> None:
    state = EndState(apps={"bank": {"statements": {"s4821-043": {"sha256": HASH}}}})
    check = {"file_sha256": {"path": "x", "sha256_from": "bank.statements.s4821-043.sha256"}}
    with pytest.raises(GradingError, match=r"the bank snapshot .*signins: Field required"):
        run(check, state)
