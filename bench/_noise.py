"""The load bench's figures, read from attempt records: false failures, infra faults,
the first action's latency against later ones, and the A/B of the spare modes.

Pure functions over ``attempt.json`` files: nothing here runs or times anything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import median

from proctor.records import AttemptRecord, Step

NOT_ACTIONS = frozenset({"done", "wait", "restart", "ask_user", "request_approval", "schedule"})
"""Steps that are not an action on the computer, or whose latency is the scenario's by
design (``wait`` waits for the page, the user ops for the simulated user): left out of
the latency figures."""
LATENCY_TARGET = 1.2
"""The first action's median latency may be at most this multiple of later actions'."""
ATTEMPTS_TARGET = 300
"""The issue's bar: 0 false failures in at least this many oracle attempts."""


@dataclass(frozen=True)
class Attempt:
    """One oracle attempt as the bench reads it."""

    mode: str
    """The spare mode it ran under (PROCTOR_SPARE)."""
    label: str
    """The run's label."""
    record: AttemptRecord

    @property
    def surface(self) -> str:
        return "desktop" if self.record.tier == "desktop" else "browser"


def read_attempts(run_dir: Path, mode: str) -> list[Attempt]:
    """Every attempt.json of one run folder, in path order."""
    return [
        Attempt(mode, run_dir.name, AttemptRecord.model_validate_json(path.read_bytes()))
        for path in sorted(run_dir.glob("attempts/*/*/attempt.json"))
    ]


def actions(steps: Sequence[Step]) -> list[Step]:
    """The steps that act on the computer (``NOT_ACTIONS`` left out), in order."""
    return [s for s in steps if s.op not in NOT_ACTIONS]


@dataclass(frozen=True)
class Latency:
    """Medians of the first action's latency and of later ones' (ms), over attempts with
    at least two actions, so both sides come from the same attempts."""

    attempts: int
    first_ms: float
    later_ms: float

    @property
    def ratio(self) -> float:
        return self.first_ms / self.later_ms if self.later_ms > 0 else float("inf")


def latency(attempts: Iterable[Attempt]) -> Latency | None:
    """First against later actions of the graded attempts; None when none has two actions."""
    firsts: list[float] = []
    laters: list[float] = []
    for attempt in attempts:
        if attempt.record.result not in ("passed", "failed"):
            continue
        acts = actions(attempt.record.steps)
        if len(acts) < 2:
            continue
        firsts.append(acts[0].latency_ms)
        laters.extend(s.latency_ms for s in acts[1:])
    if not firsts:
        return None
    return Latency(len(firsts), median(firsts), median(laters))


def by_op(attempts: Iterable[Attempt]) -> dict[str, tuple[float, float]]:
    """Per op, the median latency (ms) of first actions against later ones of that op,
    over the same attempts as ``latency``: whether a first action is slow for being
    first or for being a slower kind of action. Ops seen on only one side are left out."""
    firsts: dict[str, list[float]] = {}
    laters: dict[str, list[float]] = {}
    for attempt in attempts:
        acts = actions(attempt.record.steps)
        if attempt.record.result not in ("passed", "failed") or len(acts) < 2:
            continue
        firsts.setdefault(acts[0].op, []).append(acts[0].latency_ms)
        for step in acts[1:]:
            laters.setdefault(step.op, []).append(step.latency_ms)
    return {
        op: (median(firsts[op]), median(laters[op])) for op in sorted(set(firsts) & set(laters))
    }


@dataclass(frozen=True)
class FalseFailure:
    """An oracle scored failed: never the agent's fault."""

    label: str
    attempt: str
    checks: list[str]
    """Each failed check as ``name: detail``."""
    stop: str
    """The stop reason, and the failed step's error when one failed."""


def false_failures(attempts: Iterable[Attempt]) -> list[FalseFailure]:
    out: list[FalseFailure] = []
    for attempt in attempts:
        rec = attempt.record
        if rec.result != "failed":
            continue
        checks = [f"{c.name}: {c.detail}".rstrip(": ") for c in rec.checks if not c.passed]
        failed = [s for s in rec.steps if s.status != "ok"]
        stop: str = rec.stop_reason
        if failed:
            stop += f" at step {failed[0].index} ({failed[0].op}): {failed[0].error or ''}"
        elif rec.error:
            stop += f": {rec.error}"
        out.append(FalseFailure(attempt.label, rec.id, checks, first_line(stop)))
    return out


def first_line(text: str, width: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= width else line[: width - 1] + "…"


@dataclass(frozen=True)
class Faults:
    """Infra faults: tries that faulted and were retried (fine), and attempts no try graded."""

    tries: int
    attempts: int
    kinds: dict[str, int]
    errors: list[str]
    """Ids of attempts that ended ``error`` (every try faulted), with the last message."""


def faults(attempts: Iterable[Attempt]) -> Faults:
    kinds: Counter[str] = Counter()
    hit = 0
    errors: list[str] = []
    for attempt in attempts:
        rec = attempt.record
        kinds.update(f.kind for f in rec.infra_faults)
        hit += bool(rec.infra_faults)
        if rec.result == "error":
            errors.append(f"{attempt.label}/{rec.id}: {first_line(rec.error or '')}")
    return Faults(sum(kinds.values()), hit, dict(sorted(kinds.items())), errors)


@dataclass(frozen=True)
class ModeFigures:
    """One spare mode's figures over every attempt run under it."""

    mode: str
    scored: int
    """Attempts graded passed or failed."""
    skipped: int
    false: list[FalseFailure]
    faults: Faults
    latency: dict[str, Latency | None]
    """Per surface (browser, desktop)."""
    ops: dict[str, tuple[float, float]]
    """``by_op`` of the browser attempts."""
    attempt_s: float
    """Median seconds of a graded attempt (its record's ``seconds``: every phase)."""
    setup_s: float
    agent_s: float
    wall_s: float
    """Seconds of the ``proctor run`` legs under this mode, in all."""

    @property
    def wall_per_attempt(self) -> float:
        done = self.scored + len(self.faults.errors)
        return self.wall_s / done if done else float("nan")


def figures(mode: str, attempts: Sequence[Attempt], wall_s: float) -> ModeFigures:
    graded = [a for a in attempts if a.record.result in ("passed", "failed")]
    timed = graded or list(attempts)

    def med(values: list[float]) -> float:
        return median(values) if values else float("nan")

    return ModeFigures(
        mode=mode,
        scored=len(graded),
        skipped=sum(a.record.result == "skipped" for a in attempts),
        false=false_failures(attempts),
        faults=faults(attempts),
        latency={
            surface: latency(a for a in attempts if a.surface == surface)
            for surface in ("browser", "desktop")
        },
        ops=by_op(a for a in attempts if a.surface == "browser"),
        attempt_s=med([a.record.seconds for a in timed]),
        setup_s=med([a.record.timings.get("setup", 0.0) for a in timed]),
        agent_s=med([a.record.agent_seconds for a in timed]),
        wall_s=wall_s,
    )


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b > 0 else "n/a"


def render_mode(fig: ModeFigures) -> list[str]:
    total = fig.scored
    goal = "met" if total >= ATTEMPTS_TARGET and not fig.false else "not met"
    lines = [
        f"mode {fig.mode}: {total} oracle attempts graded, {fig.skipped} skipped",
        f"  false failures: {len(fig.false)} of {total} (goal 0 in >= {ATTEMPTS_TARGET}: {goal})",
    ]
    for ff in fig.false:
        lines.append(f"    {ff.label}/{ff.attempt}: {ff.stop}")
        lines.extend(f"      failed check {c}" for c in ff.checks)
    kinds = ", ".join(f"{k} {n}" for k, n in fig.faults.kinds.items()) or "none"
    lines.append(
        f"  infra faults: {fig.faults.tries} retried tries in {fig.faults.attempts} "
        f"attempts ({kinds}); {len(fig.faults.errors)} attempts ended in error"
    )
    lines.extend(f"    error {e}" for e in fig.faults.errors)
    for surface, lat in fig.latency.items():
        if lat is None:
            lines.append(f"  first/later action ({surface}): n/a (no attempt with 2 actions)")
            continue
        met = "met" if lat.ratio <= LATENCY_TARGET else "not met"
        lines.append(
            f"  first/later action ({surface}): {lat.ratio:.2f} "
            f"(goal <= {LATENCY_TARGET:.2f}: {met}; medians {lat.first_ms:.0f} ms vs "
            f"{lat.later_ms:.0f} ms over {lat.attempts} attempts)"
        )
    if fig.ops:
        cells = [f"{op} {first / later:.2f}" for op, (first, later) in fig.ops.items()]
        lines.append(f"  first/later action by op (browser): {', '.join(cells)}")
    return lines


def render_ab(figs: Sequence[ModeFigures]) -> list[str]:
    """Each mode against the first: medians of attempt, setup and agent time, the legs'
    wall time per attempt, and the first/later latency ratio."""
    base = figs[0]
    lines = [f"A/B against mode {base.mode} (ratios of medians; < 1 is faster):"]
    for fig in figs[1:]:
        lines.append(
            f"  {fig.mode}/{base.mode}: attempt {_ratio(fig.attempt_s, base.attempt_s)}, "
            f"setup {_ratio(fig.setup_s, base.setup_s)}, "
            f"agent {_ratio(fig.agent_s, base.agent_s)}, "
            f"run wall per attempt {_ratio(fig.wall_per_attempt, base.wall_per_attempt)}"
        )
    lines.append("  medians per mode (s): attempt / setup / agent / run wall per attempt")
    for fig in figs:
        lines.append(
            f"    {fig.mode:6} {fig.attempt_s:.2f} / {fig.setup_s:.2f} / {fig.agent_s:.2f} "
            f"/ {fig.wall_per_attempt:.2f}"
        )
    return lines
