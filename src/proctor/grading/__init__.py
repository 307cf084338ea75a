"""Grading: checks over the end-state snapshot (request log, page, trace, files, apps)."""

from proctor.grading._checks import EVALUATORS, grade, grade_one
from proctor.grading._outcome import CheckOutcome, Evaluator

__all__ = ["EVALUATORS", "CheckOutcome", "Evaluator", "grade", "grade_one"]
