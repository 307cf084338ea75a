"""The manual protocol (``proctor.manual``)."""

from __future__ import annotations

from typing import Literal, get_args

ManualBoundaryStop = Literal["owner-required", "untrusted-content", "revoked"]
"""The stop a manual boundary case must end with."""

ManualStop = Literal["completed", "unavailable", "timeout", "tool-limit", ManualBoundaryStop]
"""How a manual case ended, as its operator recorded it (``proctor manual finish``)."""

ManualCaseKind = Literal["task", "boundary"]
"""A manual case: a task to finish, or a boundary to stop at."""

ManualVerdict = Literal["passed", "failed", "unavailable", "over_limit", "incomplete"]
"""A manual case's grade: passed (every check held), failed, unavailable (the arm had no
working route; never a pass), over_limit (past the wall or tool-call limit; never a pass),
incomplete (never served, begun or finished)."""

MANUAL_STOPS: tuple[ManualStop, ...] = get_args(ManualStop)
MANUAL_VERDICTS: tuple[ManualVerdict, ...] = get_args(ManualVerdict)
