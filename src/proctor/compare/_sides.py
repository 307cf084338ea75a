"""Gate sides from records: what a side ran, and which records a gate keeps."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from proctor.compare._results import Side
from proctor.compare._rules import CANARY
from proctor.records import AttemptRecord


def keep_scenarios(
    records: Sequence[AttemptRecord], scenarios: Collection[str] | None
) -> list[AttemptRecord]:
    """The records of ``scenarios`` and the canary; all of them when ``scenarios`` is None."""
    if scenarios is None:
        return list(records)
    return [r for r in records if r.scenario in scenarios or r.scenario == CANARY]


def side_of(name: str, records: Sequence[AttemptRecord], failure: str | None = None) -> Side:
    """A gate side from records: the models and judge they ran are read from them."""
    models = tuple(sorted({r.model for r in records if r.model}))
    judges = sorted({v.model for r in records for v in r.judge})
    return Side(
        label=name,
        records=tuple(records),
        models=models,
        judge=", ".join(judges) if judges else None,
        failure=failure,
    )
