"""An attempt's record (``proctor.records``): results, faults, steps, checks, the seal,
the spend ledger."""

from __future__ import annotations

from typing import Literal, TypeGuard, get_args

AttemptResult = Literal["passed", "failed", "error", "skipped"]
"""passed/failed: graded; error: infra fault after retries, never scored; skipped: not run."""

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

NotRun = Literal["budget"]
"""Why a planned attempt was not run (``AttemptRecord.not_run``): budget: ``--budget``
would have been passed. Such attempts are missing from denominators, never failures."""

Surface = Literal["browser", "desktop"]
"""What an attempt's agent drives: a Chromium, or apps on a desktop (``world.desktop``).
Each action names the surfaces it exists on; the tools offered follow the surface."""

StepTool = Literal[Surface, "user"]
"""The toolset a step went through (``Step.tool``): the browser's, the desktop's, or the
simulated user's (``ask_user``, ``request_approval``, ``schedule``: they never touch a page)."""

ActionOp = Literal[
    "navigate", "back", "click", "fill", "select", "check", "press", "type", "scroll", "hover",
    "drag", "upload", "tabs", "extract", "wait", "restart", "key", "set_value", "activate",
    "read", "ask_user", "request_approval", "schedule", "done",
]  # fmt: skip
"""An action's op (``Step.op``, the ``op:`` of a scenario step): one per action model of
``proctor.computer.actions``, in the order of its ``Action`` union."""

StepStatus = Literal["ok", "error", "refused"]
"""ok: the action ran; error: it failed; refused: the harness would not run it."""

ScrollDirection = Literal["up", "down", "left", "right"]
"""Which way a scroll moves the view (the ``scroll`` action, a native computer tool's)."""

AnswerSource = Literal["answer", "vault", "persona", "unknown"]
"""Who answered a question of the agent's: a scripted answer, the vault, the persona, nobody."""

PlannerStatus = Literal["ok", "tool_error", "no_tool"]
"""ok: a usable reply; tool_error: a malformed tool call; no_tool: text without a tool call."""

SpendKind = Literal["admit", "settle"]
"""A line of the spend ledger (results/<label>/spend.jsonl): admit: a model call's
estimate, written before the call is sent; settle: the priced usage of its reply."""

Crossing = Literal["payment", "signin", "destructive"]
"""A kind of sensitive control: a site records its activation as a crossing."""

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

LeafCheckKind = Literal[
    "submitted", "not_submitted", "requested", "page_text", "answer", "tab_count",
    "stop_reason", "step", "file_sha256", "crossings", "lease_held", "site_state",
    "mail_sent", "draft_exists", "nothing_sent", "mail_in_folder", "message_labels",
    "mail_rule_exists", "event_exists", "event_moved", "event_deleted", "sheet_cells",
    "chat_posted", "file_unchanged", "file_exists", "file_text", "pdf", "csv", "rich_text",
    "dir_listing", "approval_requested_before", "asked", "answered", "idle_after_stop",
    "no_secret_in_messages", "desktop_value", "desktop_frontmost", "desktop_alive",
    "miniwob_reward", "live_read",
]  # fmt: skip
"""A check kind with an evaluator of its own: the keys of ``proctor.scenario``'s
``CHECK_ARGS``, in its order (docs/reference/checks.md describes each)."""

CheckKind = Literal[LeafCheckKind, "all", "any", "after_event"]
"""A check's kind (``CheckResult.kind``, the one key of a scenario's check): a leaf kind,
or one that holds other checks (all, any: its children; after_event: one check on the
world as it was right after a timeline event)."""

Evidence = Literal["page_text", "answer", "url", "files", "submissions"]
"""End-state facts a judge criterion may be shown (and the only ones it is shown)."""

FAULT_KINDS: tuple[FaultKind, ...] = get_args(FaultKind)
NOT_RUN: tuple[NotRun, ...] = get_args(NotRun)
SURFACES: tuple[Surface, ...] = get_args(Surface)
ACTION_OPS: tuple[ActionOp, ...] = get_args(ActionOp)
SPEND_KINDS: tuple[SpendKind, ...] = get_args(SpendKind)
CROSSINGS: tuple[Crossing, ...] = get_args(Crossing)
REFUSALS: tuple[Refusal, ...] = get_args(Refusal)
LEAF_CHECK_KINDS: tuple[LeafCheckKind, ...] = get_args(LeafCheckKind)
CHECK_KINDS: tuple[CheckKind, ...] = get_args(CheckKind)


def is_leaf_check_kind(value: object) -> TypeGuard[LeafCheckKind]:
    """Whether ``value`` is a check kind with an evaluator of its own (not all/any/after_event)."""
    return value in LEAF_CHECK_KINDS
