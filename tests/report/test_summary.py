"""The run summary: verdicts under repeats, infra errors never scored, and report.md."""

from __future__ import annotations

from typing import Any

from proctor.records import AttemptRecord, CheckResult, RunSummary, Step
from proctor.report import counts_line, render_markdown, summarize
from proctor.vocab import AttemptResult


def record(
    scenario: str,
    arm: str,
    repeat: int,
    result: AttemptResult,
    seconds: float = 1.0,
    **extra: Any,
) -> AttemptRecord:
    defaults: dict[str, Any] = {
        "scenario_sha256": "ab" * 32,
        "tier": "local",
        "category": "regression",
        "agent": "scripted",
        "stop_reason": "done" if result != "error" else "infra",
        "started_at": 1700000000.0 + repeat,
    }
    defaults.update(extra)
    return AttemptRecord(
        id=f"{scenario}/{arm}-{repeat}",
        scenario=scenario,
        arm=arm,
        repeat=repeat,
        result=result,
        seconds=seconds,
        **defaults,
    )


def row_view(summary: RunSummary) -> list[tuple[str, str, str, int, int, float | None]]:
    return [
        (r.scenario, r.arm, r.result, r.passes, r.attempts, r.median_seconds) for r in summary.rows
    ]


def test_a_scenario_passes_only_if_every_repetition_passes() -> None:
    records = [
        record("alpha", "oracle", 1, "passed", 1.0),
        record("alpha", "oracle", 2, "passed", 3.0),
        record("alpha", "oracle", 3, "passed", 2.0),
        record("beta", "oracle", 1, "passed", 1.0),
        record("beta", "oracle", 2, "failed", 4.0),
        record("beta", "oracle", 3, "passed", 1.5),
    ]
    summary = summarize("run-1", records, 100.0, 160.0)
    assert row_view(summary) == [
        ("alpha", "oracle", "passed", 3, 3, 2.0),
        ("beta", "oracle", "failed", 2, 3, 1.5),
    ]
    assert (summary.passed, summary.failed, summary.skipped, summary.errors) == (1, 1, 0, 0)
    assert (summary.label, summary.started_at, summary.finished_at) == ("run-1", 100.0, 160.0)
    assert counts_line(summary) == "1 passed, 1 failed, 0 skipped"


def test_infra_errors_are_not_scored() -> None:
    records = [
        record("alpha", "oracle", 1, "passed", 2.0),
        record("alpha", "oracle", 2, "error", 99.0, error="browser crashed"),
        record("gamma", "oracle", 1, "error", 5.0, error="fixture server down"),
        record("gamma", "oracle", 2, "error", 5.0, error="fixture server down"),
        record("delta", "oracle", 1, "skipped", 0.0),
    ]
    summary = summarize("run-2", records, 0.0, 10.0)
    assert row_view(summary) == [
        ("alpha", "oracle", "passed", 1, 1, 2.0),
        ("gamma", "oracle", "error", 0, 0, None),
        ("delta", "oracle", "skipped", 0, 0, None),
    ]
    assert [r.infra_errors for r in summary.rows] == [1, 2, 0]
    assert (summary.passed, summary.failed, summary.skipped, summary.errors) == (1, 0, 1, 1)
    assert counts_line(summary) == "1 passed, 0 failed, 1 skipped, 1 infra errors (not scored)"


def test_rows_are_per_scenario_and_arm_in_first_seen_order() -> None:
    records = [
        record("alpha", "oracle", 1, "passed"),
        record("alpha", "null", 1, "failed"),
        record("beta", "null", 1, "failed"),
        record("alpha", "oracle", 2, "failed"),
        record("alpha", "null", 2, "failed"),
    ]
    summary = summarize("run-3", records, 0.0, 1.0)
    assert [(r.scenario, r.arm, r.result, r.passes, r.attempts) for r in summary.rows] == [
        ("alpha", "oracle", "failed", 1, 2),
        ("alpha", "null", "failed", 0, 2),
        ("beta", "null", "failed", 0, 1),
    ]
    assert counts_line(summary) == "0 passed, 3 failed, 0 skipped"


def test_render_markdown_scenarios_counts_and_failures() -> None:
    failing_check = CheckResult(
        name="submitted",
        kind="submitted",
        passed=False,
        expected={"route": "contact", "count": "exactly 1"},
        actual={"matching": 0, "posts": []},
        detail="no accepted post to /submit/contact",
    )
    passing_check = CheckResult(name="shown", kind="page_text", passed=True)
    bad_step = Step(
        index=2,
        op="click",
        status="error",
        error="no element matches role=button name='Send'",
        started_at=1.0,
        latency_ms=2.0,
    )
    records = [
        record("alpha", "oracle", 1, "passed", 1.25),
        record(
            "beta",
            "oracle",
            1,
            "failed",
            2.5,
            checks=[failing_check, passing_check],
            failed_checks=["submitted"],
            steps=[bad_step],
            category="capability",
        ),
        record("gamma", "oracle", 1, "error", 3.0, error="browser crashed"),
    ]
    summary = summarize("run-4", records, 1700000000.0, 1700000010.0)
    text = render_markdown(summary, records)
    lines = text.splitlines()
    assert lines[0] == "# proctor run run-4"
    table = [
        "| scenario | tier | category | arm | result | passes | median s |",
        "|---|---|---|---|---|---|---|",
        "| alpha | local | regression | oracle | passed | 1/1 | 1.25 |",
        "| beta | local | capability | oracle | failed | 0/1 | 2.50 |",
        "| gamma | local | regression | oracle | error | 0/0 | n/a |",
    ]
    start = lines.index(table[0])
    assert lines[start : start + len(table)] == table
    assert "1 passed, 1 failed, 0 skipped, 1 infra errors (not scored)" in lines
    beta = [
        "### beta/oracle-1 (failed, stop: done)",
        "- check `submitted`: expected {'route': 'contact', 'count': 'exactly 1'}, "
        "actual {'matching': 0, 'posts': []} (no accepted post to /submit/contact)",
        "- last tool error (step 2, click): no element matches role=button name='Send'",
    ]
    start = lines.index(beta[0])
    assert lines[start : start + len(beta)] == beta
    gamma = ["### gamma/oracle-1 (error, stop: infra)", "- error: browser crashed"]
    start = lines.index(gamma[0])
    assert lines[start : start + len(gamma)] == gamma
    assert "### alpha/oracle-1" not in text
    assert "check `shown`" not in text
    assert text.endswith("\n")
