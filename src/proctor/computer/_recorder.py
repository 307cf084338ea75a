"""The step recorder: counts every call against the attempt's limits and keeps the trace."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from proctor.computer.actions import INPUT_OPS
from proctor.computer.observation import Capture
from proctor.errors import LimitReached
from proctor.records import Step, TraceEvent


@dataclass
class Recorder:
    """Counts tool calls, steps and primitive inputs, and stops at the limits.

    ``tool_calls`` are the agent's own calls to the toolset: every action, and
    every observation and screenshot the agent asked for. The observations the harness's loop
    makes for an agent, after each action, are ``observations``: they count
    against no limit (one follows each action, which the step limit bounds).

    Attributes:
        tool_calls_limit: Limit on the agent's own calls to the toolset.
        steps_limit: Limit on actions.
    """

    tool_calls_limit: int
    steps_limit: int
    steps: list[Step] = field(default_factory=list)
    events: list[TraceEvent] = field(default_factory=list)
    tool_calls: int = 0
    observations: int = 0
    actions: int = 0
    inputs: int = 0
    on_step: Callable[[Step], None] | None = None
    """Told of each step as it is recorded (the runner's fault injection)."""
    on_event: Callable[[TraceEvent], None] | None = None
    """Told of each event as it is made (the runner's live events.jsonl)."""

    def count_call(self, op: str | None = None) -> None:
        """Count one call; ``op`` is set for actions. Raises LimitReached past a limit."""
        if self.tool_calls >= self.tool_calls_limit:
            raise LimitReached(
                "tool_limit", f"the tool-call limit ({self.tool_calls_limit}) is used up"
            )
        if op is not None and op != "done" and self.actions >= self.steps_limit:
            raise LimitReached("step_limit", f"the step limit ({self.steps_limit}) is used up")
        self.tool_calls += 1
        if op is not None:
            self.actions += 1
            if op in INPUT_OPS:
                self.inputs += 1

    def count_observation(self) -> None:
        """Count one observation the loop made for the agent (never a tool call)."""
        self.observations += 1

    def captured(self, shot: Capture | None) -> None:
        """Trace the agent's screenshot (its sizes and the PNG's SHA-256), or that it failed."""
        if shot is None:
            self.event("screenshot", error="the screen could not be captured")
            return
        self.event(
            "screenshot",
            surface=shot.surface,
            width=shot.width,
            height=shot.height,
            png_width=shot.png_width,
            png_height=shot.png_height,
            bytes=len(shot.png),
            sha256=hashlib.sha256(shot.png).hexdigest(),
        )

    def next_index(self) -> int:
        return len(self.steps)

    def record(self, step: Step) -> None:
        self.steps.append(step)
        self.event("step", index=step.index, op=step.op, status=step.status, error=step.error)
        if self.on_step is not None:
            self.on_step(step)

    def event(self, kind: str, **data: Any) -> None:
        """Append one event for events.jsonl (its values made JSON, odd types as text)."""
        plain = json.loads(json.dumps(data, default=str, ensure_ascii=False))
        event = TraceEvent(time=time.time(), kind=kind, **plain)
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)
