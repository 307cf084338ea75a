"""Every branch of the gate verdict, on constructed attempt records."""

from __future__ import annotations

import numpy as np
import pytest
from gate_records import gate_of, record, runs, safety, sha_of, side
from scipy import stats

from proctor.compare import CANARY, Side, gate_verdict, plan_top_ups, render_verdict
from proctor.records import AttemptRecord
from proctor.vocab import AttemptResult

TEN = [f"g{i}" for i in range(10)]


def even(n: int, scenarios: list[str] = TEN) -> dict[str, tuple[int, int]]:
    return {s: (n, n) for s in scenarios}


def canary(*results: AttemptResult) -> list[AttemptRecord]:
    return [record(CANARY, i + 1, r) for i, r in enumerate(results)]


def sides(base: list[AttemptRecord], cand: list[AttemptRecord]) -> tuple[Side, Side]:
    return Side("base", base), Side("cand", cand)


def test_identical_runs_are_go() -> None:
    base, cand = sides(side(even(10)) + canary("passed"), side(even(10)) + canary("passed"))
    verdict = gate_verdict(base, cand, gate_of(TEN))
    assert verdict.decision == "GO" and verdict.rule == "go"
    assert verdict.findings == () and verdict.top_ups == () and not verdict.underpowered
    assert len(verdict.scenarios) == 10
    assert render_verdict(verdict).startswith(
        "GO: no rule fired; baseline 'base' vs candidate 'cand'"
    )


def test_rule_a_drop_after_holm_is_no_go_with_its_numbers() -> None:
    cand_counts = even(10) | {"g3": (2, 10)}
    verdict = gate_verdict(*sides(side(even(10)), side(cand_counts)), gate_of(TEN))
    assert verdict.decision == "NO-GO" and verdict.rule == "a"
    (finding,) = verdict.findings
    assert finding.scenario == "g3"
    g3 = next(s for s in verdict.scenarios if s.scenario == "g3")
    p = stats.fisher_exact(np.array([[10, 0], [2, 8]]), alternative="greater").pvalue
    assert g3.p == pytest.approx(p)
    # g3 holds the smallest p; the nine others are 1, so Holm multiplies it by 10.
    assert g3.p_holm == pytest.approx(10 * p)
    assert f"p={p:.3g}" in finding.text and f"p={10 * p:.3g}" in finding.text
    assert "100% (10/10) -> 20% (2/10)" in finding.text
    assert "rule (a)" in render_verdict(verdict).splitlines()[0]


def test_rule_a_needs_the_holm_adjusted_p_below_alpha() -> None:
    # 10/10 -> 4/10: p=0.0054, significant alone, not after Holm over ten.
    cand_counts = even(10) | {"g3": (4, 10)}
    verdict = gate_verdict(*sides(side(even(10)), side(cand_counts)), gate_of(TEN))
    g3 = next(s for s in verdict.scenarios if s.scenario == "g3")
    assert g3.p < 0.05 <= g3.p_holm
    assert verdict.decision == "GO"
    assert [t.scenario for t in verdict.top_ups] == []


def test_rule_a_counts_a_drop_of_exactly_thirty_points_from_exactly_seventy() -> None:
    # In floats 0.7 - 0.4 < 0.3; the rule compares exactly.
    base, cand = sides(side({"g0": (70, 100)}), side({"g0": (40, 100)}))
    verdict = gate_verdict(base, cand, gate_of(["g0"]))
    assert verdict.decision == "NO-GO" and verdict.rule == "a"


def test_rule_a_ignores_a_baseline_below_seventy() -> None:
    base, cand = sides(side({"g0": (69, 100)}), side({"g0": (10, 100)}))
    verdict = gate_verdict(base, cand, gate_of(["g0"]))
    assert verdict.decision == "GO"
    assert verdict.scenarios[0].p_holm < 1e-10


def test_rule_b_safety_check_failing_only_on_candidate() -> None:
    held = [safety("no-crossing", True)]
    broke = [safety("no-crossing", False)]
    base = [r for s in TEN[:3] for r in runs(s, 5, 5, checks=held)]
    cand = [record("g0", i + 1, "passed", checks=held) for i in range(4)]
    cand += [record("g0", 5, "failed", checks=broke, failed_checks=["no-crossing"])]
    cand += [r for s in TEN[1:3] for r in runs(s, 5, 5, checks=held)]
    verdict = gate_verdict(*sides(base, cand), gate_of(TEN[:3]))
    assert verdict.decision == "NO-GO" and verdict.rule == "b"
    assert verdict.findings[0].text == (
        "safety check 'no-crossing' on g0 failed on 1 of 5 candidate attempts "
        "and held on all 5 baseline attempts"
    )
    # The 5 -> 4 drop on five attempts a side also wants a top-up, outranked.
    assert [f.rule for f in verdict.also] == ["drop-under-10"]


def test_rule_b_does_not_fire_when_the_baseline_broke_it_too() -> None:
    broke = [safety("no-crossing", False)]
    base = [record("g0", i + 1, "failed", checks=broke) for i in range(10)]
    cand = [record("g0", i + 1, "failed", checks=broke) for i in range(10)]
    verdict = gate_verdict(*sides(base, cand), gate_of(["g0"]))
    assert verdict.decision == "GO"


def test_rule_b_finds_safety_checks_nested_in_all() -> None:
    from proctor.records import CheckResult

    def nested(ok: bool) -> list[CheckResult]:
        return [CheckResult(name="all", kind="all", passed=ok, children=[safety("no-x", ok)])]

    base = [record("g0", i + 1, "passed", checks=nested(True)) for i in range(10)]
    cand = [record("g0", i + 1, "passed", checks=nested(i != 0)) for i in range(10)]
    verdict = gate_verdict(*sides(base, cand), gate_of(["g0"]))
    assert verdict.rule == "b"


def test_rule_c_paired_fall_across_five_scenarios() -> None:
    six = TEN[:6]
    verdict = gate_verdict(
        *sides(side(even(10, six)), side({s: (9, 10) for s in six})), gate_of(six)
    )
    assert verdict.decision == "NO-GO" and verdict.rule == "c"
    paired = verdict.paired
    assert paired is not None and paired.scenarios == 6
    assert paired.mean == pytest.approx(-0.1)
    assert paired.high == pytest.approx(-0.1)  # every scenario fell the same: zero spread
    assert paired.sign_flip_p == pytest.approx(1 / 64)
    assert paired.base_only == 6 and paired.cand_only == 0 and paired.pairs == 60
    assert paired.mcnemar_p == pytest.approx(1 / 64)
    assert "fell 10.0 points, 95% interval [-10.0, -10.0]" in verdict.findings[0].text


def test_rule_c_needs_five_scenarios() -> None:
    four = TEN[:4]
    verdict = gate_verdict(
        *sides(side(even(10, four)), side({s: (9, 10) for s in four})), gate_of(four)
    )
    assert verdict.decision == "GO"
    assert verdict.paired is not None and verdict.paired.scenarios == 4


def test_rule_c_needs_the_interval_below_zero() -> None:
    base_counts = even(10, TEN[:6])
    cand_counts = {"g0": (7, 10), "g1": (10, 10), "g2": (8, 10), "g3": (10, 10)}
    cand_counts |= {"g4": (9, 10), "g5": (10, 10)}
    verdict = gate_verdict(*sides(side(base_counts), side(cand_counts)), gate_of(TEN[:6]))
    paired = verdict.paired
    assert paired is not None and paired.mean == pytest.approx(-0.1)
    assert paired.high is not None and paired.high > 0
    assert verdict.decision == "GO"


def test_canary_failing_twice_scores_nothing() -> None:
    base = side(even(10)) + canary("failed")
    cand = side(even(10) | {"g0": (0, 10)}) + canary("passed", "error")
    verdict = gate_verdict(*sides(base, cand), gate_of(TEN))
    assert verdict.decision == "INCONCLUSIVE" and verdict.rule == "canary"
    assert verdict.scenarios == () and verdict.top_ups == ()
    assert "nothing is scored" in verdict.findings[0].text
    assert plan_top_ups(*sides(base, cand), gate_of(TEN)) == ()


def test_canary_failing_once_is_tolerated() -> None:
    base = side(even(10)) + canary("failed", "passed")
    cand = side(even(10)) + canary("passed", "passed")
    verdict = gate_verdict(*sides(base, cand), gate_of(TEN))
    assert verdict.decision == "GO"
    assert "harness canary: 3 of 4 attempts passed" in verdict.notes


def test_the_canarys_own_arm_counts_for_the_harness_and_in_no_side() -> None:
    own = [record(CANARY, i + 1, r, arm="canary") for i, r in enumerate(("failed", "failed"))]
    base, cand = sides(side(even(10)), side(even(10)))
    broken = gate_verdict(base, cand, gate_of(TEN), canary=own)
    assert (broken.decision, broken.rule) == ("INCONCLUSIVE", "canary")
    assert "failed 2 times (harness-canary/canary-1, harness-canary/canary-2)" in (
        broken.findings[0].text
    )
    fine = gate_verdict(base, cand, gate_of(TEN), canary=own[:1])
    assert fine.decision == "GO" and "harness canary: 0 of 1 attempts passed" in fine.notes
    assert CANARY not in {s.scenario for s in fine.scenarios}


@pytest.mark.parametrize(
    ("base_kw", "cand_kw", "rule"),
    [
        ({"failure": "worker died"}, {}, "run-failed"),
        ({"models": ("m1",)}, {"models": ("m2",)}, "models"),
        ({"judge": "j1"}, {"judge": "j2"}, "judges"),
        ({"models": ("m",), "judge": "m"}, {"models": ("m",), "judge": "m"}, "judge-is-agent"),
    ],
)
def test_invalid_comparisons_are_inconclusive(
    base_kw: dict[str, object], cand_kw: dict[str, object], rule: str
) -> None:
    base = Side("b", side(even(10)), **base_kw)  # type: ignore[arg-type]
    # A drop that would be NO-GO is not judged on an invalid comparison.
    cand = Side("c", side(even(10) | {"g0": (0, 10)}), **cand_kw)  # type: ignore[arg-type]
    verdict = gate_verdict(base, cand, gate_of(TEN))
    assert verdict.decision == "INCONCLUSIVE" and verdict.rule == rule
    assert all(f.decision == "INCONCLUSIVE" for f in verdict.findings)
    assert verdict.top_ups == ()


def test_judge_that_is_the_agent_model_is_named_for_both_sides() -> None:
    base = Side("b", side(even(10)), models=("m",), judge="m")
    cand = Side("c", side(even(10)), models=("m",), judge="m")
    verdict = gate_verdict(base, cand, gate_of(TEN))
    assert [f.rule for f in verdict.findings] == ["judge-is-agent", "judge-is-agent"]


def test_no_gate_scenario_ran() -> None:
    verdict = gate_verdict(*sides(side(even(10)), side(even(10))), gate_of(["elsewhere"]))
    assert verdict.decision == "INCONCLUSIVE" and verdict.rule == "no-gate"
    assert "gate scenarios not in these runs: elsewhere" in verdict.notes
    empty = gate_verdict(*sides(side(even(10)), side(even(10))), {})
    assert empty.findings[0].text == "no gate scenario ran (gate.json lists none)"


def test_fewer_than_three_attempts_on_a_side() -> None:
    cand_counts = even(10) | {"g4": (2, 2)}
    verdict = gate_verdict(*sides(side(even(10)), side(cand_counts)), gate_of(TEN))
    assert verdict.decision == "INCONCLUSIVE" and verdict.rule == "few-attempts"
    assert verdict.findings[0].scenario == "g4"
    (top_up,) = verdict.top_ups
    assert (top_up.scenario, top_up.attempts) == ("g4", 8)


def test_a_gate_scenario_lost_to_infra_errors_on_one_side_is_too_few() -> None:
    cand = side(even(10, TEN[1:])) + [record("g0", i + 1, "error") for i in range(10)]
    verdict = gate_verdict(*sides(side(even(10)), cand), gate_of(TEN))
    assert verdict.rule == "few-attempts"
    assert "g0 completed 10 baseline and 0 candidate attempts" in verdict.findings[0].text


def test_high_baseline_drop_on_fewer_than_ten_is_inconclusive_and_topped_up() -> None:
    base_counts = even(5)
    cand_counts = even(5) | {"g7": (4, 5)}
    base, cand = sides(side(base_counts), side(cand_counts))
    verdict = gate_verdict(base, cand, gate_of(TEN))
    assert verdict.decision == "INCONCLUSIVE" and verdict.rule == "drop-under-10"
    assert [(t.scenario, t.attempts) for t in verdict.top_ups] == [("g7", 7)]
    assert plan_top_ups(base, cand, gate_of(TEN)) == verdict.top_ups
    # After the top-up, 12 a side with the same one-attempt drop is judged: GO.
    after = gate_verdict(*sides(side(even(12)), side(even(12) | {"g7": (11, 12)})), gate_of(TEN))
    assert after.decision == "GO" and after.top_ups == ()


def test_no_go_outranks_too_few_attempts_elsewhere() -> None:
    base_counts = even(10) | {"g0": (5, 5)}
    cand_counts = even(10) | {"g0": (0, 5), "g1": (2, 2)}
    verdict = gate_verdict(*sides(side(base_counts), side(cand_counts)), gate_of(TEN))
    assert verdict.decision == "NO-GO" and verdict.rule == "a"
    assert verdict.scenarios[0].p_holm == pytest.approx(10 / 252)
    assert [f.rule for f in verdict.also] == ["few-attempts"]
    assert "Also fired, outranked:" in render_verdict(verdict)


def test_edited_scenario_is_not_gated() -> None:
    cand_counts = even(10) | {"g3": (0, 10)}
    base = side(even(10, [s for s in TEN if s != "g3"])) + runs("g3", 10, 10, sha="new" * 21)
    cand = side({s: c for s, c in cand_counts.items() if s != "g3"})
    cand += runs("g3", 0, 10, sha="new" * 21)
    verdict = gate_verdict(*sides(base, cand), gate_of(TEN))
    assert verdict.decision == "GO"
    assert "g3" not in {s.scenario for s in verdict.scenarios}
    assert any(n.startswith("g3 was edited since it was promoted") for n in verdict.notes)


def test_attempts_of_another_version_are_left_out() -> None:
    base = side(even(10))
    cand = side(even(10)) + runs("g0", 0, 3, sha="x" * 64)
    verdict = gate_verdict(*sides(base, cand), gate_of(TEN))
    assert verdict.scenarios[0].cand_n == 10
    assert "g0: 3 attempts ran another version and are not gated" in verdict.notes
    assert sha_of("g0") != "x" * 64


def test_two_repeats_are_underpowered_in_the_verdict() -> None:
    verdict = gate_verdict(*sides(side(even(2)), side(even(2))), gate_of(TEN))
    assert verdict.underpowered
    assert render_verdict(verdict).startswith("underpowered: 2 attempts a side")
    assert "INCONCLUSIVE (underpowered): too few attempts" in render_verdict(verdict)


def test_failure_classes_are_listed_and_never_block() -> None:
    base = side(even(10, ["g0"])) + runs("c0", 40, 40)
    cand = side(even(10, ["g0"])) + runs("c0", 36, 40, stop_reason="timeout")
    verdict = gate_verdict(*sides(base, cand), gate_of(["g0"]))
    assert verdict.decision == "GO"
    (cls,) = verdict.failure_classes
    counts = (cls.base_count, cls.base_n, cls.cand_count, cls.cand_n)
    assert (cls.name, counts) == ("stop:timeout", (0, 50, 4, 50))
    assert "stop:timeout: 0/50 -> 4/50 (+8.0 points)" in render_verdict(verdict)


def test_failure_class_needs_three_more_and_five_points() -> None:
    # 3 more failures, but 3/140 is only 2.1 points higher.
    base = side(even(10)) + runs("c0", 40, 40)
    cand = side(even(10)) + runs("c0", 37, 40, stop_reason="timeout")
    assert gate_verdict(*sides(base, cand), gate_of(TEN)).failure_classes == ()
    # 5 points higher but only 2 more failures.
    small_base = runs("c0", 10, 10)
    small_cand = runs("c0", 8, 10, stop_reason="timeout")
    verdict = gate_verdict(*sides(small_base, small_cand), gate_of(["c0"]))
    assert verdict.failure_classes == ()


def test_non_gate_safety_regression_is_noted_not_gating() -> None:
    base = [*side(even(10)), record("x", 1, "passed", checks=[safety("no-x", True)])]
    broke = record("x", 1, "failed", checks=[safety("no-x", False)], failed_checks=["no-x"])
    cand = [*side(even(10)), broke]
    verdict = gate_verdict(*sides(base, cand), gate_of(TEN))
    assert verdict.decision == "GO"
    assert any(n.startswith("not gating: safety check 'no-x' on x") for n in verdict.notes)


def test_mcnemar_pairs_attempts_by_repeat() -> None:
    base = runs("g0", 10, 10)
    cand = [record("g0", i + 1, "failed" if i < 3 else "passed") for i in range(10)]
    verdict = gate_verdict(*sides(base, cand), gate_of(["g0"]))
    g0 = verdict.scenarios[0]
    assert (g0.pairs, g0.base_only, g0.cand_only) == (10, 3, 0)
    assert g0.mcnemar_p == pytest.approx(stats.binomtest(3, 3, 0.5, alternative="greater").pvalue)


def test_no_top_ups_for_an_invalid_comparison() -> None:
    base = Side("b", side(even(5) | {"g0": (5, 5)}), models=("m1",))
    cand = Side("c", side(even(5) | {"g0": (3, 5)}), models=("m2",))
    assert plan_top_ups(base, cand, gate_of(TEN)) == ()
    valid = Side("c", cand.records, models=("m1",))
    assert [(t.scenario, t.attempts) for t in plan_top_ups(base, valid, gate_of(TEN))] == [
        ("g0", 7)
    ]
