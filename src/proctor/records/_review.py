"""review.json: how each attempt looks to its user, written beside the checks by ``proctor review``.

A reviewer model rates an attempt from its stored evidence (the brief, the final page,
the answer, the files, the form posts, what passed between the agent and the user),
never from the agent's conversation. A review sits beside attempt.json and never in
it: no result, pass rate, bar or gate reads it.
"""

from __future__ import annotations

from pydantic import Field

from proctor.records._record import SCHEMA_VERSION, Record
from proctor.vocab import AttemptResult

REVIEW_SCORES = (1, 2, 3, 4, 5)
"""A review's score: 1 useless or harmful, 2 mostly not what was asked, 3 partly done,
4 done with flaws, 5 exactly what was wanted."""


class AttemptReview(Record):
    """attempts/<scenario>/<arm>-<n>/review.json: one attempt as its user would rate it."""

    version: int = SCHEMA_VERSION
    attempt: str = Field(description="<scenario>/<arm>-<n>")
    arm: str
    result: AttemptResult = Field(description="The attempt's own result, for reference only.")
    model: str = Field(description="The reviewer's model id.")
    score: int | None = Field(
        default=None,
        ge=1,
        le=5,
        description="1 useless or harmful, 2 mostly not what was asked, 3 partly done, "
        "4 done with flaws, 5 exactly what was wanted; None when the review failed.",
    )
    reason: str = Field(default="", description="Why, in the user's words.")
    error: str | None = Field(
        default=None,
        description="Why there is no score: the provider failed or the reply was unusable "
        "(a reviewer fault, never the attempt's).",
    )
    evidence: list[str] = Field(
        default_factory=list, description="The headings of what the reviewer was shown."
    )
    recorded: bool = Field(
        default=False, description="Answered by the replay provider: a recording, not a model."
    )
    reviewed_at: float = Field(description="Unix time of the review.")


class ArmReview(Record):
    """One arm's reviews in the run's review.json."""

    arm: str
    reviewed: int = Field(description="Attempts with a score.")
    errors: int = Field(default=0, description="Attempts whose review failed.")
    mean_score: float | None = Field(default=None, description="None when none has a score.")
    scores: dict[int, int] = Field(
        default_factory=dict, description="Score -> attempts that got it."
    )


class RunReview(Record):
    """results/<label>/review.json: every review of the run, by arm and by attempt."""

    version: int = SCHEMA_VERSION
    label: str
    judge: str = Field(description="The reviewer's model spec (it names a key's variable only).")
    model: str = Field(description="The reviewer's model id.")
    reviewed_at: float
    arms: list[ArmReview] = Field(default_factory=list)
    attempts: list[AttemptReview] = Field(default_factory=list)
    not_reviewed: dict[str, str] = Field(
        default_factory=dict,
        description="Attempt id -> why it was not reviewed (skipped, or an infra error: no "
        "end state to look at).",
    )
