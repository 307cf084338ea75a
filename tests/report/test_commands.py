"""proctor report / runs / diagnose / compare over constructed runs, and report.md's tables."""

from __future__ import annotations

import json
import os
import webbrowser
from pathlib import Path

import pytest
from report_records import failing_check, make, step, write_run, write_run_info
from typer.testing import CliRunner

from proctor.cli import app
from proctor.errors import RunError
from proctor.records import AttemptRecord, Leg, RunInfo, RunSummary, write_model_atomic
from proctor.report import compare, render_markdown, summarize, when

STEPS = [step(0, "navigate", "url /a"), step(1, "click", "button 'Go'")]


def _in_order(records: list[AttemptRecord]) -> list[AttemptRecord]:
    """Give records increasing start times, as a run would, so rows keep this order on disk."""
    return [r.model_copy(update={"started_at": 1700000000.0 + i}) for i, r in enumerate(records)]


def _run_a() -> list[AttemptRecord]:
    return _in_order([
        make("alpha", "oracle", 1, "passed", steps=STEPS, seconds=2.0, cost_usd=0.0),
        make("beta", "oracle", 1, "passed", steps=STEPS, seconds=4.0, cost_usd=0.0),
        make("alpha", "agent", 1, "passed", steps=STEPS, cost_usd=0.02, planner_calls=2),
        make("beta", "agent", 1, "failed", steps=STEPS, cost_usd=0.04, planner_calls=4,
             checks=[failing_check()], failed_checks=["submitted"], stop_reason="done"),
    ])  # fmt: skip


def _run_b() -> list[AttemptRecord]:
    return _in_order([
        make("alpha", "oracle", 1, "passed", steps=STEPS, seconds=2.0, cost_usd=0.0),
        make("beta", "oracle", 1, "passed", steps=STEPS, seconds=4.0, cost_usd=0.0),
        make("alpha", "agent", 1, "failed", steps=STEPS, cost_usd=0.03, planner_calls=3,
             stop_reason="no_progress"),
        make("beta", "agent", 1, "passed", steps=STEPS, cost_usd=0.01, planner_calls=1),
    ])  # fmt: skip


def test_report_md_results_bars_grid_and_causes() -> None:
    records = _run_a()
    text = render_markdown(summarize("a", records, 1700000000.0, 1700000010.0), records)
    lines = text.splitlines()
    results = lines.index("## Results")
    assert lines[results + 2 : results + 6] == [
        "| arm | scenarios | scored | success [95% CI] | pass^1 | med calls | med tokens | med $ "
        "| med time | flip rate | infra | faults |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        # The scripted oracle has no model and reports no usage: – there, never 0 or $0.
        "| oracle | 2 | 2 | 100% [34.2–100.0] | 100% | – | – | – | 3 s | n/a | 0 | 0 |",
        "| agent | 2 | 2 | 50% [9.5–90.5] | 50% | 3 | 0 | $0.03 | 1 s | n/a | 0 | 0 |",
    ]
    bars = lines.index("| arm | success ≥ 90% | pass^3 ≥ 80% | planner calls ≤ 3 | $ ≤ $0.05 "
                       "| time < 120 s | met |")  # fmt: skip
    assert lines[bars + 2 : bars + 4] == [
        "| oracle | ✓ 100% | – | – | – | ✓ 3 s | 2/2 |",
        "| agent | ✗ 50% | – | ✓ 3 | ✓ $0.03 | ✓ 1 s | 3/4 |",
    ]
    grid = lines.index("## Scenario x arm")
    assert lines[grid + 2 : grid + 6] == [
        "| scenario | oracle | agent |",
        "|---|---|---|",
        "| alpha | ✓ 1/1 | ✓ 1/1 |",
        "| beta | ✓ 1/1 | ✗ 0/1 |",
    ]
    causes = lines.index("### wrong outcome (1)")
    assert lines[causes + 1] == (
        "- `attempts/beta/agent-1`: check submitted: no accepted post to /submit/contact; "
        'expected {"route": "contact", "count": "exactly 1"}; '
        "no tool error"
    )
    assert "No scenario ran 3 or more times per arm." in lines


def test_compare_marks_what_changed() -> None:
    a = summarize("a", _run_a(), 0.0, 1.0)
    b = summarize("b", _run_b(), 0.0, 1.0)
    result = compare(a, b)
    # Largest change first; ties keep A's order.
    assert [(s.scenario, s.row, s.a, s.b, s.mark, s.change) for s in result.scenarios] == [
        ("alpha", "agent", "✓ 1/1", "✗ 0/1", "▼ broke", -1.0),
        ("beta", "agent", "✗ 0/1", "✓ 1/1", "▲ fixed", 1.0),
        ("alpha", "oracle", "✓ 1/1", "✓ 1/1", "", 0.0),
        ("beta", "oracle", "✓ 1/1", "✓ 1/1", "", 0.0),
    ]
    oracle, agent = result.rows
    assert not oracle.changed
    cells = {c.metric: (c.a, c.b, c.mark) for c in agent.cells}
    assert cells["success"] == ("50%", "50%", "")
    assert cells["med $"] == ("$0.03", "$0.02", "▲")  # ▲ = better: lower $ per task
    assert cells["med calls"] == ("3", "2", "▲")


def _write(results: Path) -> None:
    write_run(results / "a", _run_a())
    write_run(results / "b", _run_b())


def test_report_command_rebuilds_files_from_records(tmp_path: Path) -> None:
    results = tmp_path / "results"
    _write(results)
    out = CliRunner().invoke(app, ["report", "a", "--results", str(results)])
    assert out.exit_code == 0, out.output
    for name in ("summary.json", "report.md", "report.html"):
        assert (results / "a" / name).is_file()
        assert str(results / "a" / name) in out.output
    summary = RunSummary.model_validate_json((results / "a" / "summary.json").read_text())
    assert [(m.arm, m.passes, m.attempts) for m in summary.metrics] == [
        ("oracle", 2, 2),
        ("agent", 1, 2),
    ]
    assert not (results / "history.jsonl").exists()  # a rebuild is not a new run

    targets = tmp_path / "t.toml"
    targets.write_text('[[bars]]\nmetric = "success"\nop = ">="\ntarget = 0.5\n')
    out = CliRunner().invoke(
        app, ["report", "a", "--targets", str(targets), "--results", str(results)]
    )
    assert out.exit_code == 0, out.output
    summary = RunSummary.model_validate_json((results / "a" / "summary.json").read_text())
    assert [[b.met for b in m.bars] for m in summary.metrics] == [[True], [True]]
    assert summary.targets == "t.toml"  # never an absolute path of this machine

    # Any recorded median is a bar, tool_calls included; one that doesn't apply shows –.
    targets.write_text(
        '[[bars]]\nmetric = "tool_calls"\nop = "<="\ntarget = 8\n'
        '[[bars]]\nmetric = "pass^5"\nop = ">="\ntarget = 0.5\n'
    )
    out = CliRunner().invoke(
        app, ["report", "a", "--targets", str(targets), "--results", str(results)]
    )
    assert out.exit_code == 0, out.output
    summary = RunSummary.model_validate_json((results / "a" / "summary.json").read_text())
    assert [[(b.metric, b.applies) for b in m.bars] for m in summary.metrics] == [
        [("tool_calls", True), ("pass^5", False)]
    ] * 2
    assert "tool calls ≤ 8" in out.output and "–" in out.output
    report_md = (results / "a" / "report.md").read_text()
    assert "| oracle | ✓ 0 | – | 1/1 |" in report_md


@pytest.mark.parametrize("failure", ["returns False", "raises"])
def test_report_open_without_a_browser_says_where_the_page_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    results = tmp_path / "results"
    _write(results)
    asked: list[str] = []

    def no_browser(url: str, *args: object, **kwargs: object) -> bool:
        asked.append(url)
        if failure == "raises":
            raise webbrowser.Error("could not locate runnable browser")
        return False

    monkeypatch.setattr(webbrowser, "open", no_browser)
    out = CliRunner().invoke(
        app, ["report", "a", "--open", "--results", str(results)], terminal_width=400
    )
    assert out.exit_code == 0, out.output
    page = (results / "a" / "report.html").resolve()
    assert asked == [page.as_uri()]
    assert out.output.splitlines()[-1] == f"--open: no browser opened here; the report is {page}"


def test_runs_lists_labels_with_headline(tmp_path: Path) -> None:
    results = tmp_path / "results"
    _write(results)
    for label in ("a", "b"):
        assert CliRunner().invoke(app, ["report", label, "--results", str(results)]).exit_code == 0
    (results / "history.jsonl").write_text(
        json.dumps({"label": "old", "started_at": 1600000000.0, "passed": 3, "failed": 0,
                    "skipped": 0, "errors": 0, "arms": ["oracle"], "scenarios": 3}) + "\n"
    )  # fmt: skip
    out = CliRunner().invoke(app, ["runs", "--results", str(results)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    lines = [line.strip() for line in out.output.splitlines()]
    rows = [line for line in lines if line.split(" ")[0] in ("old", "a", "b")]
    assert [row.split()[0] for row in rows] == ["old", "a", "b"]
    assert "2020-09-13" in rows[0] and "folder missing" in rows[0]
    assert "oracle 100%" in out.output and "agent 50%" in out.output
    assert "3 run(s) under" in lines[-1]


DEAD_PID = 2**22 + 12345
"""Above the default pid_max: no such process."""


def _legged(run_dir: Path, pid: int, **config: object) -> None:
    """run.json as `proctor run` leaves it mid-leg: the plan, and a last leg not ended."""
    write_run_info(run_dir, run_dir.name, ["oracle=scripted", "agent=command:x"], **config)
    info = RunInfo.model_validate_json((run_dir / "run.json").read_bytes())
    leg = Leg(started_at=info.started_at, executor="inline", workers=1, pid=pid)
    write_model_atomic(run_dir / "run.json", info.model_copy(update={"legs": [leg]}))


def test_runs_marks_a_run_in_progress_as_running_with_its_arms(tmp_path: Path) -> None:
    results = tmp_path / "results"
    plan = {"scenarios": ["alpha", "beta"], "repeat": 2}
    # A run under way (its driver is this process), one attempt of eight recorded.
    write_run(results / "live", [make("alpha", "oracle", 1, "passed")])
    _legged(results / "live", os.getpid(), **plan)
    # A resumed run at work again: its summary.json is an earlier leg's, not what it is now.
    write_run(results / "again", _run_a())
    assert CliRunner().invoke(app, ["report", "again", "--results", str(results)]).exit_code == 0
    _legged(results / "again", os.getpid(), **plan)
    # A run whose driver was killed mid-leg, with nothing recorded.
    (results / "dead" / "attempts").mkdir(parents=True)
    _legged(results / "dead", DEAD_PID, **plan)

    out = CliRunner().invoke(app, ["runs", "--results", str(results), "--json"])
    assert out.exit_code == 0, out.output
    listed = {run["label"]: run for run in json.loads(out.output)["runs"]}
    assert listed["live"] == {
        "label": "live",
        "started_at": 1700000000.0,
        "arms": ["agent", "oracle"],
        "scenarios": 2,
        "counts": "1 of 8 attempt(s) done",
        "headline": [],
        "note": "running",
        "state": "running",
    }
    assert (listed["again"]["state"], listed["again"]["counts"]) == (
        "running",
        "4 of 8 attempt(s) done",
    )
    assert (listed["dead"]["state"], listed["dead"]["note"]) == (
        "gone",
        "killed mid-run: `proctor run --label dead --resume` finishes it",
    )

    table = CliRunner().invoke(app, ["runs", "--results", str(results)], env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.output
    (row,) = [line for line in table.output.splitlines() if line.strip().startswith("live ")]
    assert when(1700000000.0) in row and "agent, oracle" in row
    assert "1 of 8 attempt(s) done (running)" in row
    assert "proctor report" not in table.output


def test_diagnose_prints_groups_counts_and_paths(tmp_path: Path) -> None:
    results = tmp_path / "results"
    _write(results)
    out = CliRunner().invoke(app, ["diagnose", "b", "--results", str(results)])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == [
        "1 failed attempt(s) by cause:",
        "  guard stop: no_progress: 1",
        f"    {results}/b/attempts/alpha/agent-1  stopped by no_progress",
    ]


def test_compare_command_and_unknown_label(tmp_path: Path) -> None:
    results = tmp_path / "results"
    _write(results)
    out = CliRunner().invoke(
        app, ["compare", "a", "b", "--results", str(results)], terminal_width=200
    )
    assert out.exit_code == 0, out.output
    assert "▼ broke" in out.output and "▲ fixed" in out.output
    assert "2 of 4 scenario row(s) differ; 1 of 2 arm row(s) differ" in out.output
    missing = CliRunner().invoke(app, ["diagnose", "nope", "--results", str(results)])
    assert isinstance(missing.exception, RunError)
    assert "no run 'nope'" in str(missing.exception) and "a, b" in str(missing.exception)


@pytest.mark.parametrize("command", ["report", "diagnose"])
def test_a_run_with_no_attempt_says_how_to_finish_it(tmp_path: Path, command: str) -> None:
    (tmp_path / "results" / "empty" / "attempts").mkdir(parents=True)
    out = CliRunner().invoke(app, [command, "empty", "--results", str(tmp_path / "results")])
    assert isinstance(out.exception, RunError)
    assert "--resume" in str(out.exception)
