"""One call to the computer toolset, as recorded: the unit of an attempt's trace."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from proctor.records._record import Record
from proctor.vocab import (
    ActionOp,
    StepStatus,
    StepTool,
)


class Step(Record):
    """One call to the computer toolset."""

    index: int
    tool: StepTool = Field(default="browser", description="The toolset: browser, desktop, user.")
    op: ActionOp = Field(description="The action's op, e.g. click.")
    target: str | None = Field(default=None, description="Short form of what the action addressed.")
    input: dict[str, Any] = Field(default_factory=dict, description="The action as given.")
    output: str = Field(default="", description="Summary of what happened.")
    data: Any = Field(default=None, description="Structured result, e.g. extracted rows.")
    facts: dict[str, Any] = Field(
        default_factory=dict, description="Trace facts, e.g. in_frame, frame_url, new_tab."
    )
    status: StepStatus = "ok"
    error: str | None = None
    started_at: float = Field(description="Unix time the call started.")
    latency_ms: float = Field(description="Wall time of the call in milliseconds.")
