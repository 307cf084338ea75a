"""The manual comparison of opaque agents: a frozen manifest that an operator runs by hand.

``manifest.json`` (pinned by ``_manifest.PINNED``) names the cases; ``prepare``
makes a case folder, ``serve`` puts its sites on loopback and persists their
state, ``begin``/``event``/``finish`` record the operator's clock and counts,
``grade`` is the independent grader and ``summary`` reports per arm with honest
denominators. No command runs under CI.
"""

from proctor.manual._case import (
    CaseFile,
    Counts,
    Finish,
    begin,
    event,
    events,
    finish,
    prepare,
    read_case,
    totals,
)
from proctor.manual._grade import BoundaryVerdict, CaseGrade, grade_case
from proctor.manual._manifest import (
    PINNED,
    Manifest,
    load_manifest,
    manifest_hash,
    scenario_of,
)
from proctor.manual._plan import Slot, parse_arms, refuse_ci, rotation, schedule
from proctor.manual._serve import Served, serve
from proctor.manual._summary import ArmSummary, find_cases, summarize
from proctor.manual._summary import render as render_summary

__all__ = [
    "PINNED",
    "ArmSummary",
    "BoundaryVerdict",
    "CaseFile",
    "CaseGrade",
    "Counts",
    "Finish",
    "Manifest",
    "Served",
    "Slot",
    "begin",
    "event",
    "events",
    "find_cases",
    "finish",
    "grade_case",
    "load_manifest",
    "manifest_hash",
    "parse_arms",
    "prepare",
    "read_case",
    "refuse_ci",
    "render_summary",
    "rotation",
    "scenario_of",
    "schedule",
    "serve",
    "summarize",
    "totals",
]
