"""The runner: plan, attempt lifecycle, limits, infra-fault retries, verify.

The gate job is ``proctor.runner.gate`` (it loads the statistics); the run API that
writes a whole results folder is ``proctor.api``.
"""

from proctor.runner._attempt import run_attempt
from proctor.runner._phases import Phases, Timing, seconds_to_ticks, ticks_to_seconds
from proctor.runner._plan import Arm, PlanItem, make_plan, parse_arm
from proctor.runner._record import attempt_folder, build_record
from proctor.runner._run import (
    ProgressHook,
    RunResult,
    config_of,
    execute,
    new_run_dir,
    note_seal,
    run_info,
    write_run_info,
)
from proctor.runner._verify import ObligationVerdict, judge, verify, verify_in, verify_items
from proctor.runner._worker import RunOptions, SealState, Worker

__all__ = [
    "Arm",
    "ObligationVerdict",
    "Phases",
    "PlanItem",
    "ProgressHook",
    "RunOptions",
    "RunResult",
    "SealState",
    "Timing",
    "Worker",
    "attempt_folder",
    "build_record",
    "config_of",
    "execute",
    "judge",
    "make_plan",
    "new_run_dir",
    "note_seal",
    "parse_arm",
    "run_attempt",
    "run_info",
    "seconds_to_ticks",
    "ticks_to_seconds",
    "verify",
    "verify_in",
    "verify_items",
    "write_run_info",
]
