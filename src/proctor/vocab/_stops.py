"""Stop reasons: how a run ended, by who emits them (the tree is drawn in
``proctor.vocab``'s docstring)."""

from __future__ import annotations

from typing import Literal, TypeGuard, get_args

FinishReason = Literal["done", "script_end", "null", "gave_up", "exited", "step_failed"]
"""The agent ended on its own.

done: it called ``done``. script_end: a scripted agent ran out of steps without
``done``. null: the null agent. gave_up: the reference loop's policy chose no
action. exited: a command agent's process exited without calling ``done``.
step_failed: a scripted oracle or decoy stopped at its first failed step.
"""

LimitReason = Literal["tool_limit", "step_limit"]
"""A limit of the attempt's toolset (raised as ``LimitReached``)."""

GuardReason = Literal["step_budget", "repeated_action", "scroll_oscillation", "no_progress"]
"""A guard of the reference loop stopped it (``proctor.agents._guards``)."""

BoundaryReason = Literal[
    "verification_gate", "untrusted_content", "owner_required", "lease_revoked"
]
"""The reference loop stopped at a boundary for a person to decide (``needs_review``)."""

RunStopReason = Literal[
    FinishReason,
    "timeout",
    LimitReason,
    GuardReason,
    BoundaryReason,
    "planner_error",
    "agent_error",
]
"""How an agent's run ended (``Outcome.stop_reason``).

timeout: the runner's wall limit. planner_error: the model's replies were
unusable. agent_error: the agent crashed (its own bug or an ``AgentError``).
"""

StopReason = Literal[RunStopReason, "infra", "skipped", "unknown"]
"""A record's stop reason: a run's, or one of a record with no run.

infra: every try hit an infra fault (result ``error``). skipped: the attempt
was not run. unknown: set only when reading a stored record whose reason this
version does not know; the stored word is kept in the record's ``stop_detail``.
"""

FINISH_REASONS: tuple[FinishReason, ...] = get_args(FinishReason)
LIMIT_REASONS: tuple[LimitReason, ...] = get_args(LimitReason)
GUARD_REASONS: tuple[GuardReason, ...] = get_args(GuardReason)
BOUNDARY_REASONS: tuple[BoundaryReason, ...] = get_args(BoundaryReason)
RUN_STOP_REASONS: tuple[RunStopReason, ...] = get_args(RunStopReason)
STOP_REASONS: tuple[StopReason, ...] = get_args(StopReason)


def is_stop_reason(value: object) -> TypeGuard[StopReason]:
    """Whether ``value`` is a word of the stop-reason vocabulary."""
    return value in STOP_REASONS


def is_limit_reason(value: object) -> TypeGuard[LimitReason]:
    """Whether ``value`` is a toolset limit's stop reason (``LimitReached.reason``)."""
    return value in LIMIT_REASONS
