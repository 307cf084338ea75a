"""Every failure one-liner shows what the check expected against what it found.

The line is the cause a failed attempt shows in ``proctor show``, ``proctor diagnose``,
report.md and report.html: once it read "non-matching posts: #2: delivery_speed=['SHIP_PP']"
and left out that SHIP_P2 was expected.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter
from report_records import make, step

from proctor.grading import grade_one
from proctor.records import AttemptRecord, CheckResult, EndState, WebRequest
from proctor.report import attempt_view, cause_of, diagnose_lines, failure_causes
from proctor.report._causes import check_line
from proctor.report._markdown import render_markdown
from proctor.report._summary import summarize
from proctor.scenario import CheckSpec

CHECK = {"submitted": {"route": "checkout", "fields": {"delivery_speed": "SHIP_P2"}}}


def _graded(data: dict[str, Any], state: EndState) -> CheckResult:
    return grade_one(TypeAdapter(CheckSpec).validate_python(data), state)


def _post(speed: str) -> WebRequest:
    return WebRequest(
        seq=2,
        time=1000.0,
        attempt="shop/agent-1",
        method="POST",
        host="shop.proctor.test",
        path="/submit/checkout",
        status=303,
        form={"delivery_speed": [speed]},
    )


def _failed(check: CheckResult) -> AttemptRecord:
    steps = [step(0, "click", "button 'Pay'")]
    return make(
        "shop", "agent", 1, "failed", steps=steps, checks=[check], failed_checks=[check.name]
    )


def test_a_wrong_field_names_the_expected_value_in_every_line() -> None:
    check = _graded(CHECK, EndState(requests=[_post("SHIP_PP")]))
    line = "non-matching posts: #2: delivery_speed=['SHIP_PP'], expected 'SHIP_P2'"
    assert check.detail == line
    record = _failed(check)
    (failed,) = attempt_view(record).failed_checks
    assert failed.line == line  # proctor show's line and --json's "line"
    assert attempt_view(record).as_json()["failed_checks"][0]["line"] == line
    found = cause_of(record)
    assert found is not None and found.detail == f"check submitted: {line}; no tool error"
    (group,) = failure_causes([record])
    assert any(line in text for text in diagnose_lines([group], "results/r"))
    report = render_markdown(summarize("r", [record], 0.0, 1.0), [record])
    assert f"- `attempts/shop/agent-1`: check submitted: {line}; no tool error" in report


def test_a_stored_detail_without_the_expectation_gets_it_added() -> None:
    """A record graded before the detail named it (or a check whose detail only says
    what was found) still shows what was expected."""
    old = CheckResult(
        name="submitted",
        kind="submitted",
        passed=False,
        expected={"route": "checkout", "fields": {"delivery_speed": "SHIP_P2"}},
        actual={"matching": 0},
        detail="non-matching posts: #2: delivery_speed=['SHIP_PP']",
    )
    assert check_line(old) == (
        "non-matching posts: #2: delivery_speed=['SHIP_PP']; "
        'expected {"route": "checkout", "fields": {"delivery_speed": "SHIP_P2"}}'
    )
    (failed,) = attempt_view(_failed(old)).failed_checks
    assert "SHIP_P2" in failed.line and "SHIP_PP" in failed.line


def test_a_check_without_a_detail_shows_expected_and_actual() -> None:
    check = _graded({"answer": {"equals": "42"}}, EndState(answer="41"))
    assert check.detail == ""
    assert check_line(check) == 'expected {"equals": "42"}, actual 41'
    found = cause_of(_failed(check))
    assert found is not None
    assert found.detail == 'check answer: expected {"equals": "42"}, actual 41; no tool error'


def test_a_calendar_miss_names_what_was_expected() -> None:
    """Event checks said only what the event held (``starts …``); now what was wanted too."""
    check = CheckResult(
        name="event_exists",
        kind="event_exists",
        passed=False,
        expected={"title": "Budget review"},
        actual={"matching": []},
        detail="non-matching: e2 'Budget review': starts 2025-03-06T13:00:00+00:00",
    )
    assert check_line(check).endswith('; expected {"title": "Budget review"}')
