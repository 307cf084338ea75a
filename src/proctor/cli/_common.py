"""Options and helpers shared by commands."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from proctor._text import json_text, markup
from proctor.scenario import Catalog, load_catalog
from proctor.world import all_sites

ScenariosOpt = Annotated[
    list[Path] | None,
    typer.Option("--scenarios", help="Extra scenario folder or file (repeatable)."),
]
TierOpt = Annotated[list[str] | None, typer.Option("--tier", help="Only this tier (repeatable).")]
OnlyOpt = Annotated[
    str | None,
    typer.Option(
        "--only", "--scenario", help="Only these scenario ids, comma-separated (alias --scenario)."
    ),
]
CapabilityOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--capability",
        help="Only scenarios whose capabilities list NAME (repeatable: all must be listed).",
    ),
]
ResultsOpt = Annotated[Path, typer.Option("--results", help="Results folder.")]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print JSON for scripts (shape: docs/results.md).")
]


def shown(path: Path | str) -> str:
    """A path as a person reads it: relative to the working folder when inside it.

    Runs keep absolute paths (``results`` is resolved once, at start); the terminal
    shows ``results/<label>/...`` as the user typed it.
    """
    given = Path(path)
    try:
        return str(given.relative_to(Path.cwd()))
    except ValueError:
        return str(given)


def print_notes(notes: tuple[str, ...], out: Console) -> None:
    """What a run went past (a spend ledger line a kill cut short), one yellow line each."""
    for note in notes:
        out.print(f"[yellow]note:[/] {markup(note)}", highlight=False, soft_wrap=True)


def emit_json(value: object) -> None:
    """One JSON document on stdout, for scripts: never wrapped, cut or styled."""
    sys.stdout.write(json_text(value, indent=2) + "\n")
    sys.stdout.flush()


def print_whole(out: Console, table: Table) -> None:
    """Print ``table`` at least as wide as its whole columns need: a narrow terminal or a
    pipe gets long lines, never a cut id."""
    need = Measurement.get(out, out.options.update_width(10_000), table).minimum
    if need > out.width:
        out.width = need
    out.print(table)


def add_whole_column(table: Table, name: str, values: list[str]) -> None:
    """A column that never cuts or wraps its values (ids, labels), whatever the width:
    the other columns wrap instead."""
    table.add_column(name, no_wrap=True, min_width=max((len(v) for v in values), default=1))


def catalog(scenarios: list[Path] | None, *, shipped: bool = True) -> Catalog:
    return load_catalog(scenarios or [], sites=set(all_sites()), shipped=shipped)


def split_only(only: str | None) -> list[str]:
    return [s.strip() for s in (only or "").split(",") if s.strip()]
