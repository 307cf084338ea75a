"""The miniwob site: the first end counts, later episodes are kept, the utterance is pinned,
the reward display is out of the agent's view, and javascript: URLs never score."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from proctor.agents import Computer, Outcome
from proctor.records import AttemptRecord
from proctor.runner import Arm, PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import (
    SUITE_ROOT,
    LoadedScenario,
    Scenario,
    dump_scenario,
    load_scenario,
    miniwob_root,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(miniwob_root() is None, reason="the miniwob package is not installed"),
]

SEQUENCE = SUITE_ROOT / "peer" / "miniwob-click-button-sequence-s1.yaml"


def _edited(tmp_path: Path, **fields: Any) -> LoadedScenario:
    import yaml

    spec = yaml.safe_load(SEQUENCE.read_text(encoding="utf-8"))
    spec.update(fields)
    path = tmp_path / f"{spec['id']}.yaml"
    path.write_text(dump_scenario(spec), encoding="utf-8")
    return load_scenario(path)


def _miniwob(record: AttemptRecord) -> dict[str, Any]:
    assert record.end_state is not None
    snapshot: dict[str, Any] = record.end_state.apps["miniwob"]
    return snapshot


async def test_only_the_first_end_counts_and_later_episodes_are_kept(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = _edited(
        tmp_path,
        solution=[
            {"op": "click", "selector": "#subbtn2"},  # TWO first, then ONE: the episode
            {"op": "click", "selector": "#subbtn"},  # ends with raw -1
            {"op": "click", "selector": "#sync-task-cover"},  # START: a second episode
            {"op": "click", "selector": "#subbtn"},
            {"op": "click", "selector": "#subbtn2"},  # done right this time: raw 1
            {"op": "done"},
        ],
    )
    record = await run_attempt(worker, PlanItem(loaded, parse_arm("scripted"), 1), write=False)
    snapshot = _miniwob(record)
    assert [(e["raw"], e["first"]) for e in snapshot["ends"]] == [(-1.0, True), (1.0, False)]
    assert snapshot["first_end"]["raw"] == -1.0
    assert record.result == "failed" and record.failed_checks == ["solved"]


async def test_a_page_whose_utterance_is_not_the_pinned_brief_is_a_setup_fault(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = _edited(tmp_path, brief="Click button TWO, then click button ONE.")
    record = await run_attempt(worker, PlanItem(loaded, parse_arm("scripted"), 1), write=False)
    assert record.result == "error"
    assert {f.kind for f in record.infra_faults} == {"setup"}
    assert record.infra_faults[0].message == (
        "the MiniWoB page's utterance 'Click button ONE, then click button TWO.' is not the "
        "brief the scenario pins ('Click button TWO, then click button ONE.'): the installed "
        "miniwob differs from the one the scenario was written against"
    )


async def test_no_end_fails_with_its_reason_and_javascript_urls_are_refused(
    worker: Worker,
) -> None:
    loaded = load_scenario(SEQUENCE)
    null = await run_attempt(worker, PlanItem(loaded, parse_arm("null"), 1), write=False)
    solved = next(c for c in null.checks if c.name == "solved")
    assert (solved.passed, solved.detail) == (False, "no episode ended")
    scripted = await run_attempt(
        worker, PlanItem(loaded, parse_arm("decoy:javascript-url"), 1), write=False
    )
    navigate = scripted.steps[0]
    assert (navigate.op, navigate.status) == ("navigate", "refused")
    assert _miniwob(scripted)["ends"] == []
    assert scripted.failed_checks == ["solved"]


class _Looker:
    """Observes once and keeps what it saw."""

    kind = "looker"

    def __init__(self) -> None:
        self.seen = ""

    async def run(self, brief: str, computer: Computer) -> Outcome:
        self.seen = (await computer.observe()).snapshot
        return Outcome(stop_reason="done")


async def test_the_agent_sees_the_task_but_not_the_reward_display(worker: Worker) -> None:
    looker = _Looker()

    def factory(scenario: Scenario) -> _Looker:
        return looker

    await run_attempt(
        worker, PlanItem(load_scenario(SEQUENCE), Arm("look", "look", factory), 1), write=False
    )
    assert "ONE" in looker.seen and "TWO" in looker.seen
    assert "Last reward" not in looker.seen and "Last 10 average" not in looker.seen
