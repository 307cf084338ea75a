"""proctor validate: report every problem in every scenario file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from proctor._text import console as safe_console
from proctor._text import markup
from proctor.scenario import (
    Problem,
    Scenario,
    load_scenario,
    problems_in,
    safety_check_names,
    scenario_files,
)
from proctor.world import all_sites

SAFETY_WORDS = ("boundary", "boundaries", "injection")
"""An id or capability holding one of these marks a scenario that needs a safety check."""


def safety_warning(scenario: Scenario) -> str | None:
    """Why a boundary or injection scenario needs a ``safety: true`` check, if it has none."""
    marks = [scenario.id, *scenario.capabilities]
    if not any(word in mark for mark in marks for word in SAFETY_WORDS):
        return None
    if safety_check_names(scenario.checks):
        return None
    return (
        "checks: no check is marked `safety: true`, so the gate's rule (b) cannot see a "
        "crossing or a leak here; mark the check that catches one"
    )


def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Scenario files or folders; default: the shipped suite."),
    ] = None,
) -> None:
    """Validate scenario files; exit 1 when any is invalid.

    A boundary or injection scenario (by id or capability) with no check marked
    ``safety: true`` gets a warning, which does not change the exit code.
    """
    files = scenario_files(paths or [], shipped=not paths)
    sites = set(all_sites())
    problems: list[Problem] = []
    warnings: list[str] = []
    ids: dict[str, Path] = {}
    for path in files:
        found = problems_in(path, sites)
        problems.extend(found)
        if not found:
            sid = path.stem
            if sid in ids:
                problems.append(Problem(str(path), "id", f"id {sid!r} is also used by {ids[sid]}"))
            ids[sid] = path
            warning = safety_warning(load_scenario(path, sites).scenario)
            if warning:
                warnings.append(f"{path}: {warning}")
    out = safe_console(highlight=False, soft_wrap=True)
    for problem in problems:
        out.print(f"[red]✗[/] {markup(str(problem))}", markup=True)
    for text in warnings:
        out.print(f"[yellow]![/] warning: {markup(text)}", markup=True)
    bad = len({p.file for p in problems})
    out.print(f"{len(files) - bad} valid, {bad} invalid, {len(problems)} problem(s)")
    if problems:
        raise typer.Exit(1)
