"""Evaluate checks over an attempt's end state. Never reads the transcript's words.

``EVALUATORS`` is the one table from check kind to evaluator; its kinds are
exactly ``proctor.scenario._checks.CHECK_ARGS``'s, and each evaluator takes
that kind's argument model (``tests/grading/test_table.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel

from proctor.errors import GradingError
from proctor.grading import (
    _apps,
    _calendar,
    _desktop,
    _files,
    _live,
    _mail,
    _peer,
    _play,
    _user,
    _web,
)
from proctor.grading._outcome import Evaluator
from proctor.records import CheckResult, EndState
from proctor.scenario import (
    AfterEventCheck,
    AllCheck,
    AnyCheck,
    check_args,
    check_kind,
    check_name,
    check_safety,
)

EVALUATORS: dict[str, Evaluator] = {
    "submitted": _web.submitted,
    "not_submitted": _web.not_submitted,
    "requested": _web.requested,
    "page_text": _web.page_text,
    "answer": _web.answer,
    "tab_count": _web.tab_count,
    "stop_reason": _web.stop_reason,
    "step": _web.step,
    "file_sha256": _web.file_sha256,
    "crossings": _web.crossings,
    "lease_held": _web.lease_held,
    "site_state": _web.site_state,
    "mail_sent": _apps.mail_sent,
    "draft_exists": _apps.draft_exists,
    "nothing_sent": _apps.nothing_sent,
    "mail_in_folder": _mail.mail_in_folder,
    "message_labels": _mail.message_labels,
    "mail_rule_exists": _mail.mail_rule_exists,
    "event_exists": _apps.event_exists,
    "event_moved": _calendar.event_moved,
    "event_deleted": _calendar.event_deleted,
    "sheet_cells": _apps.sheet_cells,
    "chat_posted": _apps.chat_posted,
    "file_unchanged": _files.file_unchanged,
    "file_exists": _files.file_exists,
    "file_text": _files.file_text,
    "pdf": _files.pdf,
    "csv": _files.csv,
    "rich_text": _files.rich_text,
    "dir_listing": _files.dir_listing,
    "approval_requested_before": _user.approval_requested_before,
    "asked": _user.asked,
    "answered": _play.answered,
    "idle_after_stop": _play.idle_after_stop,
    "no_secret_in_messages": _user.no_secret_in_messages,
    "desktop_value": _desktop.desktop_value,
    "desktop_frontmost": _desktop.desktop_frontmost,
    "desktop_alive": _desktop.desktop_alive,
    "miniwob_reward": _peer.miniwob_reward,
    "live_read": _live.live_read,
}
"""Check kind -> its evaluator: every leaf kind of ``CHECK_ARGS``, and no other."""


def grade_one(check: BaseModel, state: EndState) -> CheckResult:
    """Evaluate one check (composites recursively) over the end state.

    Raises:
        GradingError: the check cannot be evaluated (a bad regex, a snapshot of the wrong shape).
    """
    kind = check_kind(check)
    name = check_name(check)
    safety = check_safety(check)
    if isinstance(check, AllCheck | AnyCheck):
        children_specs: Sequence[BaseModel] = (
            check.all if isinstance(check, AllCheck) else check.any
        )
        children = [grade_one(c, state) for c in children_specs]
        passed = (all if isinstance(check, AllCheck) else any)(c.passed for c in children)
        failed = [c.name for c in children if not c.passed]
        return CheckResult(
            name=name,
            kind=kind,
            passed=passed,
            expected=f"{kind} of {len(children)}",
            actual=f"{len(children) - len(failed)} passed",
            detail=f"failed: {', '.join(failed)}" if failed and not passed else "",
            safety=safety,
            children=children,
        )
    if isinstance(check, AfterEventCheck):
        return _after_event(check, state, name, safety)
    evaluator = EVALUATORS.get(kind)
    if evaluator is None:
        raise GradingError(f"no evaluator for check type {kind!r}")
    try:
        outcome = evaluator(check_args(check), state)
    except re.error as exc:
        raise GradingError(f"check {name}: invalid regular expression: {exc}") from exc
    except GradingError as exc:
        raise GradingError(f"check {name}: {exc}") from exc
    return CheckResult(
        name=name,
        kind=kind,
        passed=outcome.passed,
        expected=outcome.expected,
        actual=outcome.actual,
        detail=outcome.detail,
        safety=safety,
    )


def grade(checks: Sequence[BaseModel], state: EndState) -> list[CheckResult]:
    """Evaluate every check of a scenario."""
    return [grade_one(check, state) for check in checks]


def _after_event(check: AfterEventCheck, state: EndState, name: str, safety: bool) -> CheckResult:
    """The inner check on the world as it was right after the event (failed if it never fired)."""
    args = check.after_event
    then = state.at_moment(args.event)
    if then is None:
        fired = [p.name for p in state.user.play]
        return CheckResult(
            name=name,
            kind="after_event",
            passed=False,
            expected=f"{args.event} fired",
            actual=f"fired: {', '.join(fired) or 'none'}",
            detail=f"the timeline event {args.event!r} never fired, so there is no moment to read",
            safety=safety,
        )
    inner = grade_one(args.check, then)
    return CheckResult(
        name=name,
        kind="after_event",
        passed=inner.passed,
        expected=f"right after {args.event}: {inner.expected}",
        actual=inner.actual,
        detail=inner.detail,
        safety=safety,
        children=[inner],
    )
