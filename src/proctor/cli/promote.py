"""proctor promote: update gate.json from a proving run."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from proctor._text import console as safe_console
from proctor.api import LOCAL_GATE, catalog_for, resolve_gate
from proctor.cli._common import ResultsOpt, ScenariosOpt
from proctor.errors import RunError
from proctor.records import AttemptRecord
from proctor.report import load_run

PromoteGateOpt = Annotated[
    Path | None,
    typer.Option(
        "--gate",
        help="The gate file to update. Default: write ./gate.json, starting from its contents, "
        "or from the gate.json shipped with proctor when there is no ./gate.json (the "
        "installed package is never written).",
        show_default=False,
    ),
]


def proving_arm(records: Sequence[AttemptRecord], arm: str | None, label: str) -> str | None:
    """The arm whose attempts prove the run's scenarios; None means all, for a one-arm run.

    The harness canary's attempts are left out: they prove the harness, never a scenario.

    Raises:
        RunError: the run has several arms and ``arm`` is None (a failing null or
            candidate arm would demote every gate scenario), or ``arm`` is not one of them.
    """
    from proctor.compare import CANARY

    agents = {r.arm: r.agent for r in records if r.scenario != CANARY}
    listed = ", ".join(f"{name} ({agents[name]})" for name in sorted(agents)) or "none"
    if arm is None:
        if len(agents) > 1:
            raise RunError(
                f"run {label!r} has {len(agents)} arms: {listed}; pass --arm NAME naming "
                "the proving arm (the one expected to pass), so that another arm's failures "
                "demote nothing"
            )
        return None
    if arm not in agents:
        raise RunError(f"--arm {arm!r}: run {label!r} has no such arm; its arms: {listed}")
    return arm


def promote_run(
    label: Annotated[str, typer.Argument(help="The proving run's label.")],
    gate_file: PromoteGateOpt = None,
    arm: Annotated[
        str | None,
        typer.Option(
            "--arm",
            help="The proving arm: only its attempts prove anything. Required when the run "
            "has more than one arm.",
        ),
    ] = None,
    results: ResultsOpt = Path("results"),
    scenarios: ScenariosOpt = None,
) -> None:
    """Promote, demote and invalidate gate scenarios from the run LABEL.

    A calibrated (scored) regression scenario that passed every attempt, with at
    least five repeats, joins the gate. A gate scenario that failed in the run
    leaves it. One whose file changed since it was proven leaves it until a
    proving run promotes it again. A run with several arms needs --arm. Without
    --gate, ./gate.json is written (from the shipped gate.json when it does not
    exist yet); gate.json is rewritten atomically.
    """
    from proctor.compare import MIN_PROVING_REPEATS, ScenarioInfo, load_gate, promote, save_gate

    run = load_run(results, label)
    arm = proving_arm(run.records, arm, label)
    source, target = resolve_gate(gate_file), gate_file or LOCAL_GATE
    gate = load_gate(source)
    cat = catalog_for(scenarios or (), {r.scenario for r in run.records} | set(gate.hashes()))
    current = {sid: ScenarioInfo.of(loaded) for sid, loaded in cat.scenarios.items()}
    change = promote(
        gate,
        run.records,
        current,
        label,
        arm=arm,
        min_repeats=MIN_PROVING_REPEATS,
    )
    save_gate(target, change.gate)
    console = safe_console(highlight=False, soft_wrap=True)
    console.print(change.text(), markup=False)
    started = "" if source == target else f" (starting from {source})"
    console.print(f"wrote {target}{started}", markup=False)
