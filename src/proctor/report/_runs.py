"""The runs under a results folder: label, date, arms and headline numbers.

A run whose driver is at work (``run_state``, as ``proctor tail`` reads it) is listed as
running, from its run.json: its stored summary, if a resume began after one, is not
what the run is now.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proctor.errors import ProctorError
from proctor.records import RunInfo
from proctor.report._format import bars_met, pct, row_name
from proctor.report._load import labels, load_info, load_summary
from proctor.report._tail import RECORD, run_state
from proctor.vocab import RunState


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
    state: RunState = "ended"
    """running: its driver is at work now; gone: its driver was killed mid-leg."""


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


def _state(run_dir: Path) -> RunState:
    try:
        return run_state(run_dir)
    except ProctorError:
        return "ended"  # a damaged run.json drives nothing; the listing says what it can


def _killed(label: str, config: dict[str, Any]) -> str:
    if config.get("command") == "gate":
        return "killed mid-run"
    return f"killed mid-run: `proctor run --label {label} --resume` finishes it"


def _from_info(label: str, run_dir: Path, state: RunState) -> RunListing:
    """A run without a summary to show (in progress, killed, or never reported), from its
    run.json's plan and the attempts recorded so far."""
    try:
        info: RunInfo | None = load_info(run_dir)
    except ProctorError:
        info = None
    config = info.config if info is not None else {}
    arms, scenarios, repeat = config.get("arms"), config.get("scenarios"), config.get("repeat")
    names = sorted(str(a).partition("=")[0] for a in arms) if isinstance(arms, list) else []
    count = len(scenarios) if isinstance(scenarios, list) else 0
    done = sum(1 for _ in (run_dir / "attempts").glob(f"*/*/{RECORD}"))
    # A gate's plan also holds its canary and top-ups: only the plain plan has a total.
    if config.get("command") != "gate" and isinstance(repeat, int) and names and count:
        counts = f"{done} of {count * len(names) * repeat} attempt(s) done"
    else:
        counts = f"{done} attempt(s) done"
    note = {
        "running": "running",
        "gone": _killed(label, config),
        "ended": "no summary: `proctor report` writes it",
    }[state]
    started = info.started_at if info is not None else None
    return RunListing(label, started, names, count, counts, note=note, state=state)


def list_runs(results: Path) -> list[RunListing]:
    """Every run under ``results``, oldest first: a run in progress from its run.json,
    the others from summary.json, else history.jsonl."""
    history = _history(results)
    listings = []
    for label in sorted({*labels(results), *history}):
        state = _state(results / label) if (results / label).is_dir() else "ended"
        if state == "running":
            listings.append(_from_info(label, results / label, state))
            continue
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
                    note="killed mid-run" if state == "gone" else "",
                    state=state,
                )
            )
        elif label in history:
            note = "" if (results / label).is_dir() else "folder missing"
            if state == "gone":
                note = "killed mid-run"
            listing = _from_history(label, history[label], note)
            listings.append(dataclasses.replace(listing, state=state))
        else:
            listings.append(_from_info(label, results / label, state))
    listings.sort(key=lambda r: (r.started_at or 0.0, r.label))
    return listings
