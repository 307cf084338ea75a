"""The gate job: the canary, both sides in one run, top-ups and the verdict.

A module of its own so that only commands that gate load the statistics (scipy).
"""

from proctor.runner._gate import (
    EXIT_CODES,
    VERDICT_FILE,
    GateJob,
    GateOutcome,
    GateVerdictFile,
    planned_power,
    run_gate,
    write_verdict,
)
from proctor.runner._refs import Worktree, ref_side, resolve_ref, worktrees
from proctor.runner._sides import ArmSide, RunSide, SideSpec, resolve_side
from proctor.vocab import SideRole as Role

__all__ = [
    "EXIT_CODES",
    "VERDICT_FILE",
    "ArmSide",
    "GateJob",
    "GateOutcome",
    "GateVerdictFile",
    "Role",
    "RunSide",
    "SideSpec",
    "Worktree",
    "planned_power",
    "ref_side",
    "resolve_ref",
    "resolve_side",
    "run_gate",
    "worktrees",
    "write_verdict",
]
