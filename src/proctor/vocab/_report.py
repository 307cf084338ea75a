"""The report, the bars and the gate (``proctor.report``, ``proctor.compare``)."""

from __future__ import annotations

from typing import Literal, get_args

CauseKind = Literal[
    "setup",
    "timeout",
    "tool_limit",
    "planner_error",
    "agent_error",
    "agent_crashed",
    "step_failed",
    "guard",
    "boundary",
    "no_done",
    "no_actions",
    "wrong_outcome",
    "unknown",
    "infra",
]
"""Why a failed attempt failed (report and diagnose), in the order they are shown.

setup: set-up faulted on every try. timeout, tool_limit (tool-call or step
limit): a limit ended the run. planner_error: unusable model replies.
agent_error: the agent crashed. agent_crashed: a command agent exited
with a nonzero code (or a signal) without calling done. step_failed: a
scripted step failed. guard: a loop guard stopped it. boundary: the loop
stopped at a boundary for review.
no_done: it ended without calling done (a command that exited, a policy that
gave up). no_actions: it finished without any computer action. wrong_outcome:
it finished and a check failed. unknown: a stored stop reason this version does
not know. infra: infra faults, shown apart and never counted.
"""

RunDifference = Literal["spec", "agent", "model", "mode", "scenario", "scenarios"]
"""What ``compare`` warns differs between two runs: an arm's spec, agent kind, model or
mode, a scenario file's content hash, or the set of scenarios each run holds."""

TargetOp = Literal[">=", ">", "<=", "<"]
"""How a bar's value is held against its target (report/targets.toml)."""

GateDecision = Literal["GO", "NO-GO", "INCONCLUSIVE"]
"""The gate's answer."""

GateRule = Literal[
    "canary",
    "run-failed",
    "models",
    "judges",
    "judge-is-agent",
    "no-gate",
    "a",
    "b",
    "c",
    "few-attempts",
    "drop-under-10",
    "underpowered",
    "go",
]
"""Which rule of the gate fired. a, b, c are the NO-GO rules; go means none fired."""

CAUSE_KINDS: tuple[CauseKind, ...] = get_args(CauseKind)
