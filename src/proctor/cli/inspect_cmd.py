"""proctor inspect: the observation an agent gets in a scenario, for writing its steps."""

from __future__ import annotations

import asyncio
import difflib
from typing import Annotated

import typer

from proctor._text import console, markup
from proctor.cli._common import JsonOpt, ScenariosOpt, catalog, emit_json
from proctor.errors import RunError
from proctor.runner import Inspection
from proctor.runner import inspect as run_inspect

ScenarioArg = Annotated[str, typer.Argument(metavar="SCENARIO", help="The scenario's id.")]
AtOpt = Annotated[
    int,
    typer.Option(
        "--at",
        metavar="N",
        help="Observe after the first N oracle steps (default 0: the start page).",
    ),
]
UrlOpt = Annotated[
    str | None,
    typer.Option(
        "--url",
        metavar="PATH",
        help="Then open this page of the world: a path on the start page's site (/orders), "
        "{site.NAME}/path, or an http URL of the world.",
    ),
]


def inspection_json(seen: Inspection) -> dict[str, object]:
    return {
        "scenario": seen.scenario,
        "surface": seen.surface,
        "steps": [
            {"index": s.index, "op": s.op, "status": s.status, "error": s.error} for s in seen.steps
        ],
        "stopped": seen.stopped,
        "observation": seen.observation,
    }


def inspect(
    scenario: ScenarioArg,
    at: AtOpt = 0,
    url: UrlOpt = None,
    scenarios: ScenariosOpt = None,
    json: JsonOpt = False,
) -> None:
    """Bring up a scenario's world, open its start page and print what an agent sees there.

    The observation is the agent's own: url, title, tabs and the aria snapshot with
    refs, roles and accessible names (a desktop scenario: its window's outline). With
    --at N it is printed after the first N oracle steps; with --url, for another page.
    Nothing is written. ``--json`` prints ``{"scenario", "surface", "steps",
    "stopped", "observation"}``.
    """
    found = catalog(scenarios).scenarios
    loaded = found.get(scenario)
    if loaded is None:
        near = difflib.get_close_matches(scenario, list(found), n=1)
        hint = f"; did you mean {near[0]}?" if near else "; `proctor list` shows the ids"
        raise RunError(f"no scenario {scenario!r}{hint}")
    seen = asyncio.run(run_inspect(loaded, at=at, url=url))
    if json:
        emit_json(inspection_json(seen))
    else:
        out = console(highlight=False, soft_wrap=True)
        for step in seen.steps:
            line = f"step {step.index}: {step.op} {step.status}"
            out.print(markup(line + (f": {step.error}" if step.error else "")))
        if seen.stopped:
            out.print(markup(f"stopped: {seen.stopped}"))
        out.print(markup(seen.observation, newlines=True))
    if seen.stopped:
        raise typer.Exit(1)
