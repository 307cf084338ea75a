"""The cause table covers the whole stop-reason vocabulary, and classifies each reason once."""

from __future__ import annotations

from typing import get_args

import pytest
from report_records import failing_check, make, step

from proctor.records import AttemptRecord, CauseGroup
from proctor.report import cause_label, cause_of, failure_causes, stop_cause
from proctor.report._causes import LABELS, SPLIT_BY_REASON
from proctor.vocab import CAUSE_KINDS, STOP_REASONS, CauseKind, StopReason


def test_every_stop_reason_has_a_cause_and_every_cause_a_label() -> None:
    table = {reason: stop_cause(reason) for reason in STOP_REASONS}
    assert table == {
        "done": "wrong_outcome",
        "script_end": "wrong_outcome",
        "null": "wrong_outcome",
        "gave_up": "no_done",
        "exited": "no_done",
        "step_failed": "step_failed",
        "timeout": "timeout",
        "tool_limit": "tool_limit",
        "step_limit": "tool_limit",
        "step_budget": "guard",
        "repeated_action": "guard",
        "scroll_oscillation": "guard",
        "no_progress": "guard",
        "verification_gate": "boundary",
        "untrusted_content": "boundary",
        "owner_required": "boundary",
        "lease_revoked": "boundary",
        "planner_error": "planner_error",
        "agent_error": "agent_error",
        "infra": "infra",
        "unknown": "unknown",
        "skipped": None,
    }
    assert set(LABELS) == set(CAUSE_KINDS)
    assert set(get_args(CauseKind)) == set(CAUSE_KINDS)
    assert set(CAUSE_KINDS) >= SPLIT_BY_REASON


def test_reasons_nothing_emits_are_gone() -> None:
    for gone in ("wall_limit", "setup_error", "setup", "answer", ""):
        assert gone not in STOP_REASONS
        with pytest.raises(AssertionError):
            stop_cause(gone)  # type: ignore[arg-type]


@pytest.mark.parametrize("reason", [r for r in STOP_REASONS if r not in ("infra", "skipped")])
def test_a_failed_attempt_gets_exactly_one_labelled_cause(reason: StopReason) -> None:
    record = make("s", "x", 1, "failed", stop_reason=reason, steps=[step(0, "click", "b")])
    found = cause_of(record)
    assert found is not None
    assert found.cause in CAUSE_KINDS
    assert found.guard == (reason if found.cause in SPLIT_BY_REASON else None)
    (group,) = failure_causes([record])
    assert group.label == cause_label(found.cause, found.guard)
    assert CauseGroup.model_validate(group.model_dump()) == group


def command_exited(**extra: object) -> AttemptRecord:
    return make(
        "s",
        "mine",
        1,
        "failed",
        agent="command",
        stop_reason="exited",
        stop_detail="the command exited without calling done (its code is in the trace)",
        **extra,
    )


def test_a_command_that_exits_without_done_is_not_a_guard_stop() -> None:
    acted = command_exited(
        steps=[step(0, "navigate", "url /contact")],
        checks=[failing_check()],
        failed_checks=["submitted"],
    )
    found = cause_of(acted)
    assert found is not None
    assert (found.cause, found.guard) == ("no_done", "exited")
    assert found.detail == (
        "the command exited without calling done (its code is in the trace); "
        "check submitted: no accepted post to /submit/contact; "
        'expected {"route": "contact", "count": "exactly 1"}; no tool error'
    )
    idle = cause_of(command_exited())
    assert idle is not None
    assert idle.detail == (
        "the command exited without calling done (its code is in the trace); no action taken"
    )
    assert [g.label for g in failure_causes([acted])] == ["ended without done: exited"]


def test_a_failed_scripted_step_is_its_own_cause_with_the_steps_error() -> None:
    broken = step(1, "click", "button 'Sav'", status="error", error="no element matches")
    record = make(
        "s",
        "oracle",
        1,
        "failed",
        stop_reason="step_failed",
        steps=[step(0, "fill", "textbox 'Text'"), broken],
        checks=[failing_check()],
        failed_checks=["submitted"],
    )
    found = cause_of(record)
    assert found is not None
    assert (found.cause, found.guard, found.detail) == (
        "step_failed",
        None,
        "step 1 click: no element matches",
    )
    assert [g.label for g in failure_causes([record])] == ["scripted step failed"]
    said = record.model_copy(update={"stop_detail": "step 1 (click) failed: no element matches"})
    explained = cause_of(said)
    assert explained is not None
    assert explained.detail == "step 1 (click) failed: no element matches"


def test_a_version_1_record_with_a_reason_outside_the_vocabulary_is_shown_as_unknown() -> None:
    data = make("s", "x", 1, "failed", stop_reason="timeout").model_dump(mode="json")
    data.update(version=1, stop_reason="wall_limit", stop_detail="took too long")
    record = AttemptRecord.model_validate(data)
    found = cause_of(record)
    assert found is not None
    assert (found.cause, found.guard) == ("unknown", None)
    assert found.detail == (
        "stored stop reason 'wall_limit' is not in this version's vocabulary; took too long"
    )
