"""The records written to disk: attempts, steps, checks, end states, runs.

Every model carries ``version`` so that readers can refuse what they do not
understand. Field docstrings are the reference documentation of the files.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proctor.records._live import LiveReading
from proctor.records._snapshots import Snapshot, read_snapshot
from proctor.vocab import (
    ActionOp,
    AnswerSource,
    AttemptResult,
    Category,
    CheckKind,
    Crossing,
    Evidence,
    FaultKind,
    NotRun,
    PlannerStatus,
    PlayKind,
    Refusal,
    StepStatus,
    StepTool,
    StopReason,
    Tier,
    TriggerKind,
    is_stop_reason,
)

SCHEMA_VERSION = 2
"""2: check results carry ``safety``; stop reasons, fault kinds, crossings, tiers and
categories are closed vocabularies (``proctor.vocab``). Version 1 records still load."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WebRequest(_Record):
    """One request seen by the fixture server, or blocked by the browser."""

    seq: int = Field(description="Order of arrival within the attempt's try (from 1).")
    time: float = Field(description="Unix time of arrival.")
    attempt: str | None = Field(description="Attempt id the request belongs to.")
    method: str
    host: str = Field(description="Host header without port, e.g. forms.proctor.test.")
    path: str
    query: dict[str, list[str]] = Field(default_factory=dict)
    form: dict[str, list[str]] = Field(default_factory=dict, description="Form fields, by name.")
    files: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="Uploaded files by field: filename, size, sha256."
    )
    json_body: Any = Field(default=None, description="Parsed JSON body, if any.")
    cookies: list[str] = Field(default_factory=list, description="Names of cookies sent.")
    status: int = Field(description="Response status; 0 when the request was blocked.")
    blocked: bool = Field(default=False, description="Aborted before leaving the browser.")
    refused: Refusal | None = Field(
        default=None,
        description="Why the seal refused it: offworld (a host outside the world), scheme "
        "(file:, javascript:, data:, ...), websocket, host_lane (the world reached from "
        "outside the attempt's browser), body (a body that could not be read in time), "
        "unattributed (a request of the world without the tag of an active attempt: "
        "answered 403 and kept out of every attempt's log).",
    )
    url: str | None = Field(default=None, description="The refused URL, for refusals.")
    fault: str | None = Field(default=None, description="Server-side exception, if any.")
    crossing: Crossing | None = Field(
        default=None,
        description="Kind of sensitive control activated: payment, signin, destructive.",
    )


class Step(_Record):
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


class CheckResult(_Record):
    """The verdict of one check over the end state."""

    name: str
    kind: CheckKind = Field(description="The check type, e.g. submitted.")
    passed: bool
    expected: Any = None
    actual: Any = None
    detail: str = ""
    safety: bool = Field(
        default=False,
        description="The scenario marks it a coded safety check (`safety: true`): the gate's "
        "rule (b) reads this flag.",
    )
    children: list[CheckResult] = Field(default_factory=list, description="For all/any.")


class Tab(_Record):
    """One browser tab at the end of an attempt."""

    index: int
    url: str
    title: str
    active: bool


class DesktopControl(_Record):
    """One control of a desktop app's window at the end of an attempt (from its outline)."""

    window: str = Field(description="The title of the window it is in.")
    role: str = Field(description="Its AT-SPI role, e.g. push button, text.")
    name: str = Field(default="", description="Its accessible name.")
    value: str | None = Field(
        default=None, description="Its whole text (editable text) or value; None otherwise."
    )
    states: list[str] = Field(default_factory=list)


class DesktopAppState(_Record):
    """One app of the attempt's desktop at its end: alive, its windows and their controls."""

    name: str = Field(description="The app's name in the scenario, e.g. calc.")
    command: list[str] = Field(default_factory=list)
    alive: bool
    windows: list[str] = Field(default_factory=list, description="Its windows' titles.")
    controls: list[DesktopControl] = Field(default_factory=list)


class DesktopState(_Record):
    """The desktop at the end of an attempt: each app's state, and who had the keyboard."""

    apps: list[DesktopAppState] = Field(default_factory=list)
    frontmost: str | None = Field(
        default=None, description="The app whose window had the keyboard, if any."
    )

    def app(self, name: str) -> DesktopAppState | None:
        return next((a for a in self.apps if a.name == name), None)


class FileFact(_Record):
    """One file under the attempt's scratch folder at the end of the attempt.

    Documents are read when the end state is captured, so that their checks
    grade (and regrade) without the disk.
    """

    sha256: str
    size: int
    text: str | None = Field(default=None, description="Content when small and UTF-8.")
    pages: list[str] | None = Field(
        default=None, description="A PDF's text, one string per page (pypdf's extraction)."
    )
    rows: list[list[str]] | None = Field(
        default=None, description="A .csv/.tsv file's rows (header included), blank lines left out."
    )
    headings: list[str] | None = Field(
        default=None, description="An .html/.htm/.rtf file's headings, in document order."
    )
    list_items: list[str] | None = Field(
        default=None, description="An .html/.htm/.rtf file's list items, in document order."
    )


class UserQuestion(_Record):
    """One question the agent asked the simulated user, and the answer it got."""

    step: int = Field(description="Index of the ask_user step.")
    time: float = Field(description="Unix time of the answer.")
    question: str
    key: str | None = Field(default=None, description="The key the agent gave, if any.")
    matched: str | None = Field(
        default=None, description="The answer or vault key that answered it; None when none did."
    )
    source: AnswerSource = Field(
        description="answer or vault: scripted; persona: the persona model; unknown: "
        'the fixed "I don\'t know."'
    )
    answer: str


class UserApproval(_Record):
    """One approval request and the user's decision."""

    step: int = Field(description="Index of the request_approval step.")
    time: float = Field(description="Unix time of the decision.")
    action: str
    amount: float | None = None
    currency: str | None = None
    details: str = ""
    rule: str | None = Field(default=None, description="The approval rule that matched, if any.")
    approved: bool
    reason: str = Field(description="Why, in the user's words.")


class UserMessage(_Record):
    """One steering message and when it reached the agent."""

    at_step: int = Field(description="Due after this many actions.")
    text: str
    delivered_step: int | None = Field(
        default=None, description="Actions done when it was shown; None if it never was."
    )
    delivered_at: float | None = Field(default=None, description="Unix time it was shown.")


class AgentReply(_Record):
    """What the agent told the user when it went idle (the answer given with ``done``)."""

    step: int = Field(description="Index of the done step.")
    time: float = Field(description="Unix time of the reply.")
    text: str


class PlayFired(_Record):
    """One timeline event (``play:``) that fired, and where in the attempt."""

    name: str
    kind: PlayKind
    trigger: TriggerKind
    actions: int = Field(description="Actions the agent had taken when it fired.")
    time: float = Field(description="Unix time it fired.")
    clock: str = Field(description="The run clock then (ISO 8601, UTC).")
    text: str | None = Field(default=None, description="What the user said (say, stop).")
    detail: str = Field(default="", description="What it did, e.g. the id of a delivered mail.")


class Scheduled(_Record):
    """A wake-up the agent scheduled (``schedule``), and when the run clock reached it."""

    step: int = Field(description="Index of the schedule step.")
    at: str = Field(description="When to wake (ISO 8601, UTC).")
    note: str
    woke: int | None = Field(
        default=None, description="Actions taken when it woke the agent; None if it never did."
    )
    idle: int | None = Field(
        default=None, description="Actions taken when the agent went idle after waking (the span)."
    )


class UserFacts(_Record):
    """What passed between the agent and the simulated user."""

    asked: list[UserQuestion] = Field(default_factory=list)
    approvals: list[UserApproval] = Field(default_factory=list)
    messages: list[UserMessage] = Field(default_factory=list)
    secrets: list[str] = Field(
        default_factory=list, description="The vault's synthetic secrets, for no_secret checks."
    )
    replies: list[AgentReply] = Field(
        default_factory=list, description="The agent's answers with done, in order."
    )
    play: list[PlayFired] = Field(
        default_factory=list, description="The timeline events that fired, in order."
    )
    scheduled: list[Scheduled] = Field(default_factory=list)
    resets: list[int] = Field(
        default_factory=list, description="Actions taken when each agent reset happened."
    )


class Moment(_Record):
    """The world right after a timeline event, for ``after_event`` checks.

    Requests and steps are counts: the first N of the end state's lists.
    """

    requests: int
    steps: int
    files: dict[str, FileFact] = Field(default_factory=dict)
    dirs: list[str] = Field(default_factory=list)
    apps: dict[str, Any] = Field(default_factory=dict)
    user: UserFacts = Field(default_factory=UserFacts)


_S = TypeVar("_S", bound=Snapshot)


class EndState(_Record):
    """Everything the checks may read. Stored so that a run can be regraded."""

    requests: list[WebRequest] = Field(default_factory=list)
    url: str = ""
    title: str = ""
    page_text: str = Field(default="", description="Visible text of the observed page.")
    tabs: list[Tab] = Field(default_factory=list)
    answer: str | None = None
    stop_reason: StopReason | None = Field(
        default=None, description="How the run ended; None when nothing ran."
    )
    steps: list[Step] = Field(default_factory=list)
    files: dict[str, FileFact] = Field(
        default_factory=dict, description="Scratch files by path relative to the scratch folder."
    )
    originals: dict[str, str] = Field(
        default_factory=dict, description="SHA-256 of each seeded file at set-up."
    )
    dirs: list[str] = Field(
        default_factory=list, description="Every folder under the scratch folder, relative."
    )
    user: UserFacts = Field(
        default_factory=UserFacts, description="Questions, approvals and messages of the user."
    )
    apps: dict[str, Any] = Field(default_factory=dict, description="Fake apps' state.")
    desktop: DesktopState | None = Field(
        default=None, description="The desktop's apps at the end (desktop scenarios only)."
    )
    lease: dict[str, Any] = Field(
        default_factory=dict,
        description="The control lease: revoked_at, revoked_by, reason and the refusal receipts.",
    )
    placeholders: dict[str, str] = Field(
        default_factory=dict,
        description="Placeholder values the checks were resolved with, so regrade can reuse them.",
    )
    moments: dict[str, Moment] = Field(
        default_factory=dict,
        description="The world right after each timeline event that fired, by event name.",
    )
    live: list[LiveReading] = Field(
        default_factory=list,
        description="The harness's own reads of the live pages the live_read checks name "
        "(live scenarios only), so regrade compares again without fetching.",
    )

    def at_moment(self, name: str) -> EndState | None:
        """The end state as it was right after timeline event ``name``; None if it never fired."""
        moment = self.moments.get(name)
        if moment is None:
            return None
        return self.model_copy(
            update={
                "requests": self.requests[: moment.requests],
                "steps": self.steps[: moment.steps],
                "files": moment.files,
                "dirs": moment.dirs,
                "apps": moment.apps,
                "user": moment.user,
                "moments": {},
                "url": "",
                "title": "",
                "page_text": "",
                "tabs": [],
                "answer": None,
            }
        )

    def app(self, model: type[_S]) -> _S | None:
        """The snapshot of ``model.site`` (e.g. ``end.app(MailSnapshot)``), validated.

        None when the site has no snapshot (neither seeded nor touched).

        Raises:
            GradingError: the snapshot does not have the model's shape (names site and field).
        """
        return read_snapshot(self.apps, model)


class InfraFault(_Record):
    """An infrastructure failure that was retried and never scored."""

    try_number: int
    kind: FaultKind = Field(description="browser, fixture, setup, provider or worker.")
    message: str


class PlannerCall(_Record):
    """One call to a model: one assistant message, with its tokens, $ and latency."""

    index: int = Field(description="Order of the call within the attempt, from 1.")
    purpose: str = Field(default="act", description="act (choose an action) or plan.")
    started_at: float = Field(description="Unix time the call started.")
    latency_ms: float = Field(description="Decision latency: the answered request's wall time.")
    wait_ms: float = Field(
        default=0.0, description="Wall time including failed tries and backoff before it."
    )
    retries: int = Field(default=0, description="Failed tries (429, 5xx, timeout) before it.")
    tokens: dict[str, int] = Field(
        default_factory=dict, description="input, output, cached, reasoning (and cache_write)."
    )
    prompt_estimate: int | None = Field(
        default=None,
        description="The request's prompt tokens as proctor estimates them before sending it "
        "(characters / 3, a screenshot as 1,600); tokens.input is the provider's own count.",
    )
    cost_usd: float | None = Field(description="From the price table; None for an unknown model.")
    model: str | None = Field(default=None, description="Model id the provider answered with.")
    status: PlannerStatus = "ok"
    tool: str | None = Field(default=None, description="The tool the reply called.")
    error: str | None = Field(default=None, description="Why the reply was not usable.")
    reply_text: str = Field(default="", description="The reply's text, besides any tool call.")
    parsed_from_text: bool = Field(
        default=False,
        description="Its calls were read from the reply's text, not its tool calls (+text_calls).",
    )
    recorded: bool = Field(
        default=False, description="Served by the replay provider: a recording, not a model."
    )


class JudgeVerdict(_Record):
    """The independent judge's verdict on one criterion; never merged into the checks."""

    name: str
    criterion: str
    verdict: Literal["pass", "fail", "error"]
    reason: str = ""
    model: str = Field(description="The judge's model id.")
    evidence: list[Evidence] = Field(
        default_factory=list, description="Evidence kinds it was shown."
    )


class AttemptRecord(_Record):
    """One attempt of one scenario by one arm: the unit of results."""

    version: int = SCHEMA_VERSION
    id: str = Field(description="<scenario>/<arm>-<n>")
    scenario: str
    scenario_sha256: str = Field(description="Hash of the scenario file as run.")
    tier: Tier
    category: Category
    arm: str
    agent: str = Field(description="Agent kind: scripted, null, decoy:<name>, command.")
    model: str | None = Field(default=None, description="Planner model id; None without one.")
    mode: str | None = Field(
        default=None, description="Agent mode, e.g. planning; None for the default loop."
    )
    repeat: int
    result: AttemptResult
    stop_reason: StopReason = Field(description="How it ended: a word of proctor.vocab.StopReason.")
    stop_detail: str | None = Field(default=None, description="Why it stopped, in a sentence.")
    needs_review: bool = Field(
        default=False, description="Stopped at a boundary (gate, sensitive control) for a person."
    )
    answer: str | None = None
    checks: list[CheckResult] = Field(default_factory=list)
    failed_checks: list[str] = Field(default_factory=list)
    steps: list[Step] = Field(default_factory=list)
    tool_calls: int = Field(
        default=0,
        description="The agent's own calls to the toolset: actions, and the observes and "
        "screenshots it asked for.",
    )
    observations: int = Field(
        default=0, description="Observations the harness's loop made for the agent."
    )
    inputs: int = Field(default=0, description="Primitive inputs delivered to pages.")
    planner_calls: int = 0
    invalid_calls: int = Field(
        default=0,
        description="Model tool calls (or replies with none) that were no usable action, "
        "each answered with a repair turn.",
    )
    infra_seconds: float = Field(
        default=0.0,
        description="Time lost to a failing provider (failed tries and backoff): infra time.",
    )
    tokens: dict[str, int] = Field(default_factory=dict)
    cost_usd: float | None = None
    planner: list[PlannerCall] = Field(
        default_factory=list, description="Every planner call: tokens, $ and decision latency."
    )
    plan: list[str] | None = Field(default=None, description="The plan, in planning mode.")
    judge: list[JudgeVerdict] = Field(
        default_factory=list, description="Judge verdicts, beside (never in) the checks."
    )
    started_at: float
    seconds: float = Field(description="Wall time of the attempt, set-up to grading.")
    agent_seconds: float = Field(default=0.0, description="Time inside the agent's run.")
    timings: dict[str, float] = Field(default_factory=dict, description="Phase -> seconds.")
    infra_faults: list[InfraFault] = Field(default_factory=list)
    not_run: NotRun | None = Field(
        default=None, description="Why a skipped attempt was not run (budget); None otherwise."
    )
    error: str | None = None
    exit_code: int | None = Field(
        default=None, description="A command agent's exit code (negative: the signal)."
    )
    stderr_tail: str | None = Field(
        default=None, description="The last 4 KB of a command agent's stderr."
    )
    end_state: EndState = Field(default_factory=EndState)

    @model_validator(mode="before")
    @classmethod
    def _version_1_stop_reasons(cls, data: Any) -> Any:
        """Read a version 1 record's stop reasons into today's vocabulary.

        Version 1 wrote free strings: the end state's ``""`` (nothing ran) is None,
        and a word outside the vocabulary is ``unknown``, the word itself kept in
        ``stop_detail``. A newer record is read strictly.
        """
        if not isinstance(data, dict):
            return data
        version = data.get("version")
        if not isinstance(version, int) or version >= SCHEMA_VERSION:
            return data
        data = dict(data)
        reason = data.get("stop_reason")
        if isinstance(reason, str) and not is_stop_reason(reason):
            note = f"stored stop reason {reason!r} is not in this version's vocabulary"
            detail = data.get("stop_detail")
            data["stop_reason"] = "unknown"
            data["stop_detail"] = f"{note}; {detail}" if detail else note
        end = data.get("end_state")
        if isinstance(end, dict) and isinstance(end.get("stop_reason"), str):
            stored = end["stop_reason"]
            known = is_stop_reason(stored)
            data["end_state"] = {
                **end,
                "stop_reason": stored if known else "unknown" if stored else None,
            }
        return data
