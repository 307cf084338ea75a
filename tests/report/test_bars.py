"""Bars that don't apply to a row show – and are not counted; any recorded median may be a bar."""

from __future__ import annotations

from pathlib import Path

from report_records import make

from proctor.report import _format as f
from proctor.report import load_targets, summarize
from proctor.report._metrics import metric_rows
from proctor.report._targets import mark


def _cells(row: object) -> dict[str, str]:
    return {b.metric: f.bar_cell(b) for b in row.bars}  # type: ignore[attr-defined]


def test_a_perfect_single_repeat_scripted_run_meets_every_bar_that_applies() -> None:
    records = [make(s, "oracle", 1, "passed", seconds=2.0) for s in ("a", "b")]
    (row,) = metric_rows(records)
    row = mark(row, load_targets())
    assert _cells(row) == {
        "success": "✓ 100%",
        "pass^3": "–",
        "planner_calls": "–",
        "cost_usd": "–",
        "seconds": "✓ 2 s",
    }
    assert row.bars_met() == (2, 2) and f.bars_met(row) == "2/2"
    assert not any(b.met for b in row.bars if not b.applies)


def test_a_command_arm_reporting_no_usage_has_no_planner_bars_but_one_reporting_it_does() -> None:
    silent = [make("a", "cmd", n, "passed", agent="command", cost_usd=0.0) for n in (1, 2, 3)]
    (row,) = metric_rows(silent)
    row = mark(row, load_targets())
    assert (row.planner, _cells(row)["planner_calls"], _cells(row)["cost_usd"]) == (False, "–", "–")
    assert row.bars_met() == (3, 3)  # success, pass^3, time
    reporting = [
        make("a", "cmd", n, "passed", agent="command", planner_calls=5, cost_usd=0.2)
        for n in (1, 2, 3)
    ]
    (row,) = metric_rows(reporting)
    row = mark(row, load_targets())
    assert (_cells(row)["planner_calls"], _cells(row)["cost_usd"]) == ("✗ 5", "✗ $0.20")
    assert row.bars_met() == (3, 5)


def test_a_model_without_a_price_is_counted_unmet_not_left_out() -> None:
    records = [make("a", "gpt", n, "passed", model="m", planner_calls=2) for n in (1, 2, 3)]
    (row,) = metric_rows(records)
    row = mark(row, load_targets())
    assert _cells(row)["cost_usd"] == "✗ n/a"
    assert row.bars_met() == (4, 5)


def test_tool_calls_observations_and_inputs_are_bars(tmp_path: Path) -> None:
    bars = tmp_path / "bars.toml"
    bars.write_text(
        '[[bars]]\nmetric = "tool_calls"\nop = "<="\ntarget = 8\n'
        '[[bars]]\nmetric = "observations"\nop = "<"\ntarget = 4\n'
        '[[bars]]\nmetric = "inputs"\nop = ">="\ntarget = 1\n'
    )
    records = [
        make("a", "x", 1, "passed", tool_calls=8, observations=8, inputs=2),
        make("a", "x", 2, "failed", tool_calls=10, observations=8, inputs=0),
        make("a", "x", 3, "passed", tool_calls=6, observations=8, inputs=1),
    ]
    summary = summarize("r", records, 0.0, 1.0, load_targets(bars))
    (row,) = summary.metrics
    assert (row.median_tool_calls, row.median_observations, row.median_inputs) == (8, 8, 1)
    assert [(f.bar_title(b), f.bar_cell(b)) for b in row.bars] == [
        ("tool calls ≤ 8", "✓ 8"),
        ("observations < 4", "✗ 8"),
        ("inputs ≥ 1", "✓ 1"),
    ]
