"""Options and helpers shared by commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from proctor.scenario import Catalog, load_catalog
from proctor.world import all_sites

ScenariosOpt = Annotated[
    list[Path] | None,
    typer.Option("--scenarios", help="Extra scenario folder or file (repeatable)."),
]
TierOpt = Annotated[list[str] | None, typer.Option("--tier", help="Only this tier (repeatable).")]
OnlyOpt = Annotated[
    str | None, typer.Option("--only", help="Only these scenario ids, comma-separated.")
]
ResultsOpt = Annotated[Path, typer.Option("--results", help="Results folder.")]


def catalog(scenarios: list[Path] | None, *, shipped: bool = True) -> Catalog:
    return load_catalog(scenarios or [], sites=set(all_sites()), shipped=shipped)


def split_only(only: str | None) -> list[str]:
    return [s.strip() for s in (only or "").split(",") if s.strip()]
