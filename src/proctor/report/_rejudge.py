"""Rejudge: only the judge, run again on a stored run's end states, into a new label.

The scenario's ``judge:`` criteria (as the catalog has them now, placeholders resolved
with the attempt's own values) go to another judge with each attempt's stored end
state; the copy's records carry the new verdicts and nothing else changes: checks,
results, steps and artefacts are the stored ones. The old label is never touched.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from proctor.errors import RunError
from proctor.grading import Judge
from proctor.records import SCHEMA_VERSION, AttemptRecord
from proctor.report._load import StoredRun
from proctor.report._regrade import Regraded, write_regraded
from proctor.scenario import JudgeCriterion, LoadedScenario, Scenario, resolve

JUDGED = ("passed", "failed")
"""Results with an end state to judge; skipped and infra-error attempts keep theirs."""


def criteria_of(record: AttemptRecord, loaded: LoadedScenario) -> list[JudgeCriterion]:
    """The scenario's judge criteria with the attempt's placeholder values resolved."""
    scenario: Scenario = resolve(loaded.scenario, dict(record.end_state.placeholders))
    return list(scenario.judge)


async def rejudge_run(
    run: StoredRun, scenarios: Mapping[str, LoadedScenario], judge: Judge
) -> list[Regraded]:
    """Every attempt of ``run`` with the judge's new verdicts (before, after).

    An attempt without an end state (skipped, infra error) is kept as it is, and so is
    one whose scenario has no ``judge:`` criteria now (its verdicts become none).

    Raises:
        RunError: naming every scenario of the run that is no longer in the catalog.
    """
    missing = sorted({r.scenario for r in run.records if r.scenario not in scenarios})
    if missing:
        raise RunError(
            f"cannot rejudge {run.label}: scenario(s) no longer in the catalog: "
            f"{', '.join(missing)}; restore the file(s), or pass --scenarios DIR holding them"
        )
    out = []
    for record in run.records:
        if record.result not in JUDGED:
            out.append(Regraded(record, record))
            continue
        criteria = criteria_of(record, scenarios[record.scenario])
        verdicts = await judge(criteria, record.end_state) if criteria else []
        after = record.model_copy(update={"judge": verdicts, "version": SCHEMA_VERSION})
        out.append(Regraded(record, after))
    return out


def write_rejudged(
    results: Path, run: StoredRun, label: str, rejudged: Sequence[Regraded], spec: str
) -> Path:
    """A new run folder ``label``: the rejudged records, the original artefacts, run.json
    noting where it came from and which judge ran.

    Raises:
        RunError: when ``label`` exists (a label is never overwritten).
    """
    options = run.info.config.get("options") if run.info is not None else None
    provenance = {
        "rejudged_from": run.label,
        "rejudged_at": time.time(),
        "options": {**(options if isinstance(options, dict) else {}), "judge": spec},
    }
    return write_regraded(results, run, label, rejudged, provenance=provenance)
