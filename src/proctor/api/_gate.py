"""The gate API: GO / NO-GO / INCONCLUSIVE for a candidate against a baseline.

``proctor gate`` and ``proctor refs`` go through it, and so can a script::

    import asyncio, proctor
    spec = proctor.GateSpec(only=("delayed-modal",))
    settings = proctor.RunSettings(repeat=5, label="gate-nightly")
    result = asyncio.run(proctor.gate("scripted", "mine=command:./agent.sh", spec, settings))
    print(result.verdict.decision, result.verdict_file, result.exit_code)

``Gate.open`` plans and prints nothing (a dry run stops there); ``Gate.begin`` makes
the run folder the arm sides run in; ``Gate.execute`` runs the job (the canary first,
then every scenario x arm x repeat, then top-ups) and writes the verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from proctor.api._folder import Reports, RunFolder
from proctor.api._settings import RunSettings, refuse_unhonoured
from proctor.compare import (
    CANARY,
    SEED_RULES,
    PowerReport,
    Removal,
    ScenarioInfo,
    Verdict,
    invalidate_edited,
    keep_scenarios,
    load_gate,
)
from proctor.records import check_label
from proctor.runner import ProgressHook
from proctor.runner.gate import (
    GateJob,
    GateOutcome,
    RunSide,
    SideSpec,
    planned_power,
    resolve_side,
    run_gate,
    write_verdict,
)
from proctor.scenario import SUITE_ROOT, Catalog, load_catalog, scenario_files
from proctor.vocab import SideRole
from proctor.world import all_sites

SHIPPED_GATE = SUITE_ROOT / "gate.json"
"""The gate file that ships with proctor: the suite's regression scenarios, proven."""
LOCAL_GATE = Path("gate.json")
"""The working folder's gate file, which ``proctor promote`` writes."""

Say = Callable[[str], None]
"""Prints one line of the job's story: the canary, top-ups, a run that failed."""

_NOT_FOR_GATE = (
    "resume", "vision", "prices", "judge", "persona", "strict", "reports",
    "executor", "workers", "ray_address", "budget_usd",
)  # fmt: skip
"""Settings a gate cannot honour: it runs inline, in one new run, and always reports."""


def resolve_gate(given: Path | None) -> Path:
    """The gate file to read: ``given``, else ./gate.json when it exists, else the shipped one.

    Resolved when a gate is planned, so a ./gate.json made by ``proctor promote``
    wins over the shipped file from then on.
    """
    if given is not None:
        return given
    return LOCAL_GATE if LOCAL_GATE.exists() else SHIPPED_GATE


def catalog_for(folders: Sequence[Path], ids: Collection[str] | None) -> Catalog:
    """The catalog, loading only the files of ``ids`` (a scenario's id is its file name).

    Loading every file parses the whole suite; a gate names its scenarios, so it
    reads just those. ``ids`` None loads everything (e.g. for a tier).
    """
    if ids is None:
        return load_catalog(list(folders), sites=set(all_sites()))
    files = [f for f in scenario_files(folders) if f.stem in ids]
    return load_catalog(files, sites=set(all_sites()), shipped=False)


@dataclass(frozen=True, kw_only=True)
class GateSpec:
    """What a gate judges on: the gate file, the scenarios, and the job's own options."""

    gate_file: Path | None = None
    """None: ./gate.json when it exists, else the one shipped with proctor."""
    tiers: tuple[str, ...] = ()
    only: tuple[str, ...] = ()
    capabilities: tuple[str, ...] = ()
    """Without tiers, only or capabilities, the gate file's scenarios run."""
    folders: tuple[Path, ...] = ()
    """Scenario folders or files beside the shipped suite."""
    top_ups: bool = True
    """Give gate scenarios that dropped or ran too few attempts 7 more on both sides."""
    require_power: bool = False
    """A GO from a plan too small to ever reach NO-GO by rule (a) is INCONCLUSIVE."""


@dataclass(frozen=True)
class GateResult:
    """What a gate job ran, decided and wrote."""

    outcome: GateOutcome
    verdict_file: Path
    """gate-verdict.json in the new run's folder; for two stored runs,
    gate-verdict-vs-BASELINE.json in the candidate run's folder."""
    run: str | None
    """The label of the run the job made; None when both sides are stored runs."""
    reports: Reports | None
    """The new run's summary and reports; None when it made no run."""

    @property
    def verdict(self) -> Verdict:
        return self.outcome.verdict

    @property
    def exit_code(self) -> int:
        """0 GO, 1 NO-GO, 3 INCONCLUSIVE."""
        return self.outcome.exit_code


def _side(role: SideRole, side: SideSpec | str, results: Path) -> SideSpec:
    return resolve_side(role, side, results) if isinstance(side, str) else side


@dataclass(frozen=True)
class Gate:
    """A gate job planned, nothing run or written yet; ``await gate.execute()`` judges it."""

    job: GateJob
    gate_file: Path
    removed: tuple[Removal, ...] = ()
    """Entries of the gate file that do not gate: their scenario was edited or is gone."""
    power: PowerReport | None = None
    """What the plan can detect; None when a side has no attempt of a gate scenario."""
    spec: GateSpec = field(default_factory=GateSpec)
    settings: RunSettings = field(default_factory=RunSettings)

    @property
    def attempts(self) -> int:
        """Attempts the plan holds, the canary and top-ups left out."""
        return len(self.job.scenarios) * len(self.job.arm_sides) * self.job.repeat

    @classmethod
    def open(
        cls,
        baseline: SideSpec | str,
        candidate: SideSpec | str,
        spec: GateSpec | None = None,
        settings: RunSettings | None = None,
    ) -> Gate:
        """Resolve the sides, read the gate file, pick the scenarios and plan the job.

        A side's text is a run label under ``settings.results`` (``LABEL`` or
        ``LABEL/ARM``) or an arm spec (``scripted``, ``NAME=SPEC``, ...). Without
        ``spec.tiers``, ``only`` or ``capabilities`` the gate file's scenarios whose
        content is the gated one are planned; stored-run sides keep only the planned
        scenarios' attempts when a selection is given.

        Raises:
            RunError: a side that is neither a run nor an arm spec, a bad label, the
                same arm name on both sides, no scenario to run, a decoy a scenario
                lacks, or a setting a gate cannot honour.
            ScenarioError: a scenario file that does not load, an unknown id.
        """
        spec = spec or GateSpec()
        settings = settings or RunSettings()
        refuse_unhonoured(settings, _NOT_FOR_GATE, "a gate (one inline run, always reported)")
        base = _side("baseline", baseline, settings.results)
        cand = _side("candidate", candidate, settings.results)
        if settings.label is not None:
            check_label(settings.label)
        gate_file = resolve_gate(spec.gate_file)
        gate = load_gate(gate_file)
        only = list(spec.only)
        chosen = bool(spec.tiers or only or spec.capabilities)
        wanted = None if spec.tiers or spec.capabilities else {CANARY, *gate.hashes(), *only}
        cat = catalog_for(spec.folders, wanted)
        if not set(only) <= cat.scenarios.keys():
            cat = catalog_for(spec.folders, None)  # the whole suite: only's error suggests ids
        current = {sid: ScenarioInfo.of(loaded) for sid, loaded in cat.scenarios.items()}
        removed = tuple(invalidate_edited(gate, current).removed)
        if chosen:
            picked = cat.select(
                tiers=list(spec.tiers), only=only, capabilities=list(spec.capabilities)
            )
        else:
            picked = [cat.scenarios[sid] for sid in sorted(gate.active(current))]
        planned = [p for p in picked if p.scenario.id != CANARY]
        ids = {p.scenario.id for p in planned} if chosen else None
        sides = [
            replace(s, records=tuple(keep_scenarios(s.records, ids)))
            if isinstance(s, RunSide)
            else s
            for s in (base, cand)
        ]
        job = GateJob(
            baseline=sides[0],
            candidate=sides[1],
            scenarios=planned,
            canary=cat.scenarios.get(CANARY),
            gate=gate.hashes(),
            repeat=settings.repeat,
            top_ups=spec.top_ups,
            rules=replace(SEED_RULES, require_power=spec.require_power),
        )
        job.check()
        return cls(job, gate_file, removed, planned_power(job), spec, settings)

    def begin(self) -> RunFolder | None:
        """Make the run folder the arm sides run in and write its run.json; None when both
        sides are stored runs (nothing runs).

        Raises:
            RunError: the label exists or breaks the label rule.
            StorageError: the results folder cannot be written.
        """
        job, settings = self.job, self.settings
        if not job.runs_anything:
            return None
        config = {
            **settings.config,
            "command": "gate",
            "baseline": job.baseline.name,
            "candidate": job.candidate.name,
            "arms": [f"{s.arm.name}={s.arm.spec}" for s in job.arm_sides],
            "repeat": job.repeat,
            "scenarios": [p.scenario.id for p in job.scenarios],
            "gate": str(self.gate_file),
            "top_ups": job.top_ups,
            "tiers": list(self.spec.tiers),
            "only": list(self.spec.only),
            "options": settings.options.__dict__,
        }
        return RunFolder.create(settings.results, settings.label, config)

    async def execute(
        self,
        folder: RunFolder | None = None,
        *,
        progress: ProgressHook | None = None,
        say: Say | None = None,
    ) -> GateResult:
        """Run the arm sides (if any) in ``folder``, judge, and write the verdict and reports.

        ``folder`` is the one ``begin`` made; None makes it here when arm sides run.
        ``progress`` is called as each attempt starts and ends, ``say`` with each line
        of the job's story. A harness that fails while running makes the verdict
        INCONCLUSIVE; it does not raise.

        Raises:
            RunError: the label exists (when the folder is made here).
            StorageError: the results folder cannot be written.
        """
        job, options = self.job, self.settings.options
        if not job.runs_anything:
            outcome = await run_gate(job, None, options)
            cand = job.candidate
            assert isinstance(cand, RunSide)
            # The candidate run's own gate-verdict.json (if a gate job made it) stays as it was.
            name = f"gate-verdict-vs-{job.baseline.name.replace('/', '-')}.json"
            verdict = outcome.file(job, None, self.gate_file)
            path = write_verdict(self.settings.results / cand.label, verdict, name)
            return GateResult(outcome, path, None, None)
        folder = folder or self.begin()
        assert folder is not None
        # A leg as `proctor run` has: `tail`, `runs` and `cleanup` see the driver at work.
        folder.begin_leg("inline", 1)
        try:
            outcome = await run_gate(job, folder.path, options, progress=progress, say=say)
        finally:
            folder.end_leg()
        # The verdict first: report.html shows it (its gate block) from the run folder.
        path = write_verdict(folder.path, outcome.file(job, folder.label, self.gate_file))
        reports = folder.finish(
            outcome.records,
            outcome.started_at,
            outcome.finished_at,
            self.settings.targets,
            time_scale=options.time_scale,
        )
        return GateResult(outcome, path, folder.label, reports)


async def gate(
    baseline: SideSpec | str,
    candidate: SideSpec | str,
    spec: GateSpec | None = None,
    settings: RunSettings | None = None,
    *,
    progress: ProgressHook | None = None,
    say: Say | None = None,
) -> GateResult:
    """Plan, run and judge a candidate against a baseline: ``Gate.open`` then ``execute``.

    Arm sides run together in one new run (``results/<label>/``, a normal run with
    its reports); two stored runs are judged as they are.
    """
    return await Gate.open(baseline, candidate, spec, settings).execute(progress=progress, say=say)
