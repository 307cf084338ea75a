"""One attempt's record (``attempt.json``): its result, checks, steps, model calls,
judge verdicts, infra faults and end state."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from proctor.records._end_state import EndState
from proctor.records._record import SCHEMA_VERSION, Record
from proctor.records._run import TraceEvent
from proctor.records._step import Step
from proctor.vocab import (
    AttemptResult,
    Category,
    CheckKind,
    Evidence,
    FaultKind,
    NotRun,
    PlannerStatus,
    StopReason,
    Tier,
    is_stop_reason,
)


class CheckResult(Record):
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


class InfraFault(Record):
    """A try that an infrastructure failure ended: retried while tries were left, never
    scored. Its time and its trace are kept (a provider slower than its timeout costs the
    run real time, and the events say what the try did)."""

    try_number: int
    kind: FaultKind = Field(
        description="browser, fixture, setup, provider, worker, desktop, window_unavailable "
        "or live."
    )
    message: str
    started_at: float | None = Field(default=None, description="Unix time the try started.")
    seconds: float | None = Field(default=None, description="The try's wall time, to its fault.")
    events: list[TraceEvent] = Field(
        default_factory=list,
        exclude=True,
        description="The try's trace, carried to the record phase (events.jsonl), never "
        "into attempt.json.",
    )


class PlannerCall(Record):
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


class JudgeVerdict(Record):
    """The independent judge's verdict on one criterion; never merged into the checks."""

    name: str
    criterion: str
    verdict: Literal["pass", "fail", "error"]
    reason: str = ""
    model: str = Field(description="The judge's model id.")
    evidence: list[Evidence] = Field(
        default_factory=list, description="Evidence kinds it was shown."
    )


class AttemptRecord(Record):
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
        description="Time lost to infra: a failing provider's failed calls and backoff, and "
        "every try an infra fault ended.",
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
