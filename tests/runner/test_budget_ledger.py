"""The budget reads the spend ledger: what a kill, a crash or a faulted try spent is counted.

The ledgers here are written by hand, line by line, as model agents write them;
tests/runner/test_budget_kill.py kills a real run and resumes it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from proctor.records import SpendLine, append_spend
from proctor.runner import Budget, PlanItem, make_plan, parse_arm
from proctor.runner import build_record as record_of
from proctor.scenario import LoadedScenario


@pytest.fixture
def plan(suite: dict[str, LoadedScenario]) -> list[PlanItem]:
    return make_plan([suite["header-enumeration"]], [parse_arm("oracle=scripted")], 4)


def spend(ledger: Path, tag: str, call: str, admit: float, settle: float | None = None) -> None:
    append_spend(ledger, SpendLine(kind="admit", attempt=tag, call=call, usd=admit))
    if settle is not None:
        append_spend(ledger, SpendLine(kind="settle", attempt=tag, call=call, usd=settle))


def test_a_resume_counts_the_calls_of_a_killed_attempt(
    plan: list[PlanItem], tmp_path: Path
) -> None:
    ledger = tmp_path / "spend.jsonl"
    first, killed = plan[0].attempt_id, plan[1].attempt_id
    for n in range(3):  # the first attempt: recorded, $0.30
        spend(ledger, f"{first}#1", f"a{n}", 0.15, 0.1)
    spend(ledger, f"{killed}#1", "b0", 0.15, 0.1)  # killed in its second call:
    spend(ledger, f"{killed}#1", "b1", 0.15)  # admitted, never settled
    budget = Budget(1.0, ledger=ledger)
    budget.spent(record_of(plan[0], "passed", "done", started_at=0.0, cost_usd=0.3))
    # Records alone would say $0.30; the ledger says what was billed (or may have been).
    assert budget.spent_usd == pytest.approx(0.3 + 0.1 + 0.15)
    assert budget.admit(plan[1])  # 0.55 + 0.30 estimate fits
    assert not budget.admit(plan[2])  # + the one in flight (0.30) does not
    assert budget.problems == []


def test_a_try_ended_by_an_infra_fault_counts_and_a_record_is_not_counted_twice(
    plan: list[PlanItem], tmp_path: Path
) -> None:
    ledger = tmp_path / "spend.jsonl"
    budget = Budget(1.0, ledger=ledger)
    tag = plan[0].attempt_id
    assert budget.admit(plan[0])
    spend(ledger, f"{tag}#1", "t1", 0.2, 0.2)  # try 1: a browser crash after one call
    spend(ledger, f"{tag}#2", "t2", 0.2, 0.25)  # try 2: graded; its record holds $0.25
    record = record_of(plan[0], "passed", "done", started_at=0.0, cost_usd=0.25)
    budget.spent(record)
    assert budget.spent_usd == pytest.approx(0.45)
    assert budget.estimate("oracle") == pytest.approx(0.25)


def test_an_attempt_in_flight_counts_what_its_calls_cost_past_the_estimate(
    plan: list[PlanItem], tmp_path: Path
) -> None:
    ledger = tmp_path / "spend.jsonl"
    budget = Budget(1.0, ledger=ledger)
    budget.spent(record_of(plan[0], "passed", "done", started_at=0.0, cost_usd=0.1))
    assert budget.admit(plan[1])
    spend(ledger, f"{plan[1].attempt_id}#1", "big", 0.5, 0.85)  # far past its $0.10 estimate
    # Records and estimates alone: 0.1 + 0.1 in flight + 0.1 fits. The ledger: 0.1 + 0.85
    # (what the one in flight cost, more than its estimate) + 0.1 does not.
    assert not budget.admit(plan[2])
    assert budget.spent_usd == pytest.approx(0.95)


def test_an_attempt_in_flight_is_not_counted_twice(plan: list[PlanItem], tmp_path: Path) -> None:
    ledger = tmp_path / "spend.jsonl"
    budget = Budget(1.0, ledger=ledger)
    budget.spent(record_of(plan[0], "passed", "done", started_at=0.0, cost_usd=0.3))
    assert budget.admit(plan[1])
    spend(ledger, f"{plan[1].attempt_id}#1", "c", 0.2, 0.2)  # within its $0.30 estimate
    assert budget.admit(plan[2])  # 0.3 + 0.2 spent + 0.1 left of the estimate + 0.3 = 0.9
    assert not budget.admit(plan[3])


def test_an_attempt_the_ledger_never_saw_counts_its_record(
    plan: list[PlanItem], tmp_path: Path
) -> None:
    budget = Budget(1.0, ledger=tmp_path / "spend.jsonl")  # no file: no model agent ran
    budget.spent(record_of(plan[0], "passed", "done", started_at=0.0, cost_usd=0.4))
    assert budget.spent_usd == pytest.approx(0.4)


def test_lines_a_kill_cut_short_are_skipped_and_reported(
    plan: list[PlanItem], tmp_path: Path
) -> None:
    ledger = tmp_path / "spend.jsonl"
    spend(ledger, f"{plan[0].attempt_id}#1", "a", 0.2, 0.1)
    with ledger.open("ab") as fh:
        fh.write(b'{"kind": "admit", "attempt": "x#1", "ca')  # the kill came mid-write
    budget = Budget(1.0, ledger=ledger)
    assert budget.spent_usd == pytest.approx(0.1)
    assert budget.problems == [
        f"{ledger}: line 3 not a spend line (a write cut short by a kill), skipped: an "
        "admission cut short is a call never sent, and a settlement cut short leaves its "
        "call counted at the estimate"
    ]
    spend(ledger, f"{plan[1].attempt_id}#1", "b", 0.2)  # the next writer starts a new line
    assert budget.admit(plan[1])
    assert budget.spent_usd == pytest.approx(0.3)
    assert len(budget.problems) == 1
