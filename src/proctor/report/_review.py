"""Review: each attempt of a stored run rated as its user would, written beside the checks.

``review_run`` asks a reviewer (the judge's model, ``proctor review``) about every
attempt that has an end state, from its evidence only; ``write_review`` puts each
review in its attempt folder (review.json, beside attempt.json, which is never
touched) and the run's in review.json and review.md. Nothing here changes a result,
a check, a summary or a report.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from proctor.errors import RunError
from proctor.records import (
    ArmReview,
    AttemptRecord,
    AttemptReview,
    RunReview,
    write_model_atomic,
    write_text_atomic,
)
from proctor.report._load import StoredRun
from proctor.report._markdown import table
from proctor.scenario import LoadedScenario, Scenario, resolve

REVIEWED = ("passed", "failed")
"""Results with an end state to look at; skipped and infra-error attempts have none."""


class Reviewer(Protocol):
    """``await reviewer(record, brief)``: the attempt's review, from its evidence only."""

    @property
    def model(self) -> str: ...

    async def __call__(self, record: AttemptRecord, brief: str) -> AttemptReview: ...


@dataclass(frozen=True)
class ReviewPaths:
    """What ``write_review`` wrote."""

    json: Path
    markdown: Path
    attempts: list[Path]


def briefs_of(run: StoredRun, scenarios: Mapping[str, LoadedScenario]) -> dict[str, str]:
    """Each reviewed attempt's brief, as its agent got it (placeholders resolved).

    Raises:
        RunError: naming every scenario of the run that is no longer in the catalog.
    """
    reviewed = [r for r in run.records if r.result in REVIEWED]
    missing = sorted({r.scenario for r in reviewed if r.scenario not in scenarios})
    if missing:
        raise RunError(
            f"cannot review {run.label}: scenario(s) no longer in the catalog: "
            f"{', '.join(missing)}; restore the file(s), or pass --scenarios DIR holding them"
        )
    out: dict[str, str] = {}
    for record in reviewed:
        values = dict(record.end_state.placeholders)
        scenario: Scenario = resolve(scenarios[record.scenario].scenario, values)
        out[record.id] = scenario.brief
    return out


async def review_run(
    run: StoredRun, reviewer: Reviewer, briefs: Mapping[str, str], spec: str
) -> RunReview:
    """Every attempt with an end state, reviewed one after the other; the run's review."""
    reviews: list[AttemptReview] = []
    skipped: dict[str, str] = {}
    for record in run.records:
        if record.result not in REVIEWED:
            skipped[record.id] = f"{record.result}: no end state to review"
            continue
        reviews.append(await reviewer(record, briefs[record.id]))
    return RunReview(
        label=run.label,
        judge=spec,
        model=reviewer.model,
        reviewed_at=time.time(),
        arms=arm_reviews(reviews),
        attempts=reviews,
        not_reviewed=skipped,
    )


def arm_reviews(reviews: Sequence[AttemptReview]) -> list[ArmReview]:
    """Per arm, in order of appearance: how many got a score, their mean and spread."""
    by_arm: dict[str, list[AttemptReview]] = {}
    for review in reviews:
        by_arm.setdefault(review.arm, []).append(review)
    out = []
    for arm, items in by_arm.items():
        scores = [r.score for r in items if r.score is not None]
        out.append(
            ArmReview(
                arm=arm,
                reviewed=len(scores),
                errors=len(items) - len(scores),
                mean_score=round(statistics.fmean(scores), 3) if scores else None,
                scores={s: scores.count(s) for s in sorted(set(scores))},
            )
        )
    return out


def write_review(run: StoredRun, review: RunReview) -> ReviewPaths:
    """review.json in each reviewed attempt's folder, then the run's review.json and review.md.

    attempt.json is never written: a review sits beside the checks, never in them.
    """
    written = []
    for item in review.attempts:
        path = run.run_dir / "attempts" / item.attempt / "review.json"
        write_model_atomic(path, item)
        written.append(path)
    json_path = run.run_dir / "review.json"
    md_path = run.run_dir / "review.md"
    write_model_atomic(json_path, review)
    write_text_atomic(md_path, render_review_markdown(review))
    return ReviewPaths(json_path, md_path, written)


def score_text(review: AttemptReview) -> str:
    return f"{review.score}/5" if review.score is not None else "error"


def render_review_markdown(review: RunReview) -> str:
    """review.md: the arms' mean scores, then each attempt's score and reason."""
    lines = [
        f"# Review of {review.label}",
        "",
        f"Each attempt rated 1-5 as its user would, by {review.model} ({review.judge}), from "
        "its evidence only (the brief, the final page, the answer, files, form posts, what "
        "passed between the agent and the user). Beside the checks, never in them: no "
        "result, rate or gate reads it.",
        "",
    ]
    if any(r.recorded for r in review.attempts):
        lines += ["**Answered by a replay provider: a recording, not a model's review.**", ""]
    rows = [
        [
            arm.arm,
            arm.reviewed,
            f"{arm.mean_score:.2f}" if arm.mean_score is not None else "-",
            ", ".join(f"{s}: {n}" for s, n in arm.scores.items()) or "-",
            arm.errors,
        ]
        for arm in review.arms
    ]
    lines += table(["arm", "reviewed", "mean score", "scores", "errors"], rows)
    lines += ["", "## Attempts", ""]
    rows = [
        [r.attempt, r.result, score_text(r), r.reason or r.error or ""] for r in review.attempts
    ]
    rows += [[attempt, why.split(":")[0], "-", why] for attempt, why in review.not_reviewed.items()]
    lines += table(["attempt", "result", "score", "why"], rows)
    return "\n".join(lines) + "\n"
