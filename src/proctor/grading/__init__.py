"""Grading: checks over the end-state snapshot (request log, page, trace, files)."""

from proctor.grading._checks import EVALUATORS, grade, grade_one

__all__ = ["EVALUATORS", "grade", "grade_one"]
