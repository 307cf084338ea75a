"""Grading: checks over the end-state snapshot (request log, page, trace, files, apps), and
the judge's protocol for the criteria code cannot decide."""

from proctor.grading._checks import EVALUATORS, grade, grade_one
from proctor.grading._judge import Judge
from proctor.grading._outcome import CheckOutcome, Evaluator

__all__ = ["EVALUATORS", "CheckOutcome", "Evaluator", "Judge", "grade", "grade_one"]
