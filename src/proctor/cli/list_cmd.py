"""proctor list: the scenarios, with tier, category, status and title."""

from __future__ import annotations

from rich.table import Table

from proctor._text import console, markup
from proctor.cli._common import (
    CapabilityOpt,
    JsonOpt,
    ScenariosOpt,
    TierOpt,
    add_whole_column,
    catalog,
    emit_json,
    print_whole,
)


def list_scenarios(
    tier: TierOpt = None,
    capability: CapabilityOpt = None,
    scenarios: ScenariosOpt = None,
    json: JsonOpt = False,
) -> None:
    """List scenarios: id, tier, category, status and title.

    ``--json`` prints ``{"scenarios": [{"id", "tier", "category", "status", "title",
    "capabilities", "path"}], "count": N}``.
    """
    picked = catalog(scenarios).select(tiers=tier or [], capabilities=capability or [])
    if json:
        rows = [
            {
                "id": s.scenario.id,
                "tier": s.scenario.tier,
                "category": s.scenario.category,
                "status": s.scenario.status,
                "title": s.scenario.title,
                "capabilities": s.scenario.capabilities,
                "path": str(s.path),
            }
            for s in picked
        ]
        emit_json({"scenarios": rows, "count": len(rows)})
        return
    table = Table(show_edge=False)
    ids = [loaded.scenario.id for loaded in picked]
    add_whole_column(table, "id", ids)
    for column in ("tier", "category", "status", "title"):
        table.add_column(column)
    for loaded in picked:
        s = loaded.scenario
        # A title is the scenario author's text: shown, never obeyed as markup or escapes.
        table.add_row(*(markup(v) for v in (s.id, s.tier, s.category, s.status, s.title)))
    out = console()
    print_whole(out, table)
    out.print(f"{len(picked)} scenario(s)")
