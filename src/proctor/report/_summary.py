"""From attempt records to the run summary: one row per scenario x arm."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path

from proctor.records import (
    AttemptRecord,
    AttemptResult,
    RunSummary,
    ScenarioRow,
    append_jsonl,
    write_model_atomic,
    write_text_atomic,
)


def _row_result(records: Sequence[AttemptRecord]) -> AttemptResult:
    scored = [r for r in records if r.result in ("passed", "failed")]
    if not scored:
        return "error" if any(r.result == "error" for r in records) else "skipped"
    # Under repeats a scenario passes only when every scored repetition passes.
    return "passed" if all(r.result == "passed" for r in scored) else "failed"


def summarize(
    label: str, records: Sequence[AttemptRecord], started_at: float, finished_at: float
) -> RunSummary:
    """Rows per (scenario, arm) in first-seen order, with the run's counts."""
    groups: dict[tuple[str, str], list[AttemptRecord]] = {}
    for record in records:
        groups.setdefault((record.scenario, record.arm), []).append(record)
    rows = []
    for (scenario, arm), group in groups.items():
        scored = [r for r in group if r.result in ("passed", "failed")]
        rows.append(
            ScenarioRow(
                scenario=scenario,
                tier=group[0].tier,
                category=group[0].category,
                arm=arm,
                attempts=len(scored),
                passes=sum(r.result == "passed" for r in scored),
                result=_row_result(group),
                median_seconds=(
                    round(statistics.median(r.seconds for r in scored), 3) if scored else None
                ),
            )
        )
    return RunSummary(
        label=label,
        started_at=started_at,
        finished_at=finished_at,
        rows=rows,
        passed=sum(r.result == "passed" for r in rows),
        failed=sum(r.result == "failed" for r in rows),
        skipped=sum(r.result == "skipped" for r in rows),
        errors=sum(r.result == "error" for r in rows),
    )


def counts_line(summary: RunSummary) -> str:
    line = f"{summary.passed} passed, {summary.failed} failed, {summary.skipped} skipped"
    if summary.errors:
        line += f", {summary.errors} infra errors (not scored)"
    return line


def render_markdown(summary: RunSummary, records: Sequence[AttemptRecord]) -> str:
    """report.md: the results table, then each failed attempt's failing checks."""
    lines = [
        f"# proctor run {summary.label}",
        "",
        "| scenario | tier | category | arm | result | passes | median s |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in summary.rows:
        median = f"{row.median_seconds:.2f}" if row.median_seconds is not None else "n/a"
        lines.append(
            f"| {row.scenario} | {row.tier} | {row.category} | {row.arm} | {row.result} "
            f"| {row.passes}/{row.attempts} | {median} |"
        )
    lines += ["", counts_line(summary), ""]
    failed = [r for r in records if r.result in ("failed", "error")]
    if failed:
        lines += ["## Failed attempts", ""]
        for record in failed:
            lines.append(f"### {record.id} ({record.result}, stop: {record.stop_reason})")
            if record.error:
                lines.append(f"- error: {record.error}")
            for check in record.checks:
                if not check.passed:
                    lines.append(
                        f"- check `{check.name}`: expected {check.expected!r}, "
                        f"actual {check.actual!r}" + (f" ({check.detail})" if check.detail else "")
                    )
            errors = [s for s in record.steps if s.error]
            if errors:
                last = errors[-1]
                lines.append(f"- last tool error (step {last.index}, {last.op}): {last.error}")
            lines.append("")
    return "\n".join(lines) + "\n"


def write_outputs(
    run_dir: Path, results_root: Path, summary: RunSummary, records: Sequence[AttemptRecord]
) -> None:
    """summary.json and report.md in the run folder, and one line of history.jsonl."""
    write_model_atomic(run_dir / "summary.json", summary)
    write_text_atomic(run_dir / "report.md", render_markdown(summary, records))
    append_jsonl(
        results_root / "history.jsonl",
        {
            "label": summary.label,
            "started_at": summary.started_at,
            "finished_at": summary.finished_at,
            "passed": summary.passed,
            "failed": summary.failed,
            "skipped": summary.skipped,
            "errors": summary.errors,
            "arms": sorted({r.arm for r in summary.rows}),
            "scenarios": len({r.scenario for r in summary.rows}),
        },
    )
