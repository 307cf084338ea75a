"""proctor list: the scenarios, with tier, category, status and title."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from proctor.cli._common import ScenariosOpt, TierOpt, catalog


def list_scenarios(tier: TierOpt = None, scenarios: ScenariosOpt = None) -> None:
    """List scenarios: id, tier, category, status and title."""
    picked = catalog(scenarios).select(tiers=tier or [])
    table = Table(show_edge=False)
    for column in ("id", "tier", "category", "status", "title"):
        table.add_column(column)
    for loaded in picked:
        s = loaded.scenario
        table.add_row(s.id, s.tier, s.category, s.status, s.title)
    console = Console()
    console.print(table)
    console.print(f"{len(picked)} scenario(s)")
