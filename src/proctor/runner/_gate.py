"""A gate job: the canary first, then both arms in one run, top-ups, and the verdict.

Arm sides run in one worker (one fixture server, one browser), in one run
folder, so that only the agent differs between them. Stored-run sides are read
as they are. The order is:

1. the harness canary, with the oracle, under its own arm ``canary`` (never a
   side's, never in a side's score); when it fails it runs once more. Two
   failures and nothing else runs: the verdict is INCONCLUSIVE.
2. every planned scenario x arm x repeat, arm order rotating by repeat.
3. top-ups, when both sides are arms: the gate scenarios the candidate did worse
   on, or with too few attempts, get seven more attempts on both sides.
4. the verdict over the gate scenarios.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from proctor.compare import (
    CANARY_ARM,
    SEED_RULES,
    Decision,
    GateRules,
    PowerReport,
    Rule,
    Side,
    TopUp,
    Verdict,
    by_scenario,
    gate_verdict,
    is_scored,
    plan_power,
    plan_top_ups,
    render_verdict,
    side_of,
)
from proctor.errors import ProctorError, RunError
from proctor.records import AttemptRecord, shared_path, write_model_atomic
from proctor.runner._attempt import run_attempt
from proctor.runner._plan import Arm, PlanItem, make_plan, oracle_factory
from proctor.runner._run import ProgressHook, driving, note_seal
from proctor.runner._sides import ArmSide, RunSide, SideSpec
from proctor.runner._worker import RunOptions, Worker
from proctor.scenario import LoadedScenario

EXIT_CODES: dict[Decision, int] = {"GO": 0, "NO-GO": 1, "INCONCLUSIVE": 3}
"""Process exit code of each decision (2 is a usage or setup error)."""

VERDICT_FILE = "gate-verdict.json"
VERDICT_VERSION = 1

Say = Callable[[str], None]
"""Prints one line of the job's story: canary, top-ups, failures."""


@dataclass(frozen=True)
class GateJob:
    """What to gate: two sides, the scenarios to run, the gate and the rules."""

    baseline: SideSpec
    candidate: SideSpec
    scenarios: Sequence[LoadedScenario]
    """Scenarios to run on arm sides, the canary excluded."""
    canary: LoadedScenario | None
    """The harness canary; None skips it (and the verdict notes it did not run)."""
    gate: Mapping[str, str]
    """gate.json's hashes: scenario id -> gated content hash."""
    repeat: int
    top_ups: bool = True
    rules: GateRules = SEED_RULES

    @property
    def arm_sides(self) -> list[ArmSide]:
        return [s for s in (self.baseline, self.candidate) if isinstance(s, ArmSide)]

    @property
    def runs_anything(self) -> bool:
        return bool(self.arm_sides)

    def check(self) -> None:
        """Refuse a job that cannot run, before anything runs.

        Raises:
            RunError: same arm names on both sides, or a decoy arm on a scenario
                without that decoy.
        """
        arms = self.arm_sides
        if len(arms) == 2 and arms[0].arm.name == arms[1].arm.name:
            raise RunError(
                f"both sides are named {arms[0].arm.name!r}; name them apart, e.g. "
                "--baseline old=scripted --candidate new=scripted"
            )
        if self.runs_anything and not self.scenarios:
            raise RunError("no scenario to run; give --tier/--only, or promote gate scenarios")
        if self.runs_anything and self.repeat < 1:
            raise RunError(f"--repeat must be at least 1, got {self.repeat}")
        for side in arms:
            kind, _, decoy = side.arm.spec.partition(":")
            if kind != "decoy":
                continue
            missing = [
                s.scenario.id
                for s in self.scenarios
                if decoy not in {d.name for d in s.scenario.decoys}
            ]
            if missing:
                raise RunError(
                    f"--{side.role} {side.arm.spec}: no decoy {decoy!r} in {', '.join(missing)}; "
                    "pick scenarios that have it with --only"
                )

    def gated_in_plan(self) -> list[str]:
        """Planned scenarios whose current content is the gated one."""
        return [s.scenario.id for s in self.scenarios if self.gate.get(s.scenario.id) == s.sha256]


def _side_attempts(side: SideSpec, job: GateJob, gated: Sequence[str]) -> int:
    if isinstance(side, ArmSide):
        return job.repeat
    groups = by_scenario(r for r in side.records if is_scored(r))
    counts = [len(groups.get(s, [])) for s in gated]
    return statistics.median_low(counts) if counts else 0


def planned_power(job: GateJob) -> PowerReport | None:
    """Power of the plan before it runs: attempts a side over the gate scenarios planned.

    For a stored-run side, its median attempts per gate scenario. None when a
    side has no attempt of any gate scenario.
    """
    if job.runs_anything:
        gated = job.gated_in_plan()
    else:
        ran = {r.scenario for s in (job.baseline, job.candidate) for r in _records(s)}
        gated = [s for s in job.gate if s in ran]
    base_n = _side_attempts(job.baseline, job, gated)
    cand_n = _side_attempts(job.candidate, job, gated)
    if base_n == 0 or cand_n == 0:
        return None
    return plan_power(base_n, cand_n, len(gated), job.rules)


def _records(side: SideSpec) -> tuple[AttemptRecord, ...]:
    return side.records if isinstance(side, RunSide) else ()


class GateVerdictFile(BaseModel):
    """gate-verdict.json: the decision, its rule and numbers, and what was compared."""

    model_config = ConfigDict(frozen=True)

    version: int = VERDICT_VERSION
    decision: Decision
    rule: Rule
    exit_code: int
    underpowered: bool
    baseline: str = Field(description="The baseline side: LABEL, LABEL/ARM or NAME (SPEC).")
    candidate: str
    run: str | None = Field(description="Label of the run this job made; None if none.")
    gate_file: str = Field(
        description="The gate file, relative to the current folder or the proctor package "
        "(e.g. proctor/suite/gate.json); never an absolute path."
    )
    gate: dict[str, str] = Field(description="gate.json's hashes the verdict used.")
    topped_up: list[TopUp] = Field(description="Top-ups that ran before the verdict.")
    text: str = Field(description="The verdict as printed.")
    verdict: Verdict


@dataclass(frozen=True)
class GateOutcome:
    """What a gate job did and decided."""

    verdict: Verdict
    records: list[AttemptRecord]
    """Attempts this job ran (empty when both sides are stored runs)."""
    topped_up: tuple[TopUp, ...]
    started_at: float
    finished_at: float

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict.decision]

    def file(self, job: GateJob, run: str | None, gate_file: Path) -> GateVerdictFile:
        return GateVerdictFile(
            decision=self.verdict.decision,
            rule=self.verdict.rule,
            exit_code=self.exit_code,
            underpowered=self.verdict.underpowered,
            baseline=job.baseline.name,
            candidate=job.candidate.name,
            run=run,
            gate_file=shared_path(gate_file),
            gate=dict(job.gate),
            topped_up=list(self.topped_up),
            text=render_verdict(self.verdict),
            verdict=self.verdict,
        )


def write_verdict(folder: Path, verdict: GateVerdictFile, name: str = VERDICT_FILE) -> Path:
    """Write the verdict (gate-verdict.json by default) into ``folder`` atomically."""
    path = folder / name
    write_model_atomic(path, verdict)
    return path


class _Job:
    """One gate job while it runs: the worker and the records so far."""

    def __init__(
        self, job: GateJob, worker: Worker, progress: ProgressHook | None, say: Say | None
    ) -> None:
        self.job = job
        self.worker = worker
        self.progress = progress
        self.say = say or (lambda line: None)
        self.records: list[AttemptRecord] = []

    async def run(self, items: Sequence[PlanItem]) -> list[AttemptRecord]:
        done = []
        for item in items:
            if self.progress:
                self.progress(item, None)
            record = await run_attempt(self.worker, item)
            done.append(record)
            if self.progress:
                self.progress(item, record)
        self.records.extend(done)
        return done

    async def canary(self, canary: LoadedScenario, stored: int) -> bool:
        """Run the canary; False when it failed too often to go on.

        It runs the oracle under its own arm: it tests the harness, not an agent,
        so no side's score holds it. A failure runs it once more.
        """
        arm = Arm(CANARY_ARM, "scripted", oracle_factory)
        limit = self.job.rules.canary_failures
        failed = 0
        for repeat in range(1, limit + 1):
            (record,) = await self.run([PlanItem(canary, arm, repeat)])
            if record.result == "passed":
                return True
            failed += 1
            if stored + failed >= limit:
                return False
            self.say(f"harness canary failed on {record.id}; running it once more")
        return stored + failed < limit

    async def top_up(self, ups: Sequence[TopUp]) -> None:
        by_id = {s.scenario.id: s for s in self.job.scenarios}
        arms = [s.arm for s in self.job.arm_sides]
        items = []
        for up in ups:
            loaded = by_id.get(up.scenario)
            if loaded is None:
                continue
            start = max((r.repeat for r in self.records if r.scenario == up.scenario), default=0)
            self.say(f"top-up: {up.scenario} +{up.attempts} a side ({up.reason})")
            items += [
                PlanItem(loaded, it.arm, start + it.repeat)
                for it in make_plan([loaded], arms, up.attempts)
            ]
        await self.run(items)


def _built(side: SideSpec, records: Sequence[AttemptRecord], failure: str | None) -> Side:
    if isinstance(side, RunSide):
        return side_of(side.name, side.records, side.failure)
    return side_of(side.name, [r for r in records if r.arm == side.arm.name], failure)


def _canary(job: GateJob, records: Sequence[AttemptRecord]) -> list[AttemptRecord]:
    """The canary's attempts: this run's, and each stored run's once."""
    out = [r for r in records if r.arm == CANARY_ARM]
    seen: set[str] = set()
    for side in (job.baseline, job.candidate):
        if isinstance(side, RunSide) and side.label not in seen:
            seen.add(side.label)
            out += side.canary
    return out


def _verdict(job: GateJob, records: Sequence[AttemptRecord], failure: str | None) -> Verdict:
    base = _built(job.baseline, records, failure)
    cand = _built(job.candidate, records, failure)
    return gate_verdict(base, cand, job.gate, job.rules, canary=_canary(job, records))


def _stored_canary_failures(job: GateJob) -> int:
    stored = [
        *_canary(job, ()),
        *(r for side in (job.baseline, job.candidate) for r in _records(side)),
    ]
    return sum(
        1 for r in stored if r.scenario == job.rules.canary and r.result in ("failed", "error")
    )


async def run_gate(
    job: GateJob,
    run_dir: Path | None,
    options: RunOptions,
    *,
    progress: ProgressHook | None = None,
    say: Say | None = None,
) -> GateOutcome:
    """Run the job's arm sides (if any) in ``run_dir`` and judge the candidate.

    A harness failure while running (the browser or the fixture server cannot
    start) does not raise: both arm sides carry it as their run failure, and
    the verdict is INCONCLUSIVE.

    Raises:
        RunError: when the job cannot run (see ``GateJob.check``), or arm sides
            are given without a run folder.
    """
    job.check()
    started = time.time()
    if not job.runs_anything:
        verdict = _verdict(job, [], None)
        return GateOutcome(verdict, [], (), started, time.time())
    if run_dir is None:
        raise RunError("a gate job with arm sides needs a run folder (--label, --results)")
    failure: str | None = None
    topped: tuple[TopUp, ...] = ()
    records: list[AttemptRecord] = []
    try:
        async with (
            driving(run_dir, keep_scratch=options.keep_scratch),
            Worker(run_dir, options) as worker,
        ):
            note_seal(run_dir, worker.seal)
            state = _Job(job, worker, progress, say)
            try:
                healthy = job.canary is None or await state.canary(
                    job.canary, _stored_canary_failures(job)
                )
                if healthy:
                    arms = [s.arm for s in job.arm_sides]
                    await state.run(make_plan(job.scenarios, arms, job.repeat))
                    if job.top_ups and len(arms) == 2:
                        base = _built(job.baseline, state.records, None)
                        cand = _built(job.candidate, state.records, None)
                        topped = plan_top_ups(base, cand, job.gate, job.rules)
                        await state.top_up(topped)
                else:
                    state.say("the harness canary failed twice; nothing else runs or is scored")
            finally:
                records = state.records
    except ProctorError as exc:
        failure = f"{type(exc).__name__}: {exc}"
        if say:
            say(f"the run failed: {failure}")
    scratch = run_dir / "scratch"
    if scratch.is_dir() and not any(scratch.iterdir()):
        scratch.rmdir()
    verdict = _verdict(job, records, failure)
    return GateOutcome(verdict, records, topped, started, time.time())
