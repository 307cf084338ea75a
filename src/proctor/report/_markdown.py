"""report.md: the same tables as report.html, in plain text."""

from __future__ import annotations

from collections.abc import Sequence

from proctor._text import safe
from proctor.records import AttemptRecord, RunSummary
from proctor.report import _format as f


def counts_line(summary: RunSummary) -> str:
    line = f"{summary.passed} passed, {summary.failed} failed, {summary.skipped} skipped"
    if summary.errors:
        line += f", {summary.errors} infra errors (not scored)"
    if summary.budget_usd is not None:
        not_run = sum(m.not_run for m in summary.metrics)
        line += f"; budget ${summary.budget_usd:.2f}, spent ${summary.spent_usd or 0:.4f}"
        line += f", {not_run} attempt(s) not run (missing, not failed)" if not_run else ""
    if summary.time_scale != 1:
        line += f"; wall limits scaled x{summary.time_scale:g} (--time-scale)"
    return line


def _cell(value: object) -> str:
    return safe(str(value).replace("\n", " ")).replace("|", "\\|")


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """A Markdown table."""
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |"]
    lines.append("|" + "---|" * len(header))
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def k_range(summary: RunSummary) -> list[int]:
    """Every k some row reports pass^k for."""
    return sorted({k for m in summary.metrics for k in m.pass_k})


def results_section(summary: RunSummary) -> list[str]:
    ks = k_range(summary)
    header = ["arm", "scenarios", "scored", "success [95% CI]", *[f"pass^{k}" for k in ks]]
    header += ["med calls", "med tokens", "med $", "med time", "flip rate", "infra"]
    header += ["faults"]
    rows = []
    for m in summary.metrics:
        rows.append(
            [
                f.row_name(m),
                m.scenarios,
                m.attempts,
                f.interval(m),
                *[f.pass_k_cell(m, k) for k in ks],
                f.median_cell(m, "planner_calls"),
                f.median_cell(m, "tokens"),
                f.median_cell(m, "cost_usd"),
                f.secs(m.median_seconds),
                f.pct(m.flip_rate),
                m.infra_errors,
                f.faults(m.infra_faults),
            ]
        )
    lines = ["## Results", "", *table(header, rows), ""]
    if summary.metrics and summary.metrics[0].bars:
        bars = summary.metrics[0].bars
        lines += [f"Bars (from {summary.targets}):", ""]
        lines += table(
            ["arm", *[f.bar_title(b) for b in bars], "met"],
            [
                [
                    f.row_name(m),
                    *[f.bar_cell(b, m) for b in m.bars],
                    f.bars_met(m),
                ]
                for m in summary.metrics
            ],
        )
        lines.append("")
    totals = [
        [
            f.row_name(m),
            f.total_cell(m, "planner_calls", m.total_planner_calls),
            f.total_cell(m, "planner_calls", m.total_invalid_calls),
            f.total_cell(m, "planner_calls", m.total_text_calls),
            f.total_cell(m, "tokens", m.total_tokens),
            f.total_cell(m, "cost_usd", m.total_cost_usd),
            f.secs(m.total_seconds),
        ]
        for m in summary.metrics
    ]
    lines += [
        "Totals:",
        "",
        *table(
            ["arm", "planner calls", "invalid calls", "read from text", "tokens", "$", "time"],
            totals,
        ),
        "",
    ]
    return lines


def grid_section(summary: RunSummary) -> list[str]:
    """Scenario x arm: passes/attempts per cell; ~ marks a verdict that flipped."""
    columns = list(dict.fromkeys(f.row_name(r) for r in summary.rows))
    cells: dict[str, dict[str, str]] = {}
    for row in summary.rows:
        cells.setdefault(row.scenario, {})[f.row_name(row)] = f.verdict(row)
    rows = [[sid, *[by.get(c, "-") for c in columns]] for sid, by in cells.items()]
    return ["## Scenario x arm", "", *table(["scenario", *columns], rows), ""]


def scenario_section(summary: RunSummary) -> list[str]:
    lines = [
        "| scenario | tier | category | arm | result | passes | median s |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in summary.rows:
        median = f"{row.median_seconds:.2f}" if row.median_seconds is not None else "n/a"
        lines.append(
            f"| {row.scenario} | {row.tier} | {row.category} | {f.row_name(row)} | {row.result} "
            f"| {row.passes}/{row.attempts} | {median} |"
        )
    return lines


def determinism_section(summary: RunSummary) -> list[str]:
    lines = ["## Determinism", ""]
    if not summary.determinism:
        return [*lines, "No scenario ran 3 or more times per arm.", ""]
    rows = []
    for d in summary.determinism:
        at = "; ".join(f"{s.attempt}: {s.step or '(ended)'}" for s in d.at)
        rows.append(
            [
                d.scenario,
                f.row_name(d),
                d.runs,
                "yes" if d.same else "no",
                "-" if d.diverged_at is None else _diverged(d.diverged_at, d.after_event),
                at or "-",
            ]
        )
    header = ["scenario", "arm", "runs", "same steps", "diverged at step", "what each run did"]
    return [*lines, *table(header, rows), ""]


def causes_section(summary: RunSummary) -> list[str]:
    lines = ["## Failure causes", ""]
    if not summary.causes:
        return [*lines, "No failures.", ""]
    rows = [
        [g.label, len(g.attempts), "yes" if g.counted else "no (shown apart)"]
        for g in summary.causes
    ]
    lines += [*table(["cause", "attempts", "counted"], rows), ""]
    for group in summary.causes:
        lines.append(f"### {group.label} ({len(group.attempts)})")
        lines += [f"- `{safe(a.path)}`: {safe(a.detail)}" for a in group.attempts]
        lines.append("")
    return lines


def failed_section(records: Sequence[AttemptRecord]) -> list[str]:
    failed = [r for r in records if r.result in ("failed", "error")]
    if not failed:
        return []
    lines = ["## Failed attempts", ""]
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
    return lines


def render_markdown(summary: RunSummary, records: Sequence[AttemptRecord]) -> str:
    """report.md: results with bars, scenario x arm, scenarios, determinism, causes, failures."""
    lines = [
        f"# proctor run {summary.label}",
        "",
        f"{f.when(summary.started_at)} · {len(records)} attempt(s) · "
        f"{summary.finished_at - summary.started_at:.1f} s",
        "",
    ]
    lines += results_section(summary)
    lines += grid_section(summary)
    lines += ["## Scenarios", "", *scenario_section(summary), "", counts_line(summary), ""]
    lines += determinism_section(summary)
    lines += causes_section(summary)
    lines += failed_section(records)
    return "\n".join(lines).rstrip("\n") + "\n"


def _diverged(step: int, event: str | None) -> str:
    """The step where repeats parted, placed after the timeline event before it, if any."""
    return f"{step} (after {event})" if event else str(step)
