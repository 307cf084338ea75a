"""Every check evaluator over constructed end states: verdicts and what they report."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter

from proctor.errors import GradingError
from proctor.grading import EVALUATORS, grade, grade_one
from proctor.records import CheckResult, EndState, FileFact, Step, Tab, WebRequest
from proctor.scenario import CHECK_TYPES, CheckSpec
from proctor.vocab import ActionOp

FORMS = "forms.proctor.test"
SHOP = "shop.proctor.test"

_CHECK: TypeAdapter[Any] = TypeAdapter(CheckSpec)


def check(data: dict[str, Any]) -> BaseModel:
    """A check parsed exactly as a scenario file's ``checks`` entry would be."""
    parsed: BaseModel = _CHECK.validate_python(data)
    return parsed


def post(
    seq: int,
    route: str = "contact",
    *,
    form: dict[str, list[str]] | None = None,
    status: int = 303,
    host: str = FORMS,
    **extra: Any,
) -> WebRequest:
    return WebRequest(
        seq=seq,
        time=1000.0 + seq,
        attempt="s/oracle-1",
        method="POST",
        host=host,
        path=f"/submit/{route}",
        form=form or {},
        status=status,
        **extra,
    )


def get(seq: int, path: str, *, host: str = FORMS, status: int = 200, **extra: Any) -> WebRequest:
    return WebRequest(
        seq=seq,
        time=1000.0 + seq,
        attempt="s/oracle-1",
        method="GET",
        host=host,
        path=path,
        status=status,
        **extra,
    )


def step(index: int, op: ActionOp, **extra: Any) -> Step:
    return Step(index=index, op=op, started_at=1000.0 + index, latency_ms=5.0, **extra)


def test_every_check_type_but_composites_has_an_evaluator() -> None:
    assert set(EVALUATORS) == set(CHECK_TYPES) - {"all", "any", "after_event"}


# submitted


def test_submitted_exact_fields_pass() -> None:
    state = EndState(requests=[post(1, form={"name": ["Dana"], "email": ["d@x.test"]})])
    assert grade_one(
        check({"submitted": {"route": "contact", "fields": {"name": "Dana"}}}), state
    ) == (
        CheckResult(
            name="submitted",
            kind="submitted",
            passed=True,
            expected={"route": "contact", "fields": {"name": "Dana"}, "count": "at least 1"},
            actual={"matching": 1, "posts": [{"name": ["Dana"], "email": ["d@x.test"]}]},
            detail="",
        )
    )


def test_submitted_wrong_value_fails_and_names_the_field() -> None:
    state = EndState(requests=[post(4, form={"name": ["Dan"]})])
    result = grade_one(
        check({"submitted": {"route": "contact", "fields": {"name": "Dana", "topic": "billing"}}}),
        state,
    )
    assert result.passed is False
    assert result.actual == {"matching": 0, "posts": [{"name": ["Dan"]}]}
    assert result.detail == (
        "non-matching posts: #4: name=['Dan'], expected 'Dana', topic=None, expected 'billing'"
    )


def test_submitted_with_no_post_at_all() -> None:
    result = grade_one(check({"submitted": {"route": "contact"}}), EndState())
    assert (result.passed, result.actual, result.detail) == (
        False,
        {"matching": 0, "posts": []},
        "no accepted post to /submit/contact",
    )


def test_submitted_regex_is_a_full_match() -> None:
    spec = check({"submitted": {"route": "contact", "fields": {"ref": {"regex": r"INV-\d{4}"}}}})
    assert grade_one(spec, EndState(requests=[post(1, form={"ref": ["INV-2291"]})])).passed
    longer = grade_one(spec, EndState(requests=[post(1, form={"ref": ["INV-22910"]})]))
    assert longer.passed is False
    assert longer.expected["fields"] == {"ref": {"regex": r"INV-\d{4}"}}
    two = grade_one(spec, EndState(requests=[post(1, form={"ref": ["INV-2291", "INV-2292"]})]))
    assert two.passed is False


def test_submitted_list_value_is_exact_and_ordered() -> None:
    spec = check({"submitted": {"route": "contact", "fields": {"tags": ["a", "b"]}}})
    assert grade_one(spec, EndState(requests=[post(1, form={"tags": ["a", "b"]})])).passed
    assert not grade_one(spec, EndState(requests=[post(1, form={"tags": ["b", "a"]})])).passed
    assert not grade_one(spec, EndState(requests=[post(1, form={"tags": ["a"]})])).passed
    # a single expected string never matches a multi-valued field
    one = check({"submitted": {"route": "contact", "fields": {"tags": "a"}}})
    assert not grade_one(one, EndState(requests=[post(1, form={"tags": ["a", "b"]})])).passed


def test_submitted_count_min_and_max() -> None:
    state = EndState(requests=[post(1, form={"n": ["1"]}), post(2, form={"n": ["1"]})])
    exactly_one = grade_one(check({"submitted": {"route": "contact", "count": 1}}), state)
    assert (exactly_one.passed, exactly_one.expected["count"], exactly_one.actual["matching"]) == (
        False,
        "exactly 1",
        2,
    )
    assert grade_one(check({"submitted": {"route": "contact", "count": 2}}), state).passed
    ranged = grade_one(check({"submitted": {"route": "contact", "min": 1, "max": 2}}), state)
    assert (ranged.passed, ranged.expected["count"]) == (True, ">= 1 and <= 2")
    at_most = grade_one(check({"submitted": {"route": "contact", "max": 1}}), state)
    assert (at_most.passed, at_most.expected["count"]) == (False, "<= 1")
    none = grade_one(check({"submitted": {"route": "contact", "count": 0}}), EndState())
    assert none.passed is True


def test_submitted_counts_only_accepted_posts_by_default() -> None:
    rejected = post(1, form={"email": ["dana"]}, status=422)
    blocked = post(2, form={"email": ["dana"]}, status=0, blocked=True)
    faulted = post(3, form={"email": ["dana"]}, status=500, fault="KeyError: 'x'")
    state = EndState(requests=[rejected, blocked, faulted])
    spec = check({"submitted": {"route": "contact", "fields": {"email": "dana"}}})
    result = grade_one(spec, state)
    assert (result.passed, result.actual, result.detail) == (
        False,
        {"matching": 0, "posts": []},
        "no accepted post to /submit/contact",
    )
    anyway = grade_one(
        check({"submitted": {"route": "contact", "fields": {"email": "dana"}, "accepted": False}}),
        state,
    )
    assert (anyway.passed, anyway.actual["matching"]) == (True, 3)
    assert (
        grade_one(
            check({"submitted": {"route": "contact", "accepted": False, "count": 0}}), EndState()
        ).detail
        == "no post to /submit/contact"
    )


def test_submitted_ignores_other_routes_and_gets() -> None:
    state = EndState(
        requests=[
            post(1, route="contact-us", form={"name": ["Dana"]}),
            get(2, "/submit/contact", query={"name": ["Dana"]}),
        ]
    )
    assert grade_one(check({"submitted": {"route": "contact"}}), state).passed is False


def test_submitted_host_filter_takes_a_host_or_a_site_url() -> None:
    state = EndState(requests=[post(1, host=SHOP, form={"name": ["Dana"]})])
    for host, passed in [
        (FORMS, False),
        (SHOP, True),
        ("http://shop.proctor.test", True),
        ("http://shop.proctor.test/", True),
        ("http://forms.proctor.test", False),
    ]:
        result = grade_one(check({"submitted": {"route": "contact", "host": host}}), state)
        assert result.passed is passed, host


def test_submitted_json_body_fields() -> None:
    body = {"sku": "CH-30W", "qty": 2, "gift": True, "tags": ["a", "b"], "note": None}
    state = EndState(requests=[post(1, route="cart/add", json_body=body, status=200)])
    spec = check(
        {
            "submitted": {
                "route": "cart/add",
                "fields": {
                    "sku": "CH-30W",
                    "qty": "2",
                    "gift": "true",
                    "tags": ["a", "b"],
                    "note": "null",
                },
            }
        }
    )
    result = grade_one(spec, state)
    assert result.passed is True
    assert result.actual["posts"] == [
        {"sku": ["CH-30W"], "qty": ["2"], "gift": ["true"], "tags": ["a", "b"], "note": ["null"]}
    ]


def test_submitted_files_by_original_sha256() -> None:
    original = hashlib.sha256(b"%PDF-1.4 invoice").hexdigest()
    other = hashlib.sha256(b"something else").hexdigest()
    facts = {"filename": "invoice.pdf", "size": 16, "sha256": original}
    spec = check({"submitted": {"route": "upload", "files": {"doc": "invoice.pdf"}}})
    good = EndState(
        requests=[post(1, route="upload", files={"doc": [facts]})],
        originals={"invoice.pdf": original},
    )
    result = grade_one(spec, good)
    assert result.passed is True
    assert result.expected == {
        "route": "upload",
        "fields": {},
        "count": "at least 1",
        "files": {"doc": "invoice.pdf"},
    }
    changed = EndState(
        requests=[post(1, route="upload", files={"doc": [{**facts, "sha256": other}]})],
        originals={"invoice.pdf": original},
    )
    bad = grade_one(spec, changed)
    assert bad.passed is False
    assert bad.detail == (
        f"non-matching posts: #1: doc carried sha256 {other[:12]}… (no scratch file), "
        f"not invoice.pdf (sha256 {original})"
    )
    twice = EndState(
        requests=[post(1, route="upload", files={"doc": [facts, facts]})],
        originals={"invoice.pdf": original},
    )
    assert grade_one(spec, twice).passed is False
    unseeded = EndState(requests=[post(1, route="upload", files={"doc": [facts]})])
    assert grade_one(spec, unseeded).detail == (
        f"non-matching posts: #1: doc carried sha256 {original[:12]}… (no scratch file), "
        "not invoice.pdf (never in the scratch folder)"
    )


# not_submitted


def test_not_submitted_passes_with_no_post() -> None:
    state = EndState(requests=[get(1, "/submit/pay"), post(2, route="cart/add")])
    assert grade_one(check({"not_submitted": {"route": "pay"}}), state) == CheckResult(
        name="not_submitted",
        kind="not_submitted",
        passed=True,
        expected={"route": "pay", "count": 0},
        actual=0,
        detail="",
    )


def test_not_submitted_counts_rejected_and_blocked_posts() -> None:
    state = EndState(
        requests=[
            post(3, route="pay", status=422),
            post(5, route="pay", status=0, blocked=True),
            post(6, route="pay", host=SHOP),
        ]
    )
    result = grade_one(check({"not_submitted": {"route": "pay", "name": "never-pays"}}), state)
    assert (result.name, result.passed, result.actual, result.detail) == (
        "never-pays",
        False,
        3,
        "posted 3 time(s), first #3",
    )
    on_shop = grade_one(check({"not_submitted": {"route": "pay", "host": SHOP}}), state)
    assert (on_shop.actual, on_shop.detail) == (1, "posted 1 time(s), first #6")


# requested


def test_requested_exact_path_and_method() -> None:
    state = EndState(requests=[get(1, "/contact"), get(2, "/contact/"), post(3, route="x")])
    result = grade_one(check({"requested": {"path": "/contact"}}), state)
    assert result == CheckResult(
        name="requested",
        kind="requested",
        passed=True,
        expected={"method": "GET", "path": "/contact", "count": "at least 1"},
        actual=1,
        detail="",
    )
    posted = grade_one(check({"requested": {"path": "/submit/x", "method": "post"}}), state)
    assert (posted.passed, posted.actual) == (True, 1)


def test_requested_path_regex() -> None:
    state = EndState(requests=[get(1, "/item/12"), get(2, "/item/12/reviews"), get(3, "/item/x")])
    anchored = grade_one(check({"requested": {"path": r"^/item/\d+$", "count": 1}}), state)
    assert (anchored.passed, anchored.actual) == (True, 1)
    prefix = grade_one(check({"requested": {"path": r"^/item/\d+"}}), state)
    assert prefix.actual == 2


def test_requested_cookies() -> None:
    state = EndState(
        requests=[
            get(1, "/account", cookies=["session", "theme"]),
            get(2, "/account", cookies=["theme"]),
            get(3, "/account"),
        ]
    )
    signed_in = grade_one(
        check({"requested": {"path": "/account", "with_cookie": "session"}}), state
    )
    assert signed_in.actual == 1
    signed_out = grade_one(
        check({"requested": {"path": "/account", "without_cookie": "session"}}), state
    )
    assert signed_out.actual == 2
    both = grade_one(
        check(
            {
                "requested": {
                    "path": "/account",
                    "with_cookie": "theme",
                    "without_cookie": "session",
                    "count": 1,
                }
            }
        ),
        state,
    )
    assert (both.passed, both.actual) == (True, 1)


def test_requested_blocked_and_host() -> None:
    state = EndState(
        requests=[
            get(1, "/", host="evil.example", status=0, blocked=True),
            get(2, "/", host=FORMS),
        ]
    )
    blocked = grade_one(check({"requested": {"path": "/", "blocked": True}}), state)
    assert blocked.actual == 1
    unblocked = grade_one(check({"requested": {"path": "/", "blocked": False}}), state)
    assert unblocked.actual == 1
    evil = grade_one(check({"requested": {"path": "/", "host": "evil.example", "count": 0}}), state)
    assert (evil.passed, evil.actual) == (False, 1)


# page_text


def test_page_text_contains_absent_equals() -> None:
    state = EndState(page_text="  Your message was accepted.\nReference 42  ")
    contains = grade_one(check({"page_text": {"contains": "was accepted"}}), state)
    assert contains == CheckResult(
        name="page_text",
        kind="page_text",
        passed=True,
        expected={"contains": "was accepted"},
        actual="  Your message was accepted.\nReference 42  ",
        detail="",
    )
    assert not grade_one(check({"page_text": {"contains": "was rejected"}}), state).passed
    assert grade_one(check({"page_text": {"absent": "error"}}), state).passed
    assert not grade_one(check({"page_text": {"absent": "Reference"}}), state).passed
    equals = check({"page_text": {"equals": "Your message was accepted.\nReference 42"}})
    assert grade_one(equals, state).passed
    assert not grade_one(check({"page_text": {"equals": "Your message"}}), state).passed


def test_page_text_actual_is_an_excerpt() -> None:
    state = EndState(page_text="x" * 1000)
    assert grade_one(check({"page_text": {"contains": "y"}}), state).actual == "x" * 300


# answer


def test_answer_equals_and_contains() -> None:
    state = EndState(answer=" 42 \n")
    equals = grade_one(check({"answer": {"equals": "42"}}), state)
    assert (equals.passed, equals.expected, equals.actual) == (True, {"equals": "42"}, " 42 \n")
    assert not grade_one(check({"answer": {"equals": "4"}}), state).passed
    assert grade_one(check({"answer": {"contains": "4"}}), state).passed
    assert not grade_one(check({"answer": {"contains": "43"}}), state).passed
    assert not grade_one(check({"answer": {"equals": "42"}}), EndState()).passed
    assert not grade_one(check({"answer": {"contains": ""}}), EndState()).passed


def test_answer_json() -> None:
    spec = check({"answer": {"json": {"total": 40, "items": ["a"]}}})
    ok = grade_one(spec, EndState(answer='{"items": ["a"], "total": 40}'))
    assert (ok.passed, ok.expected, ok.actual) == (
        True,
        {"json": {"total": 40, "items": ["a"]}},
        {"items": ["a"], "total": 40},
    )
    assert not grade_one(spec, EndState(answer='{"items": ["a"], "total": 41}')).passed
    null = check({"answer": {"json": None}})
    assert grade_one(null, EndState(answer="null")).passed


def test_answer_json_invalid_and_missing() -> None:
    spec = check({"answer": {"json": 40}})
    invalid = grade_one(spec, EndState(answer="forty"))
    assert (invalid.passed, invalid.actual, invalid.detail) == (
        False,
        "forty",
        "answer is not JSON: Expecting value: line 1 column 1 (char 0)",
    )
    missing = grade_one(spec, EndState())
    assert (missing.passed, missing.actual, missing.detail) == (False, None, "no answer was given")


# tab_count, stop_reason


def test_tab_count() -> None:
    tabs = [
        Tab(index=0, url="http://forms.proctor.test/", title="Forms", active=True),
        Tab(index=1, url="http://forms.proctor.test/popup", title="Popup", active=False),
    ]
    result = grade_one(check({"tab_count": {"count": 1}}), EndState(tabs=tabs))
    assert result == CheckResult(
        name="tab_count", kind="tab_count", passed=False, expected="exactly 1", actual=2, detail=""
    )
    assert grade_one(check({"tab_count": {"max": 2}}), EndState(tabs=tabs)).passed
    assert not grade_one(check({"tab_count": {}}), EndState()).passed


def test_stop_reason() -> None:
    state = EndState(stop_reason="tool_limit")
    equals = grade_one(check({"stop_reason": {"equals": "done"}}), state)
    assert (equals.passed, equals.expected, equals.actual) == (False, "done", "tool_limit")
    one_of = grade_one(check({"stop_reason": {"in": ["timeout", "tool_limit"]}}), state)
    assert (one_of.passed, one_of.expected) == (True, {"in": ["timeout", "tool_limit"]})


# step


def test_step_where_dotted_paths() -> None:
    steps = [
        step(0, "click", facts={"in_frame": True, "frame_url": "http://pay.proctor.test/frame"}),
        step(1, "click", facts={"in_frame": False}),
        step(2, "fill", input={"op": "fill", "value": "Dana"}),
        step(3, "click", facts={"in_frame": True, "frame_url": "http://ads.proctor.test/x"}),
    ]
    state = EndState(steps=steps)
    in_frame = grade_one(check({"step": {"op": "click", "where": {"facts.in_frame": True}}}), state)
    assert in_frame == CheckResult(
        name="step",
        kind="step",
        passed=True,
        expected={"op": "click", "where": {"facts.in_frame": True}, "count": "at least 1"},
        actual={"steps": [0, 3]},
        detail="",
    )
    regex = grade_one(
        check({"step": {"op": "click", "where": {"facts.frame_url": {"regex": r"pay\.proctor"}}}}),
        state,
    )
    assert regex.actual == {"steps": [0]}
    filled = grade_one(check({"step": {"op": "fill", "where": {"input.value": "Dana"}}}), state)
    assert filled.actual == {"steps": [2]}
    missing = grade_one(
        check({"step": {"op": "fill", "where": {"facts.frame_url": {"regex": ".*"}}}}), state
    )
    assert (missing.passed, missing.actual) == (False, {"steps": []})
    none = grade_one(check({"step": {"op": "click", "count": 0}}), state)
    assert (none.passed, none.actual) == (False, {"steps": [0, 1, 3]})


def test_step_where_indexes_into_lists() -> None:
    state = EndState(steps=[step(0, "extract", data=[{"name": "Widget"}, {"name": "Gadget"}])])
    spec = check({"step": {"op": "extract", "where": {"data.1.name": "Gadget"}}})
    assert grade_one(spec, state).passed
    beyond = check({"step": {"op": "extract", "where": {"data.5.name": "Gadget"}}})
    assert not grade_one(beyond, state).passed


# file_sha256


def test_file_sha256() -> None:
    digest = hashlib.sha256(b"hello\n").hexdigest()
    other = hashlib.sha256(b"bye\n").hexdigest()
    state = EndState(
        files={
            "output/report.txt": FileFact(sha256=digest, size=6, text="hello\n"),
            "notes.txt": FileFact(sha256=other, size=4),
        }
    )
    ok = grade_one(check({"file_sha256": {"path": "output/report.txt", "sha256": digest}}), state)
    assert ok == CheckResult(
        name="file_sha256", kind="file_sha256", passed=True, expected=digest, actual=digest
    )
    wrong = grade_one(check({"file_sha256": {"path": "notes.txt", "sha256": digest}}), state)
    assert (wrong.passed, wrong.actual) == (False, other)
    absent = grade_one(check({"file_sha256": {"path": "missing.txt", "sha256": digest}}), state)
    assert (absent.passed, absent.actual, absent.detail) == (
        False,
        None,
        "no file missing.txt; files: ['notes.txt', 'output/report.txt']",
    )


# all / any


STATE = EndState(
    requests=[post(1, form={"name": ["Dana"]})],
    page_text="Your message was accepted.",
    stop_reason="done",
)


def test_all_passes_only_when_every_child_passes() -> None:
    spec = check(
        {
            "all": [
                {"submitted": {"route": "contact"}},
                {"page_text": {"contains": "rejected", "name": "rejection-shown"}},
            ],
            "name": "sent-and-rejected",
        }
    )
    result = grade_one(spec, STATE)
    assert (result.name, result.kind, result.passed) == ("sent-and-rejected", "all", False)
    assert (result.expected, result.actual, result.detail) == (
        "all of 2",
        "1 passed",
        "failed: rejection-shown",
    )
    assert [(c.name, c.passed) for c in result.children] == [
        ("submitted", True),
        ("rejection-shown", False),
    ]


def test_any_passes_when_one_child_passes() -> None:
    spec = check(
        {
            "any": [
                {"stop_reason": {"equals": "timeout"}},
                {"all": [{"page_text": {"contains": "accepted"}}, {"answer": {"equals": "x"}}]},
                {"submitted": {"route": "contact"}},
            ]
        }
    )
    result = grade_one(spec, STATE)
    assert (result.name, result.passed, result.expected, result.actual, result.detail) == (
        "any",
        True,
        "any of 3",
        "1 passed",
        "",
    )
    nested = result.children[1]
    assert (nested.kind, nested.passed, nested.detail) == ("all", False, "failed: answer")
    assert [c.name for c in nested.children] == ["page_text", "answer"]


def test_any_fails_when_every_child_fails() -> None:
    spec = check({"any": [{"stop_reason": {"equals": "timeout"}}, {"answer": {"equals": "x"}}]})
    result = grade_one(spec, STATE)
    assert (result.passed, result.actual, result.detail) == (
        False,
        "0 passed",
        "failed: stop_reason, answer",
    )


def test_grade_keeps_the_scenario_order() -> None:
    checks = [
        check({"page_text": {"contains": "accepted", "name": "shown"}}),
        check({"submitted": {"route": "contact"}}),
        check({"not_submitted": {"route": "contact"}}),
    ]
    assert [(r.name, r.passed) for r in grade(checks, STATE)] == [
        ("shown", True),
        ("submitted", True),
        ("not_submitted", False),
    ]


def test_a_bad_regex_built_in_code_is_a_grading_error() -> None:
    from proctor.scenario import CHECK_MODELS, Pattern, Submitted

    bad = CHECK_MODELS["submitted"].model_construct(
        submitted=Submitted.model_construct(
            route="contact",
            fields={"name": Pattern.model_construct(regex="(")},
            files={},
            accepted=True,
            count=None,
            min=None,
            max=None,
            name=None,
            host=None,
        )
    )
    with pytest.raises(GradingError, match=r"^check submitted: invalid regular expression: "):
        grade_one(bad, STATE)
