"""report.html: one self-contained file (inline CSS, JS, SVG, screenshot thumbnails) that works
offline; each thumbnail links its full PNG in the run folder (``_shots``)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, ValidationError

from proctor.errors import RunError
from proctor.records import AttemptRecord, CheckResult, RunSummary
from proctor.report import _format as f
from proctor.report._attempt_view import AttemptView, attempt_view
from proctor.report._markdown import counts_line, k_range
from proctor.report._plots import cost_vs_success, success_by_arm, time_distributions
from proctor.report._shots import Shot, shots

TEMPLATES = Path(__file__).resolve().parent / "templates"
JSON_LIMIT = 4000


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


@dataclass(frozen=True)
class HtmlAttempt:
    """One attempt's details: the shared view, plus its anchor, check rows and screenshots."""

    view: AttemptView
    anchor: str
    checks: list[CheckView]
    shots: list[Shot]

    @property
    def record(self) -> AttemptRecord:
        return self.view.record

    @property
    def cause(self) -> str:
        return self.view.cause


def attempt_views(records: Sequence[AttemptRecord], run_dir: Path) -> list[HtmlAttempt]:
    views = []
    for record in records:
        views.append(
            HtmlAttempt(
                attempt_view(record),
                anchor(record.id),
                flatten(record.checks),
                shots(run_dir, record.id),
            )
        )
    return views


VERDICT_FILE = "gate-verdict.json"
"""What ``proctor gate`` leaves in the run folder it made (``proctor.runner.gate``)."""
VERDICT_VERSION = 1


class _Loose(BaseModel):
    # Read what the block shows and ignore the rest, so a field the gate adds later
    # does not make an older report fail.
    model_config = ConfigDict(extra="ignore", frozen=True)


class GateFinding(_Loose):
    rule: str
    decision: str
    text: str


class GateScenario(_Loose):
    scenario: str
    base_passes: int
    base_n: int
    cand_passes: int
    cand_n: int
    p: float
    p_holm: float
    mcnemar_p: float

    @property
    def drop_points(self) -> float | None:
        if not self.base_n or not self.cand_n:
            return None
        return 100 * (self.base_passes / self.base_n - self.cand_passes / self.cand_n)


class GatePaired(_Loose):
    scenarios: int
    mean: float
    low: float | None = None
    high: float | None = None
    sign_flip_p: float
    pairs: int
    base_only: int
    cand_only: int
    mcnemar_p: float


class GatePower(_Loose):
    base_n: int
    cand_n: int
    scenarios: int
    alpha: float
    smallest_drop: float | None = None
    mde: float | None = None
    baseline_rate: float
    power: float
    attempts_needed: int | None = None


class GateClass(_Loose):
    name: str
    base_count: int
    base_n: int
    cand_count: int
    cand_n: int


class GateTopUp(_Loose):
    scenario: str
    attempts: int
    reason: str


class GateNumbers(_Loose):
    findings: list[GateFinding] = []
    also: list[GateFinding] = []
    scenarios: list[GateScenario] = []
    paired: GatePaired | None = None
    power: GatePower | None = None
    failure_classes: list[GateClass] = []
    notes: list[str] = []


class GateBlock(_Loose):
    """The parts of gate-verdict.json that report.html shows."""

    version: int
    decision: str
    rule: str
    underpowered: bool = False
    baseline: str
    candidate: str
    gate_file: str = ""
    topped_up: list[GateTopUp] = []
    text: str = ""
    verdict: GateNumbers

    @property
    def headline(self) -> str:
        """The printed verdict's decision line after the decision, e.g. "rule (a), a drop ...".

        The gate's own words for the rule; the rule code when the text has no such line.
        """
        for line in self.text.splitlines():
            head, sep, rest = line.partition(": ")
            if sep and head.split(" (")[0] == self.decision:
                return rest
        return f"rule {self.rule}"


def read_gate_verdict(run_dir: Path) -> GateBlock | None:
    """The run's gate-verdict.json, or None when the run was not made by ``proctor gate``.

    Raises:
        RunError: the file cannot be read, is not JSON, is newer than this
            proctor, or lacks what the block shows; the message names the path.
    """
    path = run_dir / VERDICT_FILE
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise RunError(f"cannot read {path}: {exc.strerror}; fix its permissions") from exc
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise RunError(
            f"{path} is not JSON; it is damaged: re-run `proctor gate`, or remove it "
            "to report the run without its verdict"
        ) from exc
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(version, int) and version > VERDICT_VERSION:
        raise RunError(
            f"{path} has version {version}, newer than this proctor's {VERDICT_VERSION}; "
            "upgrade proctor to report it"
        )
    try:
        return GateBlock.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(top)"
        raise RunError(
            f"{path}: {where}: {first['msg']}; it is damaged or foreign: re-run "
            "`proctor gate`, or remove it to report the run without its verdict"
        ) from exc


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


def template_environment() -> jinja2.Environment:
    """The report package's templates: autoescaped, strict about undefined names."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _environment() -> jinja2.Environment:
    env = template_environment()
    env.filters["pretty"] = pretty
    env.globals["f"] = f
    return env


def render_html(summary: RunSummary, records: Sequence[AttemptRecord], run_dir: Path) -> str:
    """The whole report as one HTML document; with the gate's verdict when the run has one.

    Raises:
        RunError: the run's gate-verdict.json is there but cannot be read.
    """
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
        gate=read_gate_verdict(run_dir),
        anchor=anchor,
    )
