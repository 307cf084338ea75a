"""Determinism (divergence index, what each run did) and failure-cause grouping."""

from __future__ import annotations

from report_records import failing_check, make, step

from proctor.records import InfraFault
from proctor.report import cause_of, determinism, diagnose_lines, divergence, failure_causes


def test_divergence_index() -> None:
    a = [("browser", "navigate", "/x"), ("browser", "click", "Send")]
    b = [("browser", "navigate", "/x"), ("browser", "click", "Cancel")]
    assert divergence([a, a, a]) is None
    assert divergence([a, a, b]) == 1
    assert divergence([a, a[:1], a]) == 1  # a run that ended early differs there
    assert divergence([[], a]) == 0
    assert divergence([[], []]) is None


def test_determinism_names_the_step_and_what_each_run_did() -> None:
    same = [step(0, "navigate", "url /contact"), step(1, "click", "button 'Send'")]

    def same_timed(n: int) -> list:
        # The same steps with other timings, outputs and inputs: still the same path.
        return [
            s.model_copy(update={"latency_ms": 100.0 * n, "output": f"run {n}", "input": {"n": n}})
            for s in same
        ]

    other = [step(0, "navigate", "url /contact"), step(1, "click", "button 'Cancel'")]
    short = [step(0, "navigate", "url /contact")]
    records = [
        # oracle: identical steps; outputs and latencies differ by index only
        *[make("s", "oracle", n, "passed", steps=same_timed(n)) for n in (1, 2, 3)],
        # agent: run 2 clicks something else at step 1; run 3 stopped after step 0
        make("s", "agent", 1, "passed", steps=same),
        make("s", "agent", 2, "failed", steps=other),
        make("s", "agent", 3, "failed", steps=short),
        # only two runs: not covered
        *[make("t", "oracle", n, "passed", steps=same) for n in (1, 2)],
        # an infra error is left out, leaving two runs: not covered
        make("u", "oracle", 1, "passed", steps=same),
        make("u", "oracle", 2, "passed", steps=other),
        make("u", "oracle", 3, "error"),
    ]
    found = determinism(records)
    assert [(d.scenario, d.arm, d.runs, d.same, d.diverged_at) for d in found] == [
        ("s", "oracle", 3, True, None),
        ("s", "agent", 3, False, 1),
    ]
    assert found[0].at == []
    assert [(r.attempt, r.step) for r in found[1].at] == [
        ("s/agent-1", "browser click button 'Send'"),
        ("s/agent-2", "browser click button 'Cancel'"),
        ("s/agent-3", None),
    ]


def _cause_records() -> list:
    tool_error = step(3, "click", "button 'Send'", status="error", error="no element matches")
    return [
        make("a", "x", 1, "passed", steps=[step(0, "click", "b")]),
        make(
            "b", "x", 1, "failed", stop_reason="timeout", error="the wall limit (60s) was reached"
        ),
        make(
            "c",
            "x",
            1,
            "failed",
            stop_reason="tool_limit",
            error="the tool-call limit (40) is used up",
        ),
        make(
            "d", "x", 1, "failed", stop_reason="step_limit", error="the step limit (20) is used up"
        ),
        make("e", "x", 1, "failed", stop_reason="planner_error", error="malformed tool call"),
        make("f", "x", 1, "failed", stop_reason="no_progress", error=None),
        make("g", "x", 1, "failed", stop_reason="owner_required", steps=[step(0, "click", "Pay")]),
        make("h", "x", 1, "failed", stop_reason="null"),
        make("i", "x", 1, "failed", stop_reason="done", steps=[step(0, "done")]),
        make(
            "j",
            "x",
            1,
            "failed",
            stop_reason="done",
            checks=[failing_check()],
            failed_checks=["submitted"],
            steps=[step(0, "navigate", "u"), tool_error, step(4, "done")],
        ),
        make(
            "k",
            "x",
            1,
            "error",
            error="browser crashed",
            infra_faults=[
                InfraFault(try_number=n, kind="browser", message="crashed") for n in (1, 2, 3)
            ],
        ),
        make(
            "l",
            "x",
            1,
            "error",
            error="seed failed",
            infra_faults=[InfraFault(try_number=1, kind="setup", message="seed failed")],
        ),
        make(
            "m",
            "x",
            1,
            "passed",
            steps=[step(0, "click", "b")],
            infra_faults=[InfraFault(try_number=1, kind="fixture", message="500 on /contact")],
        ),
        make("n", "x", 1, "skipped"),
        make(
            "o",
            "x",
            1,
            "failed",
            stop_reason="agent_error",
            error="ValueError: boom",
            steps=[step(0, "click", "b")],
        ),
    ]


def test_each_failure_gets_one_cause() -> None:
    got = {r.scenario: cause_of(r) for r in _cause_records()}
    assert {k: (v.cause, v.guard) if v else None for k, v in got.items()} == {
        "a": None,
        "b": ("timeout", None),
        "c": ("tool_limit", None),
        "d": ("tool_limit", None),
        "e": ("planner_error", None),
        "f": ("guard", "no_progress"),
        "g": ("boundary", "owner_required"),
        "h": ("no_actions", None),
        "i": ("no_actions", None),
        "j": ("wrong_outcome", None),
        "k": ("infra", None),
        "l": ("setup", None),
        "m": None,
        "n": None,
        "o": ("agent_error", None),
    }
    wrong = got["j"]
    assert wrong is not None
    assert wrong.detail == (
        "check submitted: no accepted post to /submit/contact; "
        'expected {"route": "contact", "count": "exactly 1"}; '
        "last tool error: step 3 click: no element matches"
    )


def test_causes_group_with_counts_paths_and_infra_apart() -> None:
    groups = failure_causes(_cause_records())
    assert [(g.label, g.counted, [a.attempt for a in g.attempts]) for g in groups] == [
        ("setup", True, ["l/x-1"]),
        ("timeout", True, ["b/x-1"]),
        ("tool limit", True, ["c/x-1", "d/x-1"]),
        ("planner error: no usable tool call", True, ["e/x-1"]),
        ("agent error", True, ["o/x-1"]),
        ("guard stop: no_progress", True, ["f/x-1"]),
        ("boundary stop: owner_required", True, ["g/x-1"]),
        ("no computer actions", True, ["h/x-1", "i/x-1"]),
        ("wrong outcome", True, ["j/x-1"]),
        ("infra (not counted)", False, ["k/x-1", "m/x-1"]),
    ]
    infra = groups[-1].attempts
    assert infra[1].detail == "retried, then passed: try 1 fixture: 500 on /contact"
    assert groups[0].attempts[0].path == "attempts/l/x-1"
    lines = diagnose_lines(groups, "results/r1")
    assert lines[0] == "11 failed attempt(s) by cause:"
    assert "  tool limit: 2" in lines
    assert "  infra (not counted): 2 (shown apart, not counted)" in lines
    assert "    results/r1/attempts/b/x-1  the wall limit (60s) was reached" in lines
    assert diagnose_lines([], "r") == ["no failed attempts"]
