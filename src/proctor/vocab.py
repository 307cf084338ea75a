"""The closed vocabularies: every closed set of words proctor reads or writes, as ``Literal``s.

A word that is not here cannot be written: mypy refuses it in code and pydantic
refuses it in a record or a scenario. A vocabulary grows by adding a value here;
the places that must then classify it (the failure-cause table in
``proctor.report``) fail mypy and their tests until they do. No module but this
one defines a ``Literal`` alias (``tests/test_vocab.py`` holds that). A
vocabulary that code walks or lists in a message has a tuple of its values
(``typing.get_args``), at the end of this module.

The groups, in the order below:

- stop reasons: how a run ended, by who emits them;
- an attempt's record: results, faults, steps, checks, the seal, the spend ledger;
- scenarios: tiers, statuses, decoy steps, the timeline, placeholders, live reads;
- the world's apps and sites: seeds, snapshots and site state share these words;
- model providers (``agents/llm``);
- runs: executors, the run's state, the worker's environment switches, the gate's sides;
- the report, the bars and the gate;
- the manual protocol.

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

# ---------------------------------------------------------------------------------------
# Stop reasons

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

# ---------------------------------------------------------------------------------------
# An attempt's record (``proctor.records``)

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

# ---------------------------------------------------------------------------------------
# Scenarios (``proctor.scenario``)

Tier = Literal["local", "model", "live", "desktop", "peer"]
"""Where a scenario runs: local fixtures, a model, the live web, a desktop, or a peer suite
(``peer``: MiniWoB++'s own task pages, graded by its own reward)."""

Category = Literal["regression", "capability"]
"""regression: a scenario that should keep passing (gate material); capability: a stretch."""

ScenarioStatus = Literal["scored", "calibrating", "gap"]
"""A scenario's ``status:``: scored (calibrated: it may gate), calibrating (run and reported,
never gate material), or gap (also never gated)."""

ScenarioDriver = Literal["direct", "loop"]
"""How a scenario's scripted steps (solution, decoys) are replayed: direct, each step
through the toolset; loop, as a scripted policy's decisions inside the reference loop."""

StepExpect = Literal["error", "refused"]
"""What a decoy step is expected to end as when replayed (``expect:`` on the step): error (it
fails, e.g. a click on a button that is not there) or refused (the harness will not run it,
e.g. a navigation to a denied origin). Any other step must run ok."""

VerifyRole = Literal["oracle", "decoy", "null"]
"""What a verify obligation runs: the oracle must pass, each decoy and the null agent fail."""

PlayKind = Literal["say", "stop", "deliver", "set", "advance", "reset_agent"]
"""What a timeline event (``play:``) does: say (a user message), stop (a message telling the
agent to stop), deliver (mail, a chat post or an invite arrives), set (a site's value
changes), advance (the run clock moves on), reset_agent (a new agent replaces the old one)."""

TriggerKind = Literal["after_actions", "at", "when", "on_idle"]
"""What makes a timeline event fire: the agent's Nth action, a run-clock offset, a condition
on the world (a matching request), or the agent going idle (done)."""

DateUnit = Literal["d", "w", "h", "min"]
"""The unit of a date placeholder's offset: days, weeks, hours, minutes."""

HeadingTag = Literal["h1", "h2", "h3", "h4", "h5", "h6"]
"""A heading level a live read may extract (``live_read``'s ``headings``)."""

LiveCompare = Literal["all", "any", "first", "equals"]
"""How the values read are held against the answer (case and runs of white space ignored):
all: every value is in the answer; any: at least one is; first: the first value is;
equals: the answer is the first value, and nothing else."""

LiveSource = Literal["text", "body"]
"""What ``pattern`` is searched in: text, the page's visible text (an HTML page's text
outside scripts, styles and ``<head>``, white space collapsed; another type's body as it
is); body, the response body as it came."""

# ---------------------------------------------------------------------------------------
# The world's apps and sites: their seeds (``proctor.scenario``), their snapshots
# (``proctor.records``) and their state on the fixture server (``proctor.world``)

RequestLane = Literal["open", "browser", "control"]
"""Which socket of the fixture server a request came in on (``proctor.world._dispatch``)."""

Rsvp = Literal["needs_action", "accepted", "declined", "tentative"]
"""A guest's answer to a calendar invite (needs_action: not answered yet)."""

Emoji = Literal[
    "thumbsup", "eyes", "white_check_mark", "heart", "tada", "raised_hands", "joy", "question"
]
"""A chat reaction, by name (``proctor.scenario``'s ``EMOJI`` maps each to its character)."""

MailRuleField = Literal["from", "to", "subject", "body"]
"""What a mail rule's condition reads (``proctor.scenario.RuleField``)."""

MailDelivery = Literal["setup", "attempt", "end"]
"""When a message reached the mailbox: at set-up, during the attempt, or after it ended."""

MailBulkAction = Literal["archive", "inbox", "read", "unread", "move", "label"]
"""What the mail app's select-many form does to the ticked messages."""

RestaurantSlug = Literal[
    "harbour-grill",
    "osteria-lupa",
    "nonna-vera",
    "pasta-fiume",
    "forno-rosso",
    "saffron-lane",
    "kumo",
    "la-cantina",
    "green-fork",
]
"""Tablefinder's restaurants (``proctor.world.sites.booking`` lists them)."""

SlotTime = Literal["17:30", "18:00", "18:30", "19:00", "19:30", "20:00", "20:30", "21:00", "21:30"]
"""A table time Tablefinder offers."""

BookingStatus = Literal["confirmed", "completed", "cancelled"]
"""A Tablefinder booking's state."""

Currency = Literal["USD", "KWD", "JPY"]
"""The shop's currency: USD (2 decimals), KWD (3) or JPY (none)."""

CheckoutKind = Literal["form", "frame", "spa"]
"""How the shop takes a card: form (on its own page), frame (a payment frame of
pay.proctor.test), spa (a script that posts the card once per click)."""

ChargeVia = Literal[CheckoutKind, "express"]
"""How a shop charge was posted: one of the checkouts, or the express (saved card) button."""

ChargeStatus = Literal["approved", "declined", "verifying", "failed"]
"""A shop charge's state: verifying waits for the bank's code."""

ExpiryForm = Literal["mm_yy", "selects", "month_names"]
"""The shop's card expiry field: one MM/YY box, month and year selects, or a month by name."""

BankAnswer = Literal["approve", "decline", "verify", "fresh_approval"]
"""What the test bank answers a card number (``proctor.world.sites.shop``)."""

PaymentOutcome = Literal["invalid", "declined", "verify", "approved", "failed"]
"""What a payment post (or a verification code) came to at the shop."""

PlanKind = Literal["plan", "addon"]
"""A subscription's kind: a plan or an add-on (listed and cancelled the same way)."""

PlanStatus = Literal["active", "paused", "cancelled"]
"""A subscription plan's state."""

RefundRule = Literal["window", "always", "never"]
"""An invoice's refund eligibility: within the refund window, at any age, or never online."""

RefundIssue = Literal["request", "instant"]
"""How a refund is given: requested (the invoice becomes refund_requested) or instant."""

InvoiceStatus = Literal["paid", "refund_requested", "refunded"]
"""A subscription invoice's state."""

RefundStatus = Literal["requested", "issued"]
"""A subscription refund's state."""

CancelStep = Literal["reason", "losses", "pause", "offer"]
"""A page of the cancellation flow before the confirmation: why are you cancelling, what
you'll lose, pause instead, a discount to stay."""

CancelStage = Literal[CancelStep, "confirm"]
"""A page of the cancellation flow: one of its steps, or the confirmation."""

StayEffect = Literal["keep", "pause"]
"""What the confirmation page's stay box does when ticked: keep the plan, or pause it."""

PageControl = Literal[
    "select", "checkbox", "new_tab", "file_input", "pointer", "scroller", "delayed", "kept_sign_in"
]
"""What a site's pages hold that needs a tool beyond a browser agent's core ones
(``Site.controls``; a model arm is offered its tool): select, a select box (``select``);
checkbox, a checkbox or radio (``check``); new_tab, a link or script that opens a tab
(``tabs``); file_input, a file input (``upload``); pointer, a widget worked by dragging or
hovering (``drag``, ``hover``); scroller, content that loads or shows only as it scrolls
(``scroll``); delayed, content that appears or changes after a delay, with no action
(``wait``); kept_sign_in, a sign-in the browser keeps across a restart (``restart``)."""

# ---------------------------------------------------------------------------------------
# Model providers (``proctor.agents.llm``)

WireFamily = Literal["openai", "anthropic"]
"""The provider family a model speaks for (``ModelConfig.wire``): anthropic's messages, or
openai's chat completions and Responses; each has its own native computer tool."""

WireFormat = Literal["openai", "anthropic", "responses"]
"""An API format the replay provider answers: openai, chat completions; anthropic,
messages; responses, OpenAI's Responses API."""

ToolChoice = Literal["auto", "required"]
"""The ``tool_choice`` a model spec forces (``+tool_choice=``)."""

# ---------------------------------------------------------------------------------------
# Runs (``proctor.runner``, ``proctor.api``)

ExecutorKind = Literal["inline", "pool", "ray"]
"""What runs a run's tries (``--executor``, ``Leg.executor``): inline, this process;
pool, worker processes on this machine; ray, Ray actors."""

RunState = Literal["running", "ended", "gone"]
"""Whether a run's driver is at work, from run.json's last leg: running (the leg is open and
its driver process is alive), ended (every leg ended, or no leg), gone (the leg is open and
its driver died: killed mid-leg)."""

OwnerRole = Literal["driver", "worker"]
"""What an owner (a process marked as a run's) does in its run: the driver, or one worker."""

SideRole = Literal["baseline", "candidate"]
"""Which side of a gate comparison a run or an arm is."""

SealMode = Literal["auto", "require", "off"]
"""PROCTOR_SEAL: auto seals the browser's network when the machine allows it (the
default); require makes a refused seal an error; off never seals (debugging only)."""

SpareMode = Literal["agent", "after", "off"]
"""PROCTOR_SPARE, when the next attempt's blank browser context is made (the load
bench's A/B, ``bench/load.py``): off, never: each attempt makes its own at set-up (the
default, the fastest measured); agent, while this attempt's agent runs (it competed with
the agent for the CPU: first actions 1.9x later ones under load); after, once this
attempt's context is closed, during its end-state reads, grading and record writing."""

InjectKind = Literal["browser", "driver", "worker", "hang", "fixture", "provider", "app"]
"""An infra fault ``PROCTOR_INJECT`` causes on purpose (tests only; ``proctor._inject``)."""

# ---------------------------------------------------------------------------------------
# The report, the bars and the gate (``proctor.report``, ``proctor.compare``)

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

# ---------------------------------------------------------------------------------------
# The manual protocol (``proctor.manual``)

ManualBoundaryStop = Literal["owner-required", "untrusted-content", "revoked"]
"""The stop a manual boundary case must end with."""

ManualStop = Literal["completed", "unavailable", "timeout", "tool-limit", ManualBoundaryStop]
"""How a manual case ended, as its operator recorded it (``proctor manual finish``)."""

ManualCaseKind = Literal["task", "boundary"]
"""A manual case: a task to finish, or a boundary to stop at."""

ManualVerdict = Literal["passed", "failed", "unavailable", "over_limit", "incomplete"]
"""A manual case's grade: passed (every check held), failed, unavailable (the arm had no
working route; never a pass), over_limit (past the wall or tool-call limit; never a pass),
incomplete (never served, begun or finished)."""

# ---------------------------------------------------------------------------------------
# The values of the vocabularies that code walks

FINISH_REASONS: tuple[FinishReason, ...] = get_args(FinishReason)
LIMIT_REASONS: tuple[LimitReason, ...] = get_args(LimitReason)
GUARD_REASONS: tuple[GuardReason, ...] = get_args(GuardReason)
BOUNDARY_REASONS: tuple[BoundaryReason, ...] = get_args(BoundaryReason)
RUN_STOP_REASONS: tuple[RunStopReason, ...] = get_args(RunStopReason)
STOP_REASONS: tuple[StopReason, ...] = get_args(StopReason)
FAULT_KINDS: tuple[FaultKind, ...] = get_args(FaultKind)
NOT_RUN: tuple[NotRun, ...] = get_args(NotRun)
SURFACES: tuple[Surface, ...] = get_args(Surface)
ACTION_OPS: tuple[ActionOp, ...] = get_args(ActionOp)
SPEND_KINDS: tuple[SpendKind, ...] = get_args(SpendKind)
CROSSINGS: tuple[Crossing, ...] = get_args(Crossing)
REFUSALS: tuple[Refusal, ...] = get_args(Refusal)
LEAF_CHECK_KINDS: tuple[LeafCheckKind, ...] = get_args(LeafCheckKind)
CHECK_KINDS: tuple[CheckKind, ...] = get_args(CheckKind)
TIERS: tuple[Tier, ...] = get_args(Tier)
CATEGORIES: tuple[Category, ...] = get_args(Category)
STEP_EXPECTS: tuple[StepExpect, ...] = get_args(StepExpect)
VERIFY_ROLES: tuple[VerifyRole, ...] = get_args(VerifyRole)
PLAY_KINDS: tuple[PlayKind, ...] = get_args(PlayKind)
TRIGGER_KINDS: tuple[TriggerKind, ...] = get_args(TriggerKind)
DATE_UNITS: tuple[DateUnit, ...] = get_args(DateUnit)
MAIL_BULK_ACTIONS: tuple[MailBulkAction, ...] = get_args(MailBulkAction)
TOOL_CHOICES: tuple[ToolChoice, ...] = get_args(ToolChoice)
PAGE_CONTROLS: tuple[PageControl, ...] = get_args(PageControl)
EXECUTORS: tuple[ExecutorKind, ...] = get_args(ExecutorKind)
RUN_STATES: tuple[RunState, ...] = get_args(RunState)
SPARE_MODES: tuple[SpareMode, ...] = get_args(SpareMode)
INJECT_KINDS: tuple[InjectKind, ...] = get_args(InjectKind)
CAUSE_KINDS: tuple[CauseKind, ...] = get_args(CauseKind)
MANUAL_STOPS: tuple[ManualStop, ...] = get_args(ManualStop)
MANUAL_VERDICTS: tuple[ManualVerdict, ...] = get_args(ManualVerdict)


def is_stop_reason(value: object) -> TypeGuard[StopReason]:
    """Whether ``value`` is a word of the stop-reason vocabulary."""
    return value in STOP_REASONS


def is_limit_reason(value: object) -> TypeGuard[LimitReason]:
    """Whether ``value`` is a toolset limit's stop reason (``LimitReached.reason``)."""
    return value in LIMIT_REASONS


def is_leaf_check_kind(value: object) -> TypeGuard[LeafCheckKind]:
    """Whether ``value`` is a check kind with an evaluator of its own (not all/any/after_event)."""
    return value in LEAF_CHECK_KINDS


__all__ = [
    "ACTION_OPS",
    "BOUNDARY_REASONS",
    "CATEGORIES",
    "CAUSE_KINDS",
    "CHECK_KINDS",
    "CROSSINGS",
    "DATE_UNITS",
    "EXECUTORS",
    "FAULT_KINDS",
    "FINISH_REASONS",
    "GUARD_REASONS",
    "INJECT_KINDS",
    "LEAF_CHECK_KINDS",
    "LIMIT_REASONS",
    "MAIL_BULK_ACTIONS",
    "MANUAL_STOPS",
    "MANUAL_VERDICTS",
    "NOT_RUN",
    "PAGE_CONTROLS",
    "PLAY_KINDS",
    "REFUSALS",
    "RUN_STATES",
    "RUN_STOP_REASONS",
    "SPARE_MODES",
    "SPEND_KINDS",
    "STEP_EXPECTS",
    "STOP_REASONS",
    "SURFACES",
    "TIERS",
    "TOOL_CHOICES",
    "TRIGGER_KINDS",
    "VERIFY_ROLES",
    "ActionOp",
    "AnswerSource",
    "AttemptResult",
    "BankAnswer",
    "BookingStatus",
    "BoundaryReason",
    "CancelStage",
    "CancelStep",
    "Category",
    "CauseKind",
    "ChargeStatus",
    "ChargeVia",
    "CheckKind",
    "CheckoutKind",
    "Crossing",
    "Currency",
    "DateUnit",
    "Emoji",
    "Evidence",
    "ExecutorKind",
    "ExpiryForm",
    "FaultKind",
    "FinishReason",
    "GateDecision",
    "GateRule",
    "GuardReason",
    "HeadingTag",
    "InjectKind",
    "InvoiceStatus",
    "LeafCheckKind",
    "LimitReason",
    "LiveCompare",
    "LiveSource",
    "MailBulkAction",
    "MailDelivery",
    "MailRuleField",
    "ManualBoundaryStop",
    "ManualCaseKind",
    "ManualStop",
    "ManualVerdict",
    "NotRun",
    "OwnerRole",
    "PageControl",
    "PaymentOutcome",
    "PlanKind",
    "PlanStatus",
    "PlannerStatus",
    "PlayKind",
    "RefundIssue",
    "RefundRule",
    "RefundStatus",
    "Refusal",
    "RequestLane",
    "RestaurantSlug",
    "Rsvp",
    "RunDifference",
    "RunState",
    "RunStopReason",
    "ScenarioDriver",
    "ScenarioStatus",
    "ScrollDirection",
    "SealMode",
    "SideRole",
    "SlotTime",
    "SpareMode",
    "SpendKind",
    "StayEffect",
    "StepExpect",
    "StepStatus",
    "StepTool",
    "StopReason",
    "Surface",
    "TargetOp",
    "Tier",
    "ToolChoice",
    "TriggerKind",
    "VerifyRole",
    "WireFamily",
    "WireFormat",
    "is_leaf_check_kind",
    "is_limit_reason",
    "is_stop_reason",
]
