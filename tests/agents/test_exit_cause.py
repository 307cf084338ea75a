"""How real agents' stops read as failure causes: an exit without done is not a guard stop."""

from __future__ import annotations

from pathlib import Path

import pytest

from proctor.report import cause_of, failure_causes
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import load_scenario
from proctor.world import all_sites

pytestmark = pytest.mark.browser

SCENARIO = """\
id: exits-early
title: Open the contact page and finish
tier: local
category: regression
brief: Look at {site.forms}/contact, then call done.
world:
  sites: [forms]
  browser: {start: "{site.forms}/contact"}
checks:
  - stop_reason: {equals: done}
solution:
  - {op: done}
decoys:
  - name: gives-up
    steps: [{op: wait, ms: 1}]
    fails: [stop_reason]
"""


async def test_a_command_that_exits_without_done_ended_without_done(
    worker: Worker, tmp_path: Path
) -> None:
    path = tmp_path / "exits-early.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    loaded = load_scenario(path, set(all_sites()))
    arm = parse_arm("quitter=command:exit 0")
    record = await run_attempt(worker, PlanItem(loaded, arm, 1), write=False)
    assert (record.result, record.stop_reason, record.exit_code) == ("failed", "exited", 0)
    found = cause_of(record)
    assert found is not None
    assert (found.cause, found.guard, found.detail) == (
        "no_done",
        "exited",
        "the command exited without calling done; no action taken",
    )
    assert [g.label for g in failure_causes([record])] == ["ended without done: exited"]


async def test_a_command_that_crashes_is_agent_crashed_with_its_code_and_stderr(
    worker: Worker, tmp_path: Path
) -> None:
    path = tmp_path / "exits-early.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    loaded = load_scenario(path, set(all_sites()))
    arm = parse_arm(
        "crasher=command:echo 'ModuleNotFoundError: No module named agentlib' >&2; exit 1"
    )
    record = await run_attempt(worker, PlanItem(loaded, arm, 1), write=False)
    found = cause_of(record)
    assert found is not None and found.cause == "agent_crashed"
    assert found.detail == (
        "the command exited without calling done (exit 1); "
        "stderr: ModuleNotFoundError: No module named agentlib"
    )
    assert [g.label for g in failure_causes([record])] == ["agent crashed"]
