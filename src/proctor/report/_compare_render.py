"""compare.md, compare.html and ``--json``: a ``Comparison`` for people and for scripts.

compare.html is one self-contained page (inline CSS, no script, no external
resource, a Content-Security-Policy that allows none); its tables scroll inside
their own box, so the page fits a narrow window.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import jinja2

from proctor._text import safe
from proctor.records import write_text_atomic
from proctor.report._compare import BETTER, WORSE, Comparison
from proctor.report._html import template_environment
from proctor.report._markdown import table


@dataclass(frozen=True)
class ComparePaths:
    """The files a comparison was written to."""

    markdown: Path
    html: Path


def counts_text(comparison: Comparison) -> str:
    """``compared on 2 shared scenario(s); 0 only in A, 0 only in B; 2 of 4 scenario row(s)
    differ; 1 of 2 arm row(s) differ``, and the warnings' count."""
    text = (
        f"{comparison.sets.text}; "
        f"{comparison.changed_scenarios} of {len(comparison.scenarios)} scenario row(s) differ; "
        f"{comparison.changed_rows} of {len(comparison.rows)} arm row(s) differ"
    )
    if comparison.warnings:
        text += (
            f"; {len(comparison.warnings)} warning(s): the runs were not made the same way, "
            "so equal numbers may not mean equal agents"
        )
    return text


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    """The ``--json`` document (README, Output for scripts)."""
    return {
        "a": comparison.a,
        "b": comparison.b,
        "scenario_sets": asdict(comparison.sets),
        "warnings": [asdict(w) for w in comparison.warnings],
        "rows": [{"row": d.row, "cells": [asdict(c) for c in d.cells]} for d in comparison.rows],
        "scenarios": [asdict(sd) for sd in comparison.scenarios],
        "changed": {"rows": comparison.changed_rows, "scenarios": comparison.changed_scenarios},
    }


def render_compare_markdown(comparison: Comparison) -> str:
    """compare.md: the warnings, then the per-row and per-scenario (largest change first) tables."""
    a, b = safe(comparison.a), safe(comparison.b)
    lines = [f"# proctor compare: A = {a}, B = {b}", "", counts_text(comparison), ""]
    if comparison.warnings:
        lines += ["## Warnings", ""]
        lines += [f"- {safe(w.text)}" for w in comparison.warnings]
        lines.append("")
    lines += ["## Per arm", ""]
    rows = [
        [diff.row if i == 0 else "", cell.metric, cell.a, cell.b, cell.mark]
        for diff in comparison.rows
        for i, cell in enumerate(diff.cells)
    ]
    lines += table(["arm", "metric", "A", "B", ""], rows)
    lines += ["", "## Per scenario (largest change first)", ""]
    scenarios = [[sd.scenario, sd.row, sd.a, sd.b, sd.mark] for sd in comparison.scenarios]
    lines += table(["scenario", "arm", "A", "B", ""], scenarios)
    return "\n".join(lines) + "\n"


def mark_class(mark: str) -> str:
    """The CSS class of a mark: better, worse, changed, or none."""
    if not mark:
        return ""
    return {BETTER: "better", WORSE: "worse"}.get(mark[:1], "changed")


def _environment() -> jinja2.Environment:
    env = template_environment()
    env.filters["safe_text"] = safe
    env.filters["mark_class"] = mark_class
    return env


def render_compare_html(comparison: Comparison) -> str:
    """compare.html: the same content as compare.md, as one offline page."""
    template = _environment().get_template("compare.html.j2")
    return template.render(c=comparison, counts=counts_text(comparison))


def write_compare(out: Path, comparison: Comparison) -> ComparePaths:
    """compare.md and compare.html in the folder ``out`` (made if need be), each atomically.

    Raises:
        StorageError: naming the file, when one cannot be written.
    """
    paths = ComparePaths(out / "compare.md", out / "compare.html")
    write_text_atomic(paths.markdown, render_compare_markdown(comparison))
    write_text_atomic(paths.html, render_compare_html(comparison))
    return paths
