"""Metrics on constructed records: pass^k, Wilson bounds, medians, totals, flips and bars."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_records import make

from proctor.errors import RunError
from proctor.records import RunSummary
from proctor.report import (
    flip_rate,
    load_targets,
    mark,
    metric_row,
    metric_rows,
    pass_hat_k,
    pass_k,
    summarize,
    total_tokens,
    wilson,
)
from proctor.report._metrics import RowKey


def test_wilson_bounds_match_hand_computed_values() -> None:
    # 7/9: centre (p + z²/2n)/(1 + z²/n) = 0.694682, half-width 0.242093;
    # computed at 40 digits the bounds are 0.4525890 and 0.9367749.
    low, high = wilson(7, 9) or (0.0, 0.0)
    assert (round(low, 6), round(high, 6)) == (0.452589, 0.936775)
    assert tuple(round(v, 6) for v in wilson(0, 3) or ()) == (0.0, 0.561497)
    assert tuple(round(v, 6) for v in wilson(3, 3) or ()) == (0.438503, 1.0)
    assert tuple(round(v, 6) for v in wilson(1, 2) or ()) == (0.094531, 0.905469)
    assert wilson(0, 0) is None


def test_pass_hat_k_is_the_unbiased_estimator() -> None:
    assert pass_hat_k(3, 4, 1) == 0.75
    assert pass_hat_k(3, 4, 2) == 0.5  # C(3,2)/C(4,2) = 3/6
    assert pass_hat_k(3, 4, 3) == 0.25  # C(3,3)/C(4,3) = 1/4
    assert pass_hat_k(3, 4, 4) == 0.0
    assert pass_hat_k(3, 4, 5) is None  # n < k
    assert pass_hat_k(1, 2, 2) == 0.0
    # Averaged over scenarios, leaving out those with n < k.
    counts = [(3, 4), (3, 3), (1, 2)]
    assert pass_k(counts, 1) == (0.75, 3)  # (0.75 + 1 + 0.5) / 3
    assert pass_k(counts, 2) == (0.5, 3)  # (0.5 + 1 + 0) / 3
    assert pass_k(counts, 3) == (0.625, 2)  # (0.25 + 1) / 2; the n=2 scenario is left out
    assert pass_k(counts, 4) == (0.0, 1)
    assert pass_k(counts, 5) is None


def test_flip_rate_counts_changes_between_consecutive_repeats() -> None:
    assert flip_rate([True, False, True, True]) == pytest.approx(2 / 3)
    assert flip_rate([True, True, True]) == 0.0
    assert flip_rate([False, True]) == 1.0
    assert flip_rate([True]) is None


def test_total_tokens_leaves_out_subset_kinds() -> None:
    assert total_tokens({"input": 1000, "output": 200, "cached": 800, "reasoning": 50}) == 1200
    assert total_tokens({"total": 999, "input": 1}) == 999
    assert total_tokens({}) == 0


def _row_records() -> list:
    """Scenario a: 3/4 passed (repeats 1-4), b: 3/3, c: 1/2, plus an infra error."""
    return [
        make("a", "gpt", 1, "passed", seconds=4.0, planner_calls=2, cost_usd=0.01,
             tokens={"input": 100, "output": 10}),
        make("a", "gpt", 2, "failed", seconds=10.0, planner_calls=5, cost_usd=0.04,
             tokens={"input": 300, "output": 30}),
        make("a", "gpt", 3, "passed", seconds=2.0, planner_calls=1, cost_usd=0.01,
             tokens={"input": 50, "output": 5}),
        make("a", "gpt", 4, "passed", seconds=3.0, planner_calls=2, cost_usd=0.02,
             tokens={"input": 100, "output": 20}),
        make("b", "gpt", 1, "passed", seconds=1.0, planner_calls=1, cost_usd=0.005,
             tokens={"input": 20, "output": 2}),
        make("b", "gpt", 2, "passed", seconds=1.5, planner_calls=1, cost_usd=0.005,
             tokens={"input": 20, "output": 2}),
        make("b", "gpt", 3, "passed", seconds=2.5, planner_calls=3, cost_usd=0.015,
             tokens={"input": 60, "output": 6}),
        make("c", "gpt", 1, "failed", seconds=6.0, planner_calls=4, cost_usd=0.03,
             tokens={"input": 200, "output": 20}),
        make("c", "gpt", 2, "passed", seconds=5.0, planner_calls=3, cost_usd=0.02,
             tokens={"input": 100, "output": 10}),
        make("c", "gpt", 3, "error", seconds=99.0, planner_calls=40, cost_usd=None,
             error="browser crashed"),
    ]  # fmt: skip


def test_metric_row_exact_values() -> None:
    row = metric_row(RowKey("gpt", None, None), _row_records())
    assert (row.scenarios, row.attempts, row.passes, row.infra_errors) == (3, 9, 7, 1)
    assert row.success == pytest.approx(7 / 9)
    assert (round(row.success_low or 0, 6), round(row.success_high or 0, 6)) == (
        0.452589,
        0.936775,
    )
    assert row.pass_k == {1: 0.75, 2: 0.5, 3: 0.625, 4: 0.0}
    assert row.pass_k_scenarios == {1: 3, 2: 3, 3: 2, 4: 1}
    # Scored only (the infra error's 99 s, 40 calls and unknown $ are left out).
    # seconds sorted: 1, 1.5, 2, 2.5, 3, 4, 5, 6, 10 -> median 3
    assert row.median_seconds == 3.0
    # calls sorted: 1, 1, 1, 2, 2, 3, 3, 4, 5 -> median 2
    assert row.median_planner_calls == 2.0
    # tokens: 110, 330, 55, 120, 22, 22, 66, 220, 110 -> sorted median 110
    assert row.median_tokens == 110.0
    # $ sorted: .005 .005 .01 .01 .015 .02 .02 .03 .04 -> median .015
    assert row.median_cost_usd == 0.015
    assert row.total_planner_calls == 22
    assert row.total_tokens == 1055
    assert row.total_cost_usd == pytest.approx(0.155)
    assert row.total_seconds == 35.0
    # flips: a [T,F,T,T] = 2/3, b [T,T,T] = 0, c [F,T] = 1 -> mean 5/9
    assert row.flip_rate == pytest.approx(5 / 9)
    assert row.flaky == ["a", "c"]


def test_unknown_cost_is_na_and_never_meets_a_bar() -> None:
    records = [
        make("a", "x", 1, "passed", cost_usd=0.01),
        make("a", "x", 2, "passed", cost_usd=None),
        make("a", "x", 3, "passed", cost_usd=0.01),
    ]
    row = mark(metric_row(RowKey("x", None, None), records), load_targets())
    assert (row.median_cost_usd, row.total_cost_usd) == (None, None)
    by_metric = {b.metric: (b.value, b.met) for b in row.bars}
    assert by_metric == {
        "success": (1.0, True),
        "pass^3": (1.0, True),
        "planner_calls": (0.0, True),
        "cost_usd": (None, False),
        "seconds": (1.0, True),
    }


def test_default_bars_and_pass3_na_under_three_repeats() -> None:
    records = [
        make("a", "slow", 1, "passed", seconds=130.0, planner_calls=4, cost_usd=0.06),
        make("a", "slow", 2, "failed", seconds=119.0, planner_calls=3, cost_usd=0.05),
    ]
    row = mark(metric_rows(records)[0], load_targets())
    assert [(b.metric, b.op, b.target, b.value, b.met) for b in row.bars] == [
        ("success", ">=", 0.9, 0.5, False),
        ("pass^3", ">=", 0.8, None, False),
        ("planner_calls", "<=", 3.0, 3.5, False),
        ("cost_usd", "<=", 0.05, 0.055, False),
        ("seconds", "<", 120.0, 124.5, False),
    ]


def test_rows_are_per_arm_model_and_mode() -> None:
    records = [
        make("a", "x", 1, "passed", model="m1"),
        make("a", "x", 2, "failed", model="m1", mode="planning"),
        make("a", "y", 1, "passed"),
        make("b", "x", 1, "passed", model="m1"),
    ]
    rows = metric_rows(records)
    assert [(r.arm, r.model, r.mode, r.passes, r.attempts) for r in rows] == [
        ("x", "m1", None, 2, 2),
        ("x", "m1", "planning", 0, 1),
        ("y", None, None, 1, 1),
    ]


def test_custom_targets_file_and_its_errors(tmp_path: Path) -> None:
    good = tmp_path / "bars.toml"
    good.write_text('[[bars]]\nmetric = "pass^2"\nop = ">"\ntarget = 0.5\n')
    records = [make("a", "x", n, "passed" if n != 2 else "failed") for n in (1, 2, 3)]
    row = mark(metric_rows(records)[0], load_targets(good))
    # pass^2 = C(2,2)/C(3,2) = 1/3
    assert [(b.metric, round(b.value or 0, 6), b.met) for b in row.bars] == [
        ("pass^2", 0.333333, False)
    ]
    bad = tmp_path / "bad.toml"
    bad.write_text('[[bars]]\nmetric = "speed"\nop = "=="\ntarget = 1\n')
    with pytest.raises(RunError) as err:
        load_targets(bad)
    message = str(err.value)
    assert str(bad) in message and "unknown metric 'speed'" in message and "op" in message
    with pytest.raises(RunError, match="not valid TOML"):
        broken = tmp_path / "broken.toml"
        broken.write_text("[[bars]\n")
        load_targets(broken)


def test_summary_json_round_trips_with_metrics() -> None:
    summary = summarize("r", _row_records(), 0.0, 1.0)
    again = RunSummary.model_validate_json(summary.model_dump_json())
    assert again == summary
    assert again.metrics[0].pass_k == {1: 0.75, 2: 0.5, 3: 0.625, 4: 0.0}
