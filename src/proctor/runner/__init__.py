"""The runner: plan, attempt lifecycle, limits, infra-fault retries, verify.

The gate job is ``proctor.runner.gate`` (it loads the statistics); the run API that
writes a whole results folder is ``proctor.api``.
"""

from proctor._owner import OWNER_ENV
from proctor.runner._attempt import run_attempt
from proctor.runner._budget import Budget
from proctor.runner._executor import Executor, WorkOrder, check_portable
from proctor.runner._executors import make_executor
from proctor.runner._inline import InlineExecutor
from proctor.runner._inspect import Inspection, inspect, inspect_in
from proctor.runner._leftovers import (
    Leftovers,
    Orphan,
    OwnerRecord,
    alive,
    claim,
    clean,
    find_leftovers,
    proc_start,
    release,
)
from proctor.runner._live import (
    PROBE_TIMEOUT,
    Probe,
    live_origins,
    live_skip,
    probe_hosts,
    use_probe,
)
from proctor.runner._phases import Phases, Timing, seconds_to_ticks, ticks_to_seconds
from proctor.runner._plan import Arm, PlanItem, make_plan, parse_arm, scenario_skip
from proctor.runner._record import AttemptOutput, attempt_folder, build_record
from proctor.runner._resume import check_same_plan, load_done
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
from proctor.runner._worker import DEFAULT_SPARE, RunOptions, SealState, Worker
from proctor.vocab import EXECUTORS, SPARE_MODES, ExecutorKind, SpareMode

__all__ = [
    "DEFAULT_SPARE",
    "EXECUTORS",
    "OWNER_ENV",
    "PROBE_TIMEOUT",
    "SPARE_MODES",
    "Arm",
    "AttemptOutput",
    "Budget",
    "Executor",
    "ExecutorKind",
    "InlineExecutor",
    "Inspection",
    "Leftovers",
    "ObligationVerdict",
    "Orphan",
    "OwnerRecord",
    "Phases",
    "PlanItem",
    "Probe",
    "ProgressHook",
    "RunOptions",
    "RunResult",
    "SealState",
    "SpareMode",
    "Timing",
    "WorkOrder",
    "Worker",
    "alive",
    "attempt_folder",
    "build_record",
    "check_portable",
    "check_same_plan",
    "claim",
    "clean",
    "config_of",
    "execute",
    "find_leftovers",
    "inspect",
    "inspect_in",
    "judge",
    "live_origins",
    "live_skip",
    "load_done",
    "make_executor",
    "make_plan",
    "new_run_dir",
    "note_seal",
    "parse_arm",
    "probe_hosts",
    "proc_start",
    "release",
    "run_attempt",
    "run_info",
    "scenario_skip",
    "seconds_to_ticks",
    "ticks_to_seconds",
    "use_probe",
    "verify",
    "verify_in",
    "verify_items",
    "write_run_info",
]
