"""Records on disk: attempts, steps, checks, end states and runs, written atomically."""

from proctor.records._atomic import (
    append_jsonl,
    write_bytes_atomic,
    write_jsonl_atomic,
    write_model_atomic,
    write_text_atomic,
)
from proctor.records._models import (
    SCHEMA_VERSION,
    AttemptRecord,
    AttemptResult,
    CheckResult,
    EndState,
    FileFact,
    InfraFault,
    RunInfo,
    RunSummary,
    ScenarioRow,
    Step,
    StepStatus,
    Tab,
    WebRequest,
)

__all__ = [
    "SCHEMA_VERSION",
    "AttemptRecord",
    "AttemptResult",
    "CheckResult",
    "EndState",
    "FileFact",
    "InfraFault",
    "RunInfo",
    "RunSummary",
    "ScenarioRow",
    "Step",
    "StepStatus",
    "Tab",
    "WebRequest",
    "append_jsonl",
    "write_bytes_atomic",
    "write_jsonl_atomic",
    "write_model_atomic",
    "write_text_atomic",
]
