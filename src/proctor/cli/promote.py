"""proctor promote: update gate.json from a proving run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from proctor._text import console as safe_console
from proctor.cli._common import ResultsOpt, ScenariosOpt
from proctor.cli.gate import GateOpt, catalog_for
from proctor.report import load_run


def promote_run(
    label: Annotated[str, typer.Argument(help="The proving run's label.")],
    gate_file: GateOpt = Path("gate.json"),
    arm: Annotated[
        str | None,
        typer.Option("--arm", help="Only this arm's attempts prove anything (default: all)."),
    ] = None,
    results: ResultsOpt = Path("results"),
    scenarios: ScenariosOpt = None,
) -> None:
    """Promote, demote and invalidate gate scenarios from the run LABEL.

    A calibrated (scored) regression scenario that passed every attempt, with at
    least five repeats, joins the gate. A gate scenario that failed in the run
    leaves it. One whose file changed since it was proven leaves it until a
    proving run promotes it again. gate.json is rewritten atomically.
    """
    from proctor.compare import MIN_PROVING_REPEATS, ScenarioInfo, load_gate, promote, save_gate

    run = load_run(results, label)
    gate = load_gate(gate_file)
    cat = catalog_for(scenarios, {r.scenario for r in run.records} | set(gate.hashes()))
    current = {sid: ScenarioInfo.of(loaded) for sid, loaded in cat.scenarios.items()}
    change = promote(
        gate,
        run.records,
        current,
        label,
        arm=arm,
        min_repeats=MIN_PROVING_REPEATS,
    )
    save_gate(gate_file, change.gate)
    console = safe_console(highlight=False, soft_wrap=True)
    console.print(change.text(), markup=False)
    console.print(f"wrote {gate_file}", markup=False)
