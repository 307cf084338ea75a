"""proctor review: each attempt of a finished run rated as its user would, beside the checks.

Exit codes: 0 reviewed (a reviewer fault is a review with no score, shown, never a
change to the attempt); 2 a usage error (no such run, an unfinished run, no judge, a
judge that is an arm's model).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.agents.llm import make_reviewer
from proctor.cli._common import ResultsOpt, ScenariosOpt, add_whole_column, catalog, print_whole
from proctor.cli._models import refuse_stored_model
from proctor.cli.report import LabelArg
from proctor.errors import RunError
from proctor.report import (
    StoredRun,
    briefs_of,
    load_finished_run,
    review_run,
    score_text,
    write_review,
)

__all__ = ["review", "stored_judge"]


def stored_judge(run: StoredRun) -> str | None:
    """The ``--judge`` spec the run was made with (run.json's options), if it had one."""
    options = run.info.config.get("options") if run.info is not None else None
    judge = options.get("judge") if isinstance(options, dict) else None
    return judge if isinstance(judge, str) and judge else None


def review(
    label: LabelArg,
    judge: Annotated[
        str | None,
        typer.Option(
            "--judge",
            help="Model spec of the reviewer (default: the run's own --judge, from run.json); "
            "refused when it is an arm's model.",
        ),
    ] = None,
    scenarios: ScenariosOpt = None,
    results: ResultsOpt = Path("results"),
) -> None:
    """Rate each attempt of a finished run 1-5 as its user would, from its evidence only.

    The judge's model sees what the user could see (the brief, the final page, the answer,
    files, form posts, the questions and answers between them), never the agent's
    conversation. Each review is written beside the checks, as review.json in the
    attempt's folder, and the run's as review.json and review.md; attempt.json, the
    results and the reports are never changed. Skipped and infra-error attempts have no
    end state and are listed as not reviewed.
    """
    run = load_finished_run(results, label, "proctor review")
    spec = judge or stored_judge(run)
    if spec is None:
        raise RunError(
            f"proctor review {label}: the run had no --judge, so give --judge SPEC (a model "
            "spec: openai:MODEL, anthropic:MODEL, openai-compatible:MODEL@URL)"
        )
    refuse_stored_model(spec, run)
    reviewer = make_reviewer(spec)
    briefs = briefs_of(run, catalog(scenarios).scenarios)
    done = asyncio.run(review_run(run, reviewer, briefs, spec))
    paths = write_review(run, done)
    console = safe_console()
    arms = Table(
        title=f"review of {markup(label)} by {markup(done.model)}, as the user would rate it",
        title_justify="left",
    )
    add_whole_column(arms, "arm", [a.arm for a in done.arms])
    for column in ("reviewed", "mean score", "scores", "errors"):
        arms.add_column(column)
    for a in done.arms:
        arms.add_row(
            markup(a.arm),
            str(a.reviewed),
            f"{a.mean_score:.2f}" if a.mean_score is not None else "-",
            ", ".join(f"{s}: {n}" for s, n in a.scores.items()) or "-",
            str(a.errors),
        )
    print_whole(console, arms)
    attempts = Table()
    add_whole_column(attempts, "attempt", [r.attempt for r in done.attempts])
    for column in ("result", "score", "why"):
        attempts.add_column(column)
    for r in done.attempts:
        attempts.add_row(
            markup(r.attempt), r.result, score_text(r), markup(r.reason or r.error or "")
        )
    print_whole(console, attempts)
    for attempt, why in done.not_reviewed.items():
        console.print(f"not reviewed: {markup(attempt)} ({markup(why)})", highlight=False)
    errors = sum(r.score is None for r in done.attempts)
    if errors:
        console.print(
            f"[yellow]{errors} review(s) failed[/] (the reviewer's fault, never the attempt's): "
            "see review.md",
            highlight=False,
        )
    if any(r.recorded for r in done.attempts):
        console.print("[yellow]answered by a replay provider: a recording, not a model's review[/]")
    console.print(
        "beside the checks, never in them: no result, rate or gate reads a review",
        highlight=False,
    )
    for head, path in (("review:", paths.markdown), ("", paths.json)):
        console.print(f"{head:<8}{markup(path)}", highlight=False, soft_wrap=True)
