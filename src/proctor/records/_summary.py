"""The records of a whole run: summary.json's rows, metrics, bars, determinism, causes."""

from __future__ import annotations

from pydantic import Field

from proctor.records._record import SCHEMA_VERSION, Record
from proctor.vocab import (
    AttemptResult,
    Category,
    CauseKind,
    StopReason,
    TargetOp,
    Tier,
)


class ScenarioRow(Record):
    """The run's verdict on one scenario across its repeats, for one arm x model x mode."""

    scenario: str
    tier: Tier
    category: Category
    arm: str
    model: str | None = None
    mode: str | None = None
    attempts: int = Field(description="Scored attempts (passed or failed).")
    passes: int
    result: AttemptResult
    median_seconds: float | None
    infra_errors: int = Field(default=0, description="Attempts lost to infra faults, not scored.")
    flip_rate: float | None = Field(
        default=None,
        description="Share of consecutive repeats whose verdict differs; None under 2 repeats.",
    )


class Bar(Record):
    """One target bar checked against one row: a cell marked ✓ or ✗."""

    metric: str = Field(
        description="success, pass^K, or a median: planner_calls, tokens, cost_usd, seconds, "
        "tool_calls, observations, inputs."
    )
    op: TargetOp
    target: float
    value: float | None = Field(description="The row's value; None when unknown (shown n/a).")
    met: bool = Field(description="True only when the bar applies and its value meets the target.")
    applies: bool = Field(
        default=True,
        description="False when the row has no such number: pass^K with fewer than K repeats, "
        "or planner calls, tokens or $ for an agent that plans with no model and reports none. "
        "Shown as –, and counted neither met nor unmet.",
    )


class MetricRow(Record):
    """Metrics of one arm x model x mode over the run's scored attempts."""

    arm: str
    model: str | None = None
    mode: str | None = None
    scenarios: int
    attempts: int = Field(description="Scored attempts (passed or failed).")
    passes: int
    infra_errors: int = Field(description="Attempts lost to infra faults: shown, never scored.")
    infra_faults: dict[str, int] = Field(
        default_factory=dict,
        description="Fault kind -> faulted tries (retried ones included): shown, never scored.",
    )
    not_run: int = Field(default=0, description="Attempts not run (--budget): missing, not failed.")
    success: float | None = Field(description="passes / attempts; None without scored attempts.")
    success_low: float | None = Field(description="Wilson 95% interval, lower bound.")
    success_high: float | None = Field(description="Wilson 95% interval, upper bound.")
    pass_k: dict[int, float] = Field(
        default_factory=dict,
        description="k -> mean over scenarios of C(c,k)/C(n,k); scenarios with n < k are left out.",
    )
    pass_k_scenarios: dict[int, int] = Field(
        default_factory=dict, description="k -> how many scenarios had n >= k."
    )
    median_planner_calls: float | None
    median_tokens: float | None
    median_cost_usd: float | None = Field(description="None when any attempt's cost is unknown.")
    median_seconds: float | None
    median_tool_calls: float | None = Field(
        default=None, description="The agent's own tool calls per attempt (observes included)."
    )
    median_observations: float | None = Field(
        default=None, description="The loop's observations for the agent, per attempt."
    )
    median_inputs: float | None = Field(
        default=None, description="Primitive inputs delivered to pages, per attempt."
    )
    planner: bool = Field(
        default=True,
        description="Whether the row's agent plans with a model or reports its usage: the "
        "planner calls, tokens and $ bars apply only then.",
    )
    total_planner_calls: int
    total_invalid_calls: int = Field(
        default=0,
        description="Model tool calls (or replies with none) that were no usable action, each "
        "given a repair turn: how often the model could not call the tools.",
    )
    total_text_calls: int = Field(
        default=0,
        description="Model replies whose calls were read from their text, not their tool "
        "calls (+text_calls): how often the model needed that.",
    )
    total_tokens: int
    total_cost_usd: float | None = Field(description="None when any attempt's cost is unknown.")
    total_seconds: float
    flip_rate: float | None = Field(
        description="Mean per-scenario flip rate over scenarios with 2+ scored repeats."
    )
    flaky: list[str] = Field(
        default_factory=list, description="Scenarios that both passed and failed."
    )
    bars: list[Bar] = Field(default_factory=list)

    def bars_met(self) -> tuple[int, int]:
        """(bars met, bars that apply): a bar that does not apply is in neither."""
        counted = [b for b in self.bars if b.applies]
        return sum(b.met for b in counted), len(counted)


class RunStep(Record):
    """What one run did at the step where repeated runs diverged."""

    attempt: str
    step: str | None = Field(description="tool op target at that index; None when it had ended.")


class Determinism(Record):
    """Whether repeats of one scenario by one row took the same step sequence."""

    scenario: str
    arm: str
    model: str | None = None
    mode: str | None = None
    runs: int
    same: bool
    diverged_at: int | None = Field(description="First step index where the runs differ.")
    at: list[RunStep] = Field(default_factory=list, description="Each run's step there.")
    after_event: str | None = Field(
        default=None,
        description="The last timeline event (play:) that had fired in the first run before "
        "the step where the runs differ, so a divergence is placed in the task's story.",
    )


class CauseAttempt(Record):
    """One attempt under a failure cause."""

    attempt: str
    path: str = Field(description="The attempt folder, relative to the run folder.")
    detail: str = ""


class CauseGroup(Record):
    """Failed attempts sharing one cause."""

    cause: CauseKind = Field(description="A word of proctor.vocab.CauseKind, e.g. guard.")
    label: str = Field(description="Human name, e.g. 'guard stop: no_progress'.")
    guard: StopReason | None = Field(
        default=None,
        description="The stop reason that splits the cause into groups: for guard, boundary "
        "and no_done.",
    )
    counted: bool = Field(description="False for infra: shown apart, never counted.")
    attempts: list[CauseAttempt] = Field(default_factory=list)


class PeerRow(Record):
    """One arm on a peer suite, graded by the suite's own reward (the first episode's end).

    ``success`` is MiniWoB++'s own rule (raw reward 1); ``browsergym`` is BrowserGym's
    (raw reward above 0), which counts partial credit as success: the two disagree on it.
    """

    suite: str = Field(description="e.g. miniwob.")
    arm: str
    episodes: int = Field(description="Scored attempts of the suite's scenarios.")
    ended: int = Field(description="Attempts in which an episode ended at all.")
    success: float | None = Field(description="Share with raw reward 1 on the first end.")
    success_low: float | None = None
    success_high: float | None = None
    mean_raw: float | None = Field(description="Mean raw reward; no end counts as 0.")
    mean_reward: float | None = Field(description="Mean time-scaled reward; no end counts as 0.")
    browsergym: float | None = Field(description="Share with raw reward above 0.")


class RunSummary(Record):
    """summary.json: what a run found."""

    version: int = SCHEMA_VERSION
    label: str
    started_at: float
    finished_at: float
    rows: list[ScenarioRow]
    passed: int
    failed: int
    skipped: int
    errors: int
    metrics: list[MetricRow] = Field(default_factory=list, description="Per arm x model x mode.")
    peers: list[PeerRow] = Field(
        default_factory=list, description="Per peer suite x arm, by the suite's own reward."
    )
    determinism: list[Determinism] = Field(default_factory=list)
    causes: list[CauseGroup] = Field(default_factory=list)
    targets: str | None = Field(
        default=None,
        description="The targets file the bars came from, relative to the proctor package "
        "(proctor/report/targets.toml) or the current folder, else its name: never an "
        "absolute path.",
    )
    budget_usd: float | None = Field(default=None, description="--budget, when one was set.")
    time_scale: float = Field(
        default=1.0,
        description="--time-scale: every wall limit was multiplied by it (1: unscaled).",
    )
    spent_usd: float | None = Field(
        default=None, description="$ spent by every attempt (unknown costs as 0), with a budget."
    )
