"""Peer suites in a run's summary: each arm graded by the suite's own reward."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean
from typing import Any

from proctor.records import AttemptRecord, PeerRow
from proctor.report._metrics import wilson


def _first_end(record: AttemptRecord) -> dict[str, Any] | None:
    if record.end_state is None:
        return None
    snapshot = record.end_state.apps.get("miniwob")
    first = snapshot.get("first_end") if isinstance(snapshot, dict) else None
    return first if isinstance(first, dict) else None


def peer_rows(records: Sequence[AttemptRecord]) -> list[PeerRow]:
    """One row per arm that ran MiniWoB++ scenarios, over its scored attempts."""
    by_arm: dict[str, list[AttemptRecord]] = {}
    for record in records:
        if record.result not in ("passed", "failed") or record.end_state is None:
            continue
        if "miniwob" not in record.end_state.apps:
            continue
        by_arm.setdefault(record.arm, []).append(record)
    rows = []
    for arm, arm_records in sorted(by_arm.items()):
        ends = [_first_end(r) for r in arm_records]
        raws = [float(e["raw"]) if e and e.get("raw") is not None else 0.0 for e in ends]
        rewards = [float(e["reward"]) if e and e.get("reward") is not None else 0.0 for e in ends]
        n = len(arm_records)
        solved = sum(raw == 1.0 for raw in raws)
        ci = wilson(solved, n)
        rows.append(
            PeerRow(
                suite="miniwob",
                arm=arm,
                episodes=n,
                ended=sum(e is not None for e in ends),
                success=solved / n if n else None,
                success_low=ci[0] if ci else None,
                success_high=ci[1] if ci else None,
                mean_raw=fmean(raws) if raws else None,
                mean_reward=fmean(rewards) if rewards else None,
                browsergym=sum(raw > 0 for raw in raws) / n if n else None,
            )
        )
    return rows
