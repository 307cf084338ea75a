"""The closed vocabularies: every status word proctor writes, as ``Literal`` aliases.

Each alias has a tuple of all its values (``typing.get_args``), for tests that
walk a vocabulary and for messages that list it. A word that is not here cannot
be written: mypy refuses it in code and pydantic refuses it in a record. A
vocabulary grows by adding a value here; the places that must then classify it
(the failure-cause table in ``proctor.report``) fail mypy and their tests until
they do.

Stop reasons, by who emits them::

    StopReason                 AttemptRecord.stop_reason, EndState.stop_reason
    ├── RunStopReason          Outcome.stop_reason: how an agent's run ended
    │   ├── FinishReason       the agent ended on its own
    │   ├── LimitReason        a harness limit (LimitReached.reason), plus timeout
    │   ├── GuardReason        a guard of the reference loop
    │   ├── BoundaryReason     a boundary of the reference loop (needs review)
    │   └── planner_error, agent_error
    └── infra, skipped, unknown   records with no run, or a reason this version lacks
"""

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

FaultKind = Literal[
    "browser", "fixture", "setup", "provider", "worker", "desktop", "window_unavailable", "live"
]
"""What an infra fault was: retried, recorded, never scored.

worker: the worker running the try died, or passed the try's deadline (its wall
limit plus the grace) and was killed by the driver. desktop: the desktop session
or an app of the attempt failed (an app exited or crashed, the accessibility bus
did not answer). window_unavailable: an app ran without showing a window, twice.
live: the harness's own read of a live page failed (the network, a timeout, a 5xx
or 429 answer).
"""

Surface = Literal["browser", "desktop"]
"""What an attempt's agent drives: a Chromium, or apps on a desktop (``world.desktop``).
Each action names the surfaces it exists on; the tools offered follow the surface."""

NotRun = Literal["budget"]
"""Why a planned attempt was not run (``AttemptRecord.not_run``): budget: ``--budget``
would have been passed. Such attempts are missing from denominators, never failures."""

SpendKind = Literal["admit", "settle"]
"""A line of the spend ledger (results/<label>/spend.jsonl): admit: a model call's
estimate, written before the call is sent; settle: the priced usage of its reply."""

Crossing = Literal["payment", "signin", "destructive"]
"""A kind of sensitive control: a site records its activation as a crossing."""

Tier = Literal["local", "model", "live", "desktop", "peer"]
"""Where a scenario runs: local fixtures, a model, the live web, a desktop, or a peer suite
(``peer``: MiniWoB++'s own task pages, graded by its own reward)."""

Category = Literal["regression", "capability"]
"""regression: a scenario that should keep passing (gate material); capability: a stretch."""

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

Refusal = Literal["offworld", "scheme", "websocket", "host_lane", "body", "unattributed"]
"""Why the seal refused a request or navigation (``WebRequest.refused``).

offworld: an http(s) host outside the world. scheme: a URL of another scheme
(file:, javascript:, data: unless allowed, chrome:, view-source:, ...).
websocket: any websocket (the world has none). host_lane: the world asked for
from outside the attempt's browser (an external agent posting by itself).
body: a request body that did not arrive in time. unattributed: a request of the
world with no valid attempt tag (``x-proctor-attempt``), so of no attempt: never
given to one, logged apart.
"""

Evidence = Literal["page_text", "answer", "url", "files", "submissions"]
"""End-state facts a judge criterion may be shown (and the only ones it is shown)."""

StepExpect = Literal["error", "refused"]
"""What a decoy step is expected to end as when replayed (``expect:`` on the step): error (it
fails, e.g. a click on a button that is not there) or refused (the harness will not run it,
e.g. a navigation to a denied origin). Any other step must run ok."""

VerifyRole = Literal["oracle", "decoy", "null"]
"""What a verify obligation runs: the oracle must pass, each decoy and the null agent fail."""

RunDifference = Literal["spec", "agent", "model", "mode", "scenario", "scenarios"]
"""What ``compare`` warns differs between two runs: an arm's spec, agent kind, model or
mode, a scenario file's content hash, or the set of scenarios each run holds."""

ManualStop = Literal[
    "completed", "unavailable", "timeout", "tool-limit", "owner-required", "untrusted-content",
    "revoked",
]  # fmt: skip
"""How a manual case ended, as its operator recorded it (``proctor manual finish``)."""

ManualVerdict = Literal["passed", "failed", "unavailable", "over_limit", "incomplete"]
"""A manual case's grade: passed (every check held), failed, unavailable (the arm had no
working route; never a pass), over_limit (past the wall or tool-call limit; never a pass),
incomplete (never served, begun or finished)."""

PlayKind = Literal["say", "stop", "deliver", "set", "advance", "reset_agent"]
"""What a timeline event (``play:``) does: say (a user message), stop (a message telling the
agent to stop), deliver (mail, a chat post or an invite arrives), set (a site's value
changes), advance (the run clock moves on), reset_agent (a new agent replaces the old one)."""

TriggerKind = Literal["after_actions", "at", "when", "on_idle"]
"""What makes a timeline event fire: the agent's Nth action, a run-clock offset, a condition
on the world (a matching request), or the agent going idle (done)."""

RunState = Literal["running", "ended", "gone"]
"""Whether a run's driver is at work, from run.json's last leg: running (the leg is open and
its driver process is alive), ended (every leg ended, or no leg), gone (the leg is open and
its driver died: killed mid-leg)."""

FINISH_REASONS: tuple[FinishReason, ...] = get_args(FinishReason)
LIMIT_REASONS: tuple[LimitReason, ...] = get_args(LimitReason)
GUARD_REASONS: tuple[GuardReason, ...] = get_args(GuardReason)
BOUNDARY_REASONS: tuple[BoundaryReason, ...] = get_args(BoundaryReason)
RUN_STOP_REASONS: tuple[RunStopReason, ...] = get_args(RunStopReason)
STOP_REASONS: tuple[StopReason, ...] = get_args(StopReason)
FAULT_KINDS: tuple[FaultKind, ...] = get_args(FaultKind)
NOT_RUN: tuple[NotRun, ...] = get_args(NotRun)
SPEND_KINDS: tuple[SpendKind, ...] = get_args(SpendKind)
CROSSINGS: tuple[Crossing, ...] = get_args(Crossing)
TIERS: tuple[Tier, ...] = get_args(Tier)
SURFACES: tuple[Surface, ...] = get_args(Surface)
MANUAL_STOPS: tuple[ManualStop, ...] = get_args(ManualStop)
MANUAL_VERDICTS: tuple[ManualVerdict, ...] = get_args(ManualVerdict)
CATEGORIES: tuple[Category, ...] = get_args(Category)
CAUSE_KINDS: tuple[CauseKind, ...] = get_args(CauseKind)
VERIFY_ROLES: tuple[VerifyRole, ...] = get_args(VerifyRole)
REFUSALS: tuple[Refusal, ...] = get_args(Refusal)
STEP_EXPECTS: tuple[StepExpect, ...] = get_args(StepExpect)
PLAY_KINDS: tuple[PlayKind, ...] = get_args(PlayKind)
TRIGGER_KINDS: tuple[TriggerKind, ...] = get_args(TriggerKind)
RUN_STATES: tuple[RunState, ...] = get_args(RunState)


def is_stop_reason(value: object) -> TypeGuard[StopReason]:
    """Whether ``value`` is a word of the stop-reason vocabulary."""
    return value in STOP_REASONS


def is_limit_reason(value: object) -> TypeGuard[LimitReason]:
    """Whether ``value`` is a toolset limit's stop reason (``LimitReached.reason``)."""
    return value in LIMIT_REASONS


__all__ = [
    "BOUNDARY_REASONS",
    "CATEGORIES",
    "CAUSE_KINDS",
    "CROSSINGS",
    "FAULT_KINDS",
    "FINISH_REASONS",
    "GUARD_REASONS",
    "LIMIT_REASONS",
    "MANUAL_STOPS",
    "MANUAL_VERDICTS",
    "NOT_RUN",
    "REFUSALS",
    "RUN_STATES",
    "RUN_STOP_REASONS",
    "SPEND_KINDS",
    "STEP_EXPECTS",
    "STOP_REASONS",
    "SURFACES",
    "TIERS",
    "VERIFY_ROLES",
    "BoundaryReason",
    "Category",
    "CauseKind",
    "Crossing",
    "Evidence",
    "FaultKind",
    "FinishReason",
    "GuardReason",
    "LimitReason",
    "ManualStop",
    "ManualVerdict",
    "NotRun",
    "Refusal",
    "RunDifference",
    "RunState",
    "RunStopReason",
    "SpendKind",
    "StepExpect",
    "StopReason",
    "Surface",
    "Tier",
    "VerifyRole",
    "is_limit_reason",
    "is_stop_reason",
]
