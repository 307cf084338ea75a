"""proctor list: the scenarios, with tier, category, status and title."""

from __future__ import annotations

from rich.table import Table

from proctor._text import console, markup
from proctor.cli._common import ScenariosOpt, TierOpt, catalog


def list_scenarios(tier: TierOpt = None, scenarios: ScenariosOpt = None) -> None:
    """List scenarios: id, tier, category, status and title."""
    picked = catalog(scenarios).select(tiers=tier or [])
    table = Table(show_edge=False)
    for column in ("id", "tier", "category", "status", "title"):
        table.add_column(column)
    for loaded in picked:
        s = loaded.scenario
        # A title is the scenario author's text: shown, never obeyed as markup or escapes.
        table.add_row(*(markup(v) for v in (s.id, s.tier, s.category, s.status, s.title)))
    out = console()
    out.print(table)
    out.print(f"{len(picked)} scenario(s)")
