"""The API: ``run``, ``gate`` and ``models`` do the work of the commands of those names.

Each is two steps a command renders between: ``Run.open`` / ``Gate.open`` /
``Models.open`` plan (and, but for a gate, make the run folder), ``execute`` runs.
``RunSettings`` is the one keyword list the three share. Modules: ``_run`` (the run),
``_gate``, ``_models``, ``_settings``, ``_arms`` (arms, judge, persona, what cannot run
here), ``_folder`` (``results/<label>/`` on disk), ``_clock`` and ``_exit`` (exit codes).
"""

from proctor.api._arms import Preflight, Skipped, preflight
from proctor.api._clock import CLOCK_ENV, run_clock
from proctor.api._exit import EXIT_FAILED, EXIT_UNSCORED, SCORED_TIERS, exit_code, scored_tiers
from proctor.api._folder import Reports, RunFolder
from proctor.api._gate import (
    LOCAL_GATE,
    SHIPPED_GATE,
    Gate,
    GateResult,
    GateSpec,
    catalog_for,
    gate,
    resolve_gate,
)
from proctor.api._models import Models, ModelsOutcome, arm_names, models
from proctor.api._run import Run, RunOutcome, peer_facts, run, select_scenarios
from proctor.api._settings import RunSettings

__all__ = [
    "CLOCK_ENV",
    "EXIT_FAILED",
    "EXIT_UNSCORED",
    "LOCAL_GATE",
    "SCORED_TIERS",
    "SHIPPED_GATE",
    "Gate",
    "GateResult",
    "GateSpec",
    "Models",
    "ModelsOutcome",
    "Preflight",
    "Reports",
    "Run",
    "RunFolder",
    "RunOutcome",
    "RunSettings",
    "Skipped",
    "arm_names",
    "catalog_for",
    "exit_code",
    "gate",
    "models",
    "peer_facts",
    "preflight",
    "resolve_gate",
    "run",
    "run_clock",
    "scored_tiers",
    "select_scenarios",
]
