"""proctor validate: report every problem in every scenario file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from proctor.scenario import Problem, problems_in, scenario_files
from proctor.world import all_sites


def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Scenario files or folders; default: the shipped suite."),
    ] = None,
) -> None:
    """Validate scenario files; exit 1 when any is invalid."""
    files = scenario_files(paths or [], shipped=not paths)
    sites = set(all_sites())
    problems: list[Problem] = []
    ids: dict[str, Path] = {}
    for path in files:
        found = problems_in(path, sites)
        problems.extend(found)
        if not found:
            sid = path.stem
            if sid in ids:
                problems.append(Problem(str(path), "id", f"id {sid!r} is also used by {ids[sid]}"))
            ids[sid] = path
    out = Console(highlight=False, soft_wrap=True)
    for problem in problems:
        out.print(f"[red]✗[/] {escape(str(problem))}", markup=True)
    bad = len({p.file for p in problems})
    out.print(f"{len(files) - bad} valid, {bad} invalid, {len(problems)} problem(s)")
    if problems:
        raise typer.Exit(1)
