"""report.html: one self-contained file (inline CSS, JS, SVG and screenshots) that works offline."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from proctor.records import AttemptRecord, CheckResult, RunSummary
from proctor.report import _format as f
from proctor.report._causes import cause_label, cause_of
from proctor.report._markdown import counts_line, k_range
from proctor.report._plots import cost_vs_success, success_by_arm, time_distributions

TEMPLATES = Path(__file__).resolve().parent / "templates"
JSON_LIMIT = 4000
SHOTS = ("before", "after")


def anchor(attempt_id: str) -> str:
    """An HTML id for an attempt: ``a-`` and the id with unsafe characters as '-'."""
    return "a-" + re.sub(r"[^A-Za-z0-9_-]", "--", attempt_id)


def pretty(value: Any, limit: int = JSON_LIMIT) -> str:
    """A value as JSON, indented when long (strings as they are), cut at ``limit`` characters."""
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
        if len(text) > 80:
            text = json.dumps(value, indent=1, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text) - limit} more characters)"


@dataclass(frozen=True)
class CheckView:
    """A check flattened for the table, with its depth under all/any."""

    check: CheckResult
    depth: int


def flatten(checks: Sequence[CheckResult], depth: int = 0) -> list[CheckView]:
    out = []
    for check in checks:
        out.append(CheckView(check, depth))
        out += flatten(check.children, depth + 1)
    return out


def screenshot(folder: Path, name: str) -> str | None:
    """A PNG in the attempt folder as a data URI, or None when it was not taken."""
    path = folder / f"{name}.png"
    if not path.is_file():
        return None
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


@dataclass(frozen=True)
class AttemptView:
    record: AttemptRecord
    anchor: str
    cause: str
    checks: list[CheckView]
    shots: dict[str, str]


def attempt_views(records: Sequence[AttemptRecord], run_dir: Path) -> list[AttemptView]:
    views = []
    for record in records:
        found = cause_of(record)
        cause = ""
        if found is not None:
            cause = cause_label(found.cause, found.guard)
        folder = run_dir / "attempts" / record.id
        shots = {name: uri for name in SHOTS if (uri := screenshot(folder, name)) is not None}
        views.append(AttemptView(record, anchor(record.id), cause, flatten(record.checks), shots))
    return views


def grid(summary: RunSummary, records: Sequence[AttemptRecord]) -> dict[str, Any]:
    """Scenario x arm cells, each linking to the group's first attempt."""
    columns = list(dict.fromkeys(f.row_name(r) for r in summary.rows))
    first: dict[tuple[str, str], str] = {}
    for record in sorted(records, key=lambda r: r.repeat):
        name = " · ".join(p for p in (record.arm, record.model, record.mode) if p)
        first.setdefault((record.scenario, name), anchor(record.id))
    cells: dict[str, dict[str, dict[str, str]]] = {}
    for row in summary.rows:
        name = f.row_name(row)
        cells.setdefault(row.scenario, {})[name] = {
            "text": f.verdict(row),
            "result": row.result,
            "href": "#" + first.get((row.scenario, name), ""),
        }
    return {"columns": columns, "cells": cells}


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pretty"] = pretty
    env.globals["f"] = f
    return env


def render_html(summary: RunSummary, records: Sequence[AttemptRecord], run_dir: Path) -> str:
    """The whole report as one HTML document."""
    success_bar = next((b for m in summary.metrics for b in m.bars if b.metric == "success"), None)
    cost_bar = next((b for m in summary.metrics for b in m.bars if b.metric == "cost_usd"), None)
    # The SVG is built from escaped parts, so it is marked safe as a whole.
    plots = {
        "success": Markup(
            success_by_arm(summary.metrics, success_bar.target if success_bar else None)
        ),
        "cost": Markup(cost_vs_success(summary.metrics, cost_bar.target if cost_bar else None)),
        "time": Markup(time_distributions(records)),
    }
    template = _environment().get_template("report.html.j2")
    return template.render(
        summary=summary,
        counts=counts_line(summary),
        ks=k_range(summary),
        bars=summary.metrics[0].bars if summary.metrics else [],
        plots=plots,
        grid=grid(summary, records),
        attempts=attempt_views(records, run_dir),
        anchor=anchor,
    )
