"""From attempt records to the run summary, and the files a run leaves behind."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proctor.records import (
    AttemptRecord,
    RunSummary,
    ScenarioRow,
    put_jsonl_row,
    shared_path,
    write_model_atomic,
    write_text_atomic,
)
from proctor.report._causes import failure_causes
from proctor.report._determinism import determinism
from proctor.report._html import render_html
from proctor.report._markdown import counts_line, render_markdown
from proctor.report._metrics import flip_rate, metric_rows, scored
from proctor.report._peers import peer_rows
from proctor.report._targets import Targets, load_targets, mark
from proctor.vocab import AttemptResult

__all__ = [
    "ReportPaths",
    "counts_line",
    "history_line",
    "render_markdown",
    "summarize",
    "write_outputs",
    "write_reports",
]


def _row_result(records: Sequence[AttemptRecord]) -> AttemptResult:
    graded = scored(records)
    if not graded:
        return "error" if any(r.result == "error" for r in records) else "skipped"
    # Under repeats a scenario passes only when every scored repetition passes.
    return "passed" if all(r.result == "passed" for r in graded) else "failed"


def scenario_rows(records: Sequence[AttemptRecord]) -> list[ScenarioRow]:
    """One row per scenario x arm x model x mode, in first-seen order."""
    groups: dict[tuple[str, str, str | None, str | None], list[AttemptRecord]] = {}
    for record in records:
        key = (record.scenario, record.arm, record.model, record.mode)
        groups.setdefault(key, []).append(record)
    rows = []
    for (scenario, arm, model, mode), group in groups.items():
        graded = sorted(scored(group), key=lambda r: r.repeat)
        rows.append(
            ScenarioRow(
                scenario=scenario,
                tier=group[0].tier,
                category=group[0].category,
                arm=arm,
                model=model,
                mode=mode,
                attempts=len(graded),
                passes=sum(r.result == "passed" for r in graded),
                result=_row_result(group),
                median_seconds=(
                    round(statistics.median(r.seconds for r in graded), 3) if graded else None
                ),
                infra_errors=sum(r.result == "error" for r in group),
                flip_rate=flip_rate([r.result == "passed" for r in graded]),
            )
        )
    return rows


def summarize(
    label: str,
    records: Sequence[AttemptRecord],
    started_at: float,
    finished_at: float,
    targets: Targets | None = None,
    budget_usd: float | None = None,
    time_scale: float = 1.0,
) -> RunSummary:
    """The run's scenario rows and counts, metrics with bars, determinism and failure causes."""
    targets = targets or load_targets()
    rows = scenario_rows(records)
    return RunSummary(
        label=label,
        started_at=started_at,
        finished_at=finished_at,
        rows=rows,
        passed=sum(r.result == "passed" for r in rows),
        failed=sum(r.result == "failed" for r in rows),
        skipped=sum(r.result == "skipped" for r in rows),
        errors=sum(r.result == "error" for r in rows),
        metrics=[mark(row, targets) for row in metric_rows(records)],
        peers=peer_rows(records),
        determinism=determinism(records),
        causes=failure_causes(records),
        targets=shared_path(targets.source),
        budget_usd=budget_usd,
        time_scale=time_scale,
        spent_usd=(
            None if budget_usd is None else round(sum(r.cost_usd or 0.0 for r in records), 6)
        ),
    )


@dataclass(frozen=True)
class ReportPaths:
    """The files a report was written to."""

    summary: Path
    markdown: Path
    html: Path


def write_reports(
    run_dir: Path, summary: RunSummary, records: Sequence[AttemptRecord]
) -> ReportPaths:
    """summary.json, report.md and report.html in the run folder (rebuildable at any time)."""
    paths = ReportPaths(run_dir / "summary.json", run_dir / "report.md", run_dir / "report.html")
    write_model_atomic(paths.summary, summary)
    write_text_atomic(paths.markdown, render_markdown(summary, records))
    write_text_atomic(paths.html, render_html(summary, records, run_dir))
    return paths


def history_line(summary: RunSummary) -> dict[str, Any]:
    """The run's line in results/history.jsonl: date, arms and headline numbers."""
    return {
        "label": summary.label,
        "started_at": summary.started_at,
        "finished_at": summary.finished_at,
        "passed": summary.passed,
        "failed": summary.failed,
        "skipped": summary.skipped,
        "errors": summary.errors,
        "time_scale": summary.time_scale,
        "arms": sorted({r.arm for r in summary.rows}),
        "scenarios": len({r.scenario for r in summary.rows}),
        "rows": [
            {
                "arm": m.arm,
                "model": m.model,
                "mode": m.mode,
                "success": m.success,
                "attempts": m.attempts,
                "pass_k": {str(k): v for k, v in m.pass_k.items()},
                "median_cost_usd": m.median_cost_usd,
                "median_seconds": m.median_seconds,
                "bars_met": sum(b.met for b in m.bars),
                "bars": len(m.bars),
            }
            for m in summary.metrics
        ],
    }


def write_outputs(
    run_dir: Path, results_root: Path, summary: RunSummary, records: Sequence[AttemptRecord]
) -> ReportPaths:
    """The run's reports, and its one line of results/history.jsonl.

    A run has one line: a resume (or regrade into the same label) puts the new
    line in place of the old one, never beside it.
    """
    paths = write_reports(run_dir, summary, records)
    put_jsonl_row(results_root / "history.jsonl", "label", history_line(summary))
    return paths
