"""The runner: plan, attempt lifecycle, limits, infra-fault retries, verify."""

from proctor.runner._attempt import attempt_folder, run_attempt
from proctor.runner._plan import Arm, PlanItem, make_plan, parse_arm
from proctor.runner._run import (
    RunResult,
    config_of,
    execute,
    new_run_dir,
    note_seal,
    run_info,
    write_run_info,
)
from proctor.runner._verify import Verdict, judge, verify, verify_in, verify_items
from proctor.runner._worker import RunOptions, SealState, Worker

__all__ = [
    "Arm",
    "PlanItem",
    "RunOptions",
    "RunResult",
    "SealState",
    "Verdict",
    "Worker",
    "attempt_folder",
    "config_of",
    "execute",
    "judge",
    "make_plan",
    "new_run_dir",
    "note_seal",
    "parse_arm",
    "run_attempt",
    "run_info",
    "verify",
    "verify_in",
    "verify_items",
    "write_run_info",
]
