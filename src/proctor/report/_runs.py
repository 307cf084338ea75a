"""The runs under a results folder: label, date, arms and headline numbers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proctor.errors import ProctorError
from proctor.report._format import bars_met, pct, row_name
from proctor.report._load import labels, load_summary


@dataclass(frozen=True)
class RunListing:
    """One run, as `proctor runs` shows it."""

    label: str
    started_at: float | None
    arms: list[str]
    scenarios: int
    counts: str
    headline: list[str] = field(default_factory=list)
    note: str = ""


def _history(results: Path) -> dict[str, dict[str, Any]]:
    """The last history.jsonl line of each label; unreadable lines are skipped."""
    path = results / "history.jsonl"
    found: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return found
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict) and isinstance(row.get("label"), str):
            found[row["label"]] = row
    return found


def _counts(passed: int, failed: int, skipped: int, errors: int) -> str:
    text = f"{passed} passed, {failed} failed"
    if skipped:
        text += f", {skipped} skipped"
    if errors:
        text += f", {errors} infra"
    return text


def _from_history(label: str, row: dict[str, Any], note: str) -> RunListing:
    headline = []
    for m in row.get("rows", []):
        name = " · ".join(p for p in (m.get("arm"), m.get("model"), m.get("mode")) if p)
        headline.append(f"{name} {pct(m.get('success'))}")
    return RunListing(
        label=label,
        started_at=row.get("started_at"),
        arms=list(row.get("arms", [])),
        scenarios=int(row.get("scenarios", 0)),
        counts=_counts(
            row.get("passed", 0), row.get("failed", 0), row.get("skipped", 0), row.get("errors", 0)
        ),
        headline=headline,
        note=note,
    )


def list_runs(results: Path) -> list[RunListing]:
    """Every run under ``results``, oldest first, from summary.json, else history.jsonl."""
    history = _history(results)
    listings = []
    for label in sorted({*labels(results), *history}):
        summary = None
        if (results / label).is_dir():
            try:
                summary = load_summary(results / label)
            except ProctorError:
                summary = None
        if summary is not None:
            headline = []
            for m in summary.metrics:
                text = f"{row_name(m)} {pct(m.success)}"
                if m.pass_k and max(m.pass_k) > 1:
                    k = max(m.pass_k)
                    text += f" pass^{k} {pct(m.pass_k[k])}"
                if m.bars:
                    text += f" bars {bars_met(m)}"
                headline.append(text)
            listings.append(
                RunListing(
                    label=label,
                    started_at=summary.started_at,
                    arms=sorted({row_name(r) for r in summary.rows}),
                    scenarios=len({r.scenario for r in summary.rows}),
                    counts=_counts(summary.passed, summary.failed, summary.skipped, summary.errors),
                    headline=headline,
                )
            )
        elif label in history:
            note = "" if (results / label).is_dir() else "folder missing"
            listings.append(_from_history(label, history[label], note))
        else:
            listings.append(
                RunListing(label, None, [], 0, "no summary", note="unfinished: `proctor report`")
            )
    listings.sort(key=lambda r: (r.started_at or 0.0, r.label))
    return listings
