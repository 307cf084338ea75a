"""``proctor.gate()`` called directly decides what ``proctor gate`` prints for the same inputs.

Two small jobs on the probe scenario (one repeat a side, no top-ups: the canary and two
attempts each), one through the API and one through the CLI in this process.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import proctor
from cli_support import probe, write_scenario
from proctor.api import Gate, GateSpec, RunSettings
from proctor.cli import app
from proctor.compare import GateEntry, GateFile, render_verdict, save_gate
from proctor.errors import RunError
from proctor.runner import RunOptions
from proctor.scenario import load_scenario
from proctor.world import all_sites

SID = "gate-api-probe"


def gate_file(folder: Path, scenario: Path) -> Path:
    """A gate.json listing ``scenario`` at its current hash."""
    loaded = load_scenario(scenario, set(all_sites()))
    entry = GateEntry(
        scenario=SID, sha256=loaded.sha256, proven_by="test", attempts=5, promoted_at=0.0
    )
    path = folder / "gate.json"
    save_gate(path, GateFile(scenarios=(entry,)))
    return path


@pytest.mark.browser
def test_the_api_returns_the_verdict_the_cli_prints(tmp_path: Path) -> None:
    scenario = write_scenario(tmp_path / "scenarios", probe(SID))
    gate = gate_file(tmp_path, scenario)
    results = tmp_path / "results"
    spec = GateSpec(gate_file=gate, only=(SID,), folders=(scenario.parent,), top_ups=False)
    settings = RunSettings(
        repeat=1,
        results=results,
        label="api",
        options=RunOptions(screenshots=False, retry_delays=(0.0,)),
    )
    result = asyncio.run(proctor.gate("scripted", "decoy:wrong-answer", spec, settings))

    printed = CliRunner().invoke(
        app,
        [
            "gate", "--baseline", "scripted", "--candidate", "decoy:wrong-answer",
            "--scenarios", str(scenario.parent), "--only", SID, "--gate", str(gate),
            "--results", str(results), "--label", "cli", "--repeat", "1", "--no-top-ups",
        ],
    )  # fmt: skip
    assert printed.exit_code == result.exit_code == 3, printed.output  # underpowered
    assert render_verdict(result.verdict) in printed.output
    assert result.verdict.decision == "INCONCLUSIVE"
    assert (result.run, result.verdict_file) == ("api", results / "api" / "gate-verdict.json")
    assert sorted(r.id for r in result.outcome.records) == [
        f"{SID}/baseline-1",
        f"{SID}/candidate-1",
        "harness-canary/canary-1",
    ]
    stored = {
        side: json.loads((results / side / "gate-verdict.json").read_text())
        for side in ("api", "cli")
    }
    assert stored["api"]["text"] == stored["cli"]["text"] == render_verdict(result.verdict)
    assert result.reports is not None and (results / "api" / "report.html").is_file()


def test_a_gate_refuses_settings_it_cannot_honour(tmp_path: Path) -> None:
    settings = RunSettings(results=tmp_path, executor="pool", budget_usd=1.0)
    with pytest.raises(RunError, match=r"cannot honour executor, budget_usd; leave them"):
        Gate.open("scripted", "null", settings=settings)
    assert list(tmp_path.iterdir()) == []
