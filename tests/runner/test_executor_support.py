"""The executor tests' comparison forgives the machine's speed and nothing else."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from executor_support import summary_without_times, without_times


def _step(**facts: Any) -> dict[str, Any]:
    return {"op": "click", "status": "ok", "seconds": 0.4, "facts": facts}


def test_a_slow_navigation_is_the_machines_not_the_runs() -> None:
    slow = _step(navigation="slow: committed after the input's own wait ran out")
    assert without_times(slow) == without_times(_step())


def test_other_step_facts_still_differ() -> None:
    assert without_times(_step(navigation="blocked")) != without_times(_step())
    assert without_times(_step(status=200)) != without_times(_step(status=404))
    assert without_times({**_step(), "status": "failed"}) != without_times(_step())


def _summary(tmp_path: Path, name: str, causes: list[dict[str, Any]]) -> Path:
    run = tmp_path / name
    run.mkdir()
    (run / "summary.json").write_text(json.dumps({"label": name, "causes": causes}))
    return run


def test_a_fault_retried_away_is_dropped_and_a_lasting_one_kept(tmp_path: Path) -> None:
    recovered = {"id": "s/a-1", "detail": "retried, then passed: try 1 browser: stalled"}
    lasting = {"id": "s/a-2", "detail": "browser: crashed on every try"}
    infra = {"cause": "infra", "attempts": [recovered]}
    assert summary_without_times(_summary(tmp_path, "a", [infra])) == summary_without_times(
        _summary(tmp_path, "b", [])
    )
    kept = {"cause": "infra", "attempts": [recovered, lasting]}
    assert summary_without_times(_summary(tmp_path, "c", [kept]))["causes"] == [
        {"cause": "infra", "attempts": [lasting]}
    ]
