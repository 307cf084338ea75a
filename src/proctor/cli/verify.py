"""proctor verify: prove every scenario's oracle passes, decoys fail, and null fails."""

from __future__ import annotations

import asyncio

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from proctor._text import safe
from proctor.cli._common import (
    CapabilityOpt,
    JsonOpt,
    OnlyOpt,
    ScenariosOpt,
    TierOpt,
    catalog,
    emit_json,
    split_only,
)
from proctor.errors import RunError
from proctor.runner import ObligationVerdict, live_skip
from proctor.runner import verify as run_verify


def obligation_json(v: ObligationVerdict) -> dict[str, object]:
    """One obligation as ``verify --json`` prints it."""
    return {
        "scenario": v.scenario,
        "role": v.role,
        "label": v.label,
        "expected": v.expected,
        "actual": v.actual,
        "ok": v.ok,
        "why": list(v.why),
    }


def verify(
    tier: TierOpt = None,
    only: OnlyOpt = None,
    capability: CapabilityOpt = None,
    scenarios: ScenariosOpt = None,
    json: JsonOpt = False,
) -> None:
    """Run each scenario's oracle, decoys and the null agent; exit 1 on any violation.

    A live scenario whose hosts the connectivity probe cannot reach (offline) is
    skipped with the reason, not run: skips alone exit 0.

    ``--json`` prints ``{"obligations": [{"scenario", "role", "label", "expected",
    "actual", "ok", "why"}], "count": N, "held": N, "violated": N, "skipped":
    [{"scenario", "why"}]}`` and nothing else on stdout; the exit code is the same.
    """
    picked = catalog(scenarios).select(
        tiers=tier or [], only=split_only(only), capabilities=capability or []
    )
    if not picked:
        raise RunError("no scenario matches --tier/--only/--capability; `proctor list` shows them")
    held = {s.scenario.id: why for s in picked if (why := live_skip(s.scenario))}
    picked = [s for s in picked if s.scenario.id not in held]
    if json:
        found = asyncio.run(run_verify(picked)) if picked else []
        violated = sum(not v.ok for v in found)
        emit_json(
            {
                "obligations": [obligation_json(v) for v in found],
                "count": len(found),
                "held": len(found) - violated,
                "violated": violated,
                "skipped": [{"scenario": sid, "why": why} for sid, why in held.items()],
            }
        )
        if violated:
            raise typer.Exit(1)
        return
    console = Console(highlight=False)
    for sid, why in held.items():
        console.print(f"[yellow]skipped[/] {escape(safe(sid))}: {escape(safe(why))}")
    if not picked:
        console.print(f"0 obligations run, {len(held)} scenario(s) skipped")
        return

    def show(v: ObligationVerdict) -> None:
        mark = "[green]ok[/]" if v.ok else "[red]VIOLATION[/]"
        console.print(
            f"{mark} {escape(safe(v.scenario))} {escape(safe(v.label))}: expected "
            f"{escape(safe(v.expected))}, {escape(safe(v.actual))}"
        )
        for line in v.why:
            console.print(f"    {escape(safe(line))}")

    verdicts = asyncio.run(run_verify(picked, on_verdict=show))
    table = Table(title="proctor verify", title_justify="left")
    for column in ("scenario", "oracle", "decoys", "null"):
        table.add_column(column)
    by_scenario: dict[str, list[ObligationVerdict]] = {}
    for v in verdicts:
        by_scenario.setdefault(v.scenario, []).append(v)
    for sid, vs in by_scenario.items():
        oracle = next(v for v in vs if v.role == "oracle")
        null = next(v for v in vs if v.role == "null")
        decoys = [v for v in vs if v.role == "decoy"]
        table.add_row(
            sid,
            "[green]passes[/]" if oracle.ok else f"[red]{escape(safe(oracle.actual))}[/]",
            f"{sum(d.ok for d in decoys)}/{len(decoys)} fail as named",
            "[green]fails[/]" if null.ok else "[red]passes[/]",
        )
    console.print(table)
    bad = [v for v in verdicts if not v.ok]
    console.print(f"{len(verdicts) - len(bad)} obligations held, {len(bad)} violated")
    if bad:
        raise typer.Exit(1)
