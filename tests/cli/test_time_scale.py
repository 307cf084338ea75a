"""--time-scale: wall limits scaled, recorded in run.json, shown in the report, kept on resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_support import output, probe, run_args, run_proctor, write_scenario

pytestmark = pytest.mark.browser


@pytest.mark.slow
def test_a_scaled_run_says_so_everywhere_and_a_resume_cannot_change_the_scale(
    tmp_path: Path,
) -> None:
    scenarios = tmp_path / "scenarios"
    write_scenario(scenarios, probe("scaled-probe"))
    results = tmp_path / "results"
    done = run_proctor(
        *run_args(scenarios, "scaled-probe", results, "slow", "--time-scale", "2.5"), cwd=tmp_path
    )
    assert done.returncode == 0, output(done)
    run = results / "slow"
    info = json.loads((run / "run.json").read_text())
    assert info["config"]["options"]["time_scale"] == 2.5
    assert json.loads((run / "summary.json").read_text())["time_scale"] == 2.5
    for name in ("report.md", "report.html"):
        assert "wall limits scaled x2.5 (--time-scale)" in (run / name).read_text(), name
    assert "wall limits scaled x2.5" in done.stdout
    # A rebuilt report keeps it (read back from run.json).
    rebuilt = run_proctor("report", "slow", "--results", results, cwd=tmp_path)
    assert rebuilt.returncode == 0, output(rebuilt)
    assert "wall limits scaled x2.5" in (run / "report.md").read_text()
    # A resume under another scale would mix two measurements: refused, naming both.
    resumed = run_proctor(
        *run_args(scenarios, "scaled-probe", results, "slow", "--resume"), cwd=tmp_path
    )
    assert resumed.returncode == 2
    assert "time_scale: the run has 2.5, this command 1.0" in output(resumed)
    bad = run_proctor(
        *run_args(scenarios, "scaled-probe", results, "zero", "--time-scale", "0"), cwd=tmp_path
    )
    assert bad.returncode == 2 and "--time-scale" in output(bad)
