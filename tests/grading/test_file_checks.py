"""The file checks over constructed end states: verdicts, and what they report."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from proctor.grading import grade_one
from proctor.records import CheckResult, EndState, FileFact
from proctor.scenario import CheckSpec

_CHECK: TypeAdapter[Any] = TypeAdapter(CheckSpec)
SHA_A = "a" * 64
SHA_B = "b" * 64


def check(data: dict[str, Any]) -> BaseModel:
    parsed: BaseModel = _CHECK.validate_python(data)
    return parsed


def run(data: dict[str, Any], state: EndState) -> CheckResult:
    return grade_one(check(data), state)


def fact(sha: str = SHA_A, **extra: Any) -> FileFact:
    return FileFact(sha256=sha, size=10, **extra)


STATE = EndState(
    files={
        "notes.txt": fact(text="one\ntwo\nthree\n"),
        "docs/statement.pdf": fact(
            SHA_B,
            pages=[
                "Statement\nOpening  balance",
                "Transactions\n-42.80",
                "Fees",
                "Closing balance",
            ],
        ),
        "docs/broken.pdf": fact(pages=None),
        "data/q1.csv": fact(rows=[["name", "amount"], ["Ada", "10"], ["Bob", "20"]]),
        "data/odd.csv": fact(rows=[["a", "b"], ["1"]]),
        "plan.html": fact(headings=["Plan", "Budget"], list_items=["Hotel", "Car", "Food"]),
        "output/a.pdf": fact(pages=["x"]),
        "output/b.pdf": fact(pages=["y"]),
        "output/sub/c.txt": fact(text="c"),
    },
    originals={"notes.txt": SHA_A, "docs/statement.pdf": SHA_A, "gone.txt": SHA_A},
    dirs=["data", "docs", "empty", "output", "output/sub"],
)


def test_file_unchanged() -> None:
    ok = run({"file_unchanged": {"path": "notes.txt"}}, STATE)
    assert (ok.passed, ok.expected, ok.actual) == (True, SHA_A, SHA_A)
    changed = run({"file_unchanged": {"path": "./docs/statement.pdf"}}, STATE)
    assert (changed.passed, changed.actual) == (False, SHA_B)
    assert changed.detail == "docs/statement.pdf changed (10 bytes now)"
    gone = run({"file_unchanged": {"path": "gone.txt"}}, STATE)
    assert (gone.passed, gone.detail) == (False, "gone.txt is gone")
    unseeded = run({"file_unchanged": {"path": "plan.html"}}, STATE)
    assert not unseeded.passed and unseeded.detail.startswith("plan.html was not seeded")


def test_file_exists_by_path_and_glob_and_absent() -> None:
    assert run({"file_exists": {"path": "notes.txt"}}, STATE).passed
    hits = run({"file_exists": {"path": "output/*.pdf"}}, STATE)
    assert (hits.passed, hits.actual) == (True, ["output/a.pdf", "output/b.pdf"])
    assert not run({"file_exists": {"path": "output/*.csv"}}, STATE).passed
    # * does not cross folders
    assert not run({"file_exists": {"path": "output/*.txt"}}, STATE).passed
    absent = run({"file_exists": {"path": "output/*.pdf", "absent": True}}, STATE)
    assert (absent.passed, absent.detail) == (False, "found ['output/a.pdf', 'output/b.pdf']")
    assert run({"file_exists": {"path": "secret.txt", "absent": True}}, STATE).passed


def test_file_text_equals_contains_lines_and_count() -> None:
    assert run({"file_text": {"path": "notes.txt", "equals": "one\ntwo\nthree\n"}}, STATE).passed
    assert not run({"file_text": {"path": "notes.txt", "equals": "one\ntwo\nthree"}}, STATE).passed
    assert run({"file_text": {"path": "notes.txt", "contains": ["two", "three"]}}, STATE).passed
    missing = run({"file_text": {"path": "notes.txt", "contains": ["two", "four"]}}, STATE)
    assert (missing.passed, missing.detail) == (False, "missing ['four']")
    assert run({"file_text": {"path": "notes.txt", "lines": ["one", "two", "three"]}}, STATE).passed
    wrong = run({"file_text": {"path": "notes.txt", "lines": ["one", "2", "three"]}}, STATE)
    assert (wrong.passed, wrong.detail) == (False, "lines differ from line 2")
    count = run({"file_text": {"path": "notes.txt", "line_count": 12}}, STATE)
    assert (count.passed, count.detail, count.actual["lines"]) == (False, "3 lines", 3)
    binary = run({"file_text": {"path": "docs/statement.pdf", "contains": "x"}}, STATE)
    assert not binary.passed and "not small UTF-8 text" in binary.detail
    nofile = run({"file_text": {"path": "nope.txt", "contains": "x"}}, STATE)
    assert not nofile.passed and nofile.detail.startswith("no file nope.txt")


def test_pdf_pages_and_text_order() -> None:
    ok = run(
        {
            "pdf": {
                "path": "docs/statement.pdf",
                "pages": 4,
                "text_order": ["Opening balance", "-42.80", "Closing balance"],
            }
        },
        STATE,
    )
    assert ok.passed, ok.detail
    assert ok.actual["pages"] == 4
    pages = run({"pdf": {"path": "docs/statement.pdf", "pages": 3}}, STATE)
    assert (pages.passed, pages.detail) == (False, "4 pages")
    order = run(
        {"pdf": {"path": "docs/statement.pdf", "text_order": ["Fees", "Transactions"]}}, STATE
    )
    assert (order.passed, order.detail) == (
        False,
        "'Transactions' is earlier than the snippet before it",
    )
    absent = run({"pdf": {"path": "docs/statement.pdf", "text_order": ["Refund"]}}, STATE)
    assert (absent.passed, absent.detail) == (False, "'Refund' is absent")
    broken = run({"pdf": {"path": "docs/broken.pdf", "pages": 1}}, STATE)
    assert not broken.passed and "not a readable PDF" in broken.detail


@pytest.mark.parametrize(
    ("on_pages", "read", "detail"),
    [
        (None, [1, 2, 3, 4], "'-42.80' is present (page 2); 'Fees' is present (page 3)"),
        (1, [1], ""),
        ("2", [2], "'-42.80' is present (page 2)"),
        ("first", [1], ""),
        ("last", [4], ""),
        ("3-last", [3, 4], "'Fees' is present (page 3)"),
        ("1-3", [1, 2, 3], "'-42.80' is present (page 2); 'Fees' is present (page 3)"),
    ],
)
def test_pdf_not_contains_on_a_page_range(
    on_pages: int | str | None, read: list[int], detail: str
) -> None:
    spec: dict[str, Any] = {"path": "docs/statement.pdf", "not_contains": ["-42.80", "Fees"]}
    if on_pages is not None:
        spec["on_pages"] = on_pages
    result = run({"pdf": spec}, STATE)
    assert (result.passed, result.detail) == (not detail, detail)
    assert result.actual.get("read_pages", [1, 2, 3, 4]) == read


def test_pdf_text_order_within_pages_and_a_page_past_the_end() -> None:
    first = {"path": "docs/statement.pdf", "on_pages": "1-2", "text_order": ["Statement", "-42.80"]}
    assert run({"pdf": first}, STATE).passed
    later = {"path": "docs/statement.pdf", "on_pages": "2-last", "text_order": ["Statement"]}
    assert run({"pdf": later}, STATE).detail == "'Statement' is absent"
    across = {"path": "docs/statement.pdf", "not_contains": "-42.80 Fees"}
    assert run({"pdf": across}, STATE).detail == "'-42.80 Fees' is present (across a page break)"
    for beyond, page in ((5, 5), ("4-6", 6), ("5-last", 5)):
        spec = {"path": "docs/statement.pdf", "on_pages": beyond, "text_order": ["Fees"]}
        result = run({"pdf": spec}, STATE)
        assert (result.passed, result.detail) == (
            False,
            f"on_pages {beyond!r}: page {page} is past the end: the PDF has 4 page(s)",
        )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"on_pages": "3-2", "text_order": ["x"]}, "on_pages '3-2' runs backwards"),
        ({"on_pages": "0", "text_order": ["x"]}, "on_pages '0' is not a page range"),
        ({"on_pages": 0, "text_order": ["x"]}, "on_pages 0 is not a page"),
        ({"on_pages": "1..2", "text_order": ["x"]}, "on_pages '1..2' is not a page range"),
        ({"on_pages": True, "text_order": ["x"]}, "on_pages"),
        ({"pages": 2, "on_pages": "last"}, "on_pages picks the pages text_order and not_contains"),
        ({"not_contains": []}, "not_contains is an empty list"),
    ],
)
def test_pdf_page_ranges_are_checked_at_load(spec: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)):
        check({"pdf": {"path": "a.pdf", **spec}})


def test_csv_rows_columns_header_and_contains_row() -> None:
    spec = {"path": "data/q1.csv", "rows": 2, "columns": 2, "header": ["name", "amount"]}
    assert run({"csv": spec}, STATE).passed
    assert run({"csv": {"path": "data/q1.csv", "contains_row": ["Bob", "20"]}}, STATE).passed
    assert run({"csv": {"path": "data/q1.csv", "contains_row": {"amount": "10"}}}, STATE).passed
    no_row = run({"csv": {"path": "data/q1.csv", "contains_row": {"name": "Cy"}}}, STATE)
    assert (no_row.passed, no_row.detail) == (False, "no row {'name': 'Cy'}")
    rows = run({"csv": {"path": "data/q1.csv", "rows": 3}}, STATE)
    assert (rows.passed, rows.detail) == (False, "2 data rows")
    headless = run({"csv": {"path": "data/q1.csv", "rows": 3, "has_header": False}}, STATE)
    assert headless.passed
    odd = run({"csv": {"path": "data/odd.csv", "columns": 2}}, STATE)
    assert (odd.passed, odd.detail) == (False, "rows [2] do not have 2 cells")
    header = run({"csv": {"path": "data/q1.csv", "header": ["Name", "Amount"]}}, STATE)
    assert (header.passed, header.detail) == (False, "header is ['name', 'amount']")


def test_rich_text_headings_and_list_items() -> None:
    ok = run(
        {
            "rich_text": {
                "path": "plan.html",
                "headings": ["Budget"],
                "list_items": ["Hotel", "Food"],
            }
        },
        STATE,
    )
    assert ok.passed
    order = run({"rich_text": {"path": "plan.html", "list_items": ["Food", "Hotel"]}}, STATE)
    assert (order.passed, order.detail) == (False, "list item 'Hotel' is out of order")
    absent = run({"rich_text": {"path": "plan.html", "headings": ["Plan", "Dates"]}}, STATE)
    assert (absent.passed, absent.detail) == (False, "heading 'Dates' is absent")
    exact = run(
        {"rich_text": {"path": "plan.html", "headings": ["Plan", "Budget"], "exact": True}}, STATE
    )
    assert (exact.passed, exact.detail) == (False, "list items are ['Hotel', 'Car', 'Food']")
    notdoc = run({"rich_text": {"path": "notes.txt", "headings": ["x"]}}, STATE)
    assert not notdoc.passed and "not an HTML or RTF document" in notdoc.detail


def test_dir_listing_equals_contains_absent() -> None:
    eq = run({"dir_listing": {"path": "output", "equals": ["a.pdf", "b.pdf", "sub/"]}}, STATE)
    assert (eq.passed, eq.actual) == (True, ["a.pdf", "b.pdf", "sub/"])
    wrong = run({"dir_listing": {"path": "output/", "equals": ["a.pdf"]}}, STATE)
    assert (wrong.passed, wrong.detail) == (False, "extra ['b.pdf', 'sub/'], missing []")
    assert run({"dir_listing": {"path": "output", "contains": ["*.pdf", "sub/"]}}, STATE).passed
    some = run({"dir_listing": {"path": "output", "contains": ["*.csv"], "absent": ["b.*"]}}, STATE)
    assert (some.passed, some.detail) == (False, "missing ['*.csv']; present ['b.*']")
    assert run({"dir_listing": {"path": "empty", "equals": []}}, STATE).passed
    root = run({"dir_listing": {"contains": ["notes.txt", "docs/", "empty/"]}}, STATE)
    assert root.passed
    nofolder = run({"dir_listing": {"path": "missing", "equals": []}}, STATE)
    assert not nofolder.passed and nofolder.detail.startswith("no folder missing")


@pytest.mark.parametrize(
    "data",
    [
        {"file_text": {"path": "a.txt"}},
        {"pdf": {"path": "a.pdf"}},
        {"csv": {"path": "a.csv"}},
        {"csv": {"path": "a.csv", "contains_row": {"a": "1"}, "has_header": False}},
        {"rich_text": {"path": "a.html"}},
        {"dir_listing": {"path": "d"}},
        {"dir_listing": {"path": "d", "equals": [], "contains": ["x"]}},
    ],
)
def test_empty_or_conflicting_file_checks_are_refused(data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        check(data)


def test_file_facts_survive_a_json_round_trip_so_regrade_agrees() -> None:
    again = EndState.model_validate_json(STATE.model_dump_json())
    spec = {"pdf": {"path": "docs/statement.pdf", "pages": 4, "text_order": ["Fees"]}}
    assert run(spec, again) == run(spec, STATE)
