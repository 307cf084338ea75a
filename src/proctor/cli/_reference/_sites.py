"""sites.md: every site's and app's sign-in details, fixed codes and test data, and its
seed defaults."""

from __future__ import annotations

import json

from pydantic_core import to_jsonable_python

from proctor.cli._reference._tables import (
    cell,
    models_in,
    page,
)
from proctor.scenario import (
    Apps,
    load_catalog,
)
from proctor.world import DataTable, all_sites, site_data


def table_lines(table: DataTable) -> list[str]:
    """A site data table as markdown: its title, note and rows."""
    lines = [f"**{table.title}.** {table.note}", ""]
    lines.append("| " + " | ".join(table.columns) + " |")
    lines.append("|" + "---|" * len(table.columns))
    lines += ["| " + " | ".join(cell(v) or "–" for v in row) + " |" for row in table.rows]
    return [*lines, ""]


def seed_defaults(name: str) -> list[str]:
    """The default seed of a site that takes one (``world.apps.NAME``), as JSON."""
    seed = Apps.model_fields.get(name)
    if seed is None:
        return []
    models = models_in(seed.annotation)
    if not models:
        return []
    value = to_jsonable_python(models[0](), by_alias=True)
    if not any(v not in (None, [], {}, "", False) for v in value.values()):
        return []
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True)
    return [
        f"**Seed defaults** (`world.apps.{name}`, {models[0].__name__}): what the site holds "
        "when the scenario does not seed it.",
        "",
        "```json",
        text,
        "```",
        "",
    ]


def desktop_apps() -> list[str]:
    """The desktop apps the shipped scenarios launch, with their commands."""
    rows: dict[tuple[str, str], list[str]] = {}
    for loaded in load_catalog().scenarios.values():
        desktop = loaded.scenario.world.desktop
        if desktop is None:
            continue
        for launched in desktop.apps:
            key = (launched.name, " ".join(launched.command[:1]))
            rows.setdefault(key, []).append(loaded.scenario.id)
    lines = [
        "## Desktop apps",
        "",
        "The desktop tier drives real programs; none has an account. Each starts in a fresh "
        "HOME under the attempt's scratch folder. The apps the shipped scenarios launch:",
        "",
        "| name | program | scenarios |",
        "|---|---|---|",
    ]
    for (name, program), ids in sorted(rows.items()):
        lines.append(f"| `{name}` | `{program}` | {', '.join(sorted(set(ids)))} |")
    return [*lines, ""]


def sites_page() -> str:
    """Every site: host, sign-in details, fixed codes, test data and seed defaults."""
    sites = all_sites()
    data = site_data()
    unknown = sorted(set(data) - set(sites))
    if unknown:
        raise LookupError(f"site data names sites that do not exist: {', '.join(unknown)}")
    body = ["## Contents", ""]
    body += [f"- [{name}](#{name})" for name in sorted(sites)]
    body += ["- [Desktop apps](#desktop-apps)", ""]
    for name in sorted(sites):
        site = sites[name]
        body += [f"## {name}", "", f"Host: `{site.host}` (`{{site.{name}}}` in a scenario). "
                 f"Pages, forms and snapshot: [world.md](../world.md#{name}).", ""]  # fmt: skip
        tables = data.get(name, [])
        for table in tables:
            body += table_lines(table)
        defaults = seed_defaults(name)
        body += defaults
        if not tables and not defaults:
            body += ["No accounts, codes or test data beyond what its pages show.", ""]
    body += desktop_apps()
    intro = (
        "What a scenario author needs to know about each fixture site and app: the accounts "
        "and passwords its sign-in accepts, its fixed codes, and its test data (cards, "
        "catalogs, accounts). Everything here is synthetic. Codes drawn from `world.seed` "
        "differ per scenario seed but are the same on every run of one scenario. What the "
        "pages, forms and snapshots are is in [world.md](../world.md)."
    )
    return page("Sites: accounts, codes and test data", intro, body)
