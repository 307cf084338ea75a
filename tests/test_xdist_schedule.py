"""The test scheduler's dealing (``_schedule``), against xdist's own first split."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from xdist.scheduler import worksteal

from _schedule import LONG_S, deal, run_sizes


@dataclass(frozen=True)
class Fake:
    nodeid: str
    slow: bool = False

    def get_closest_marker(self, name: str) -> Any:
        return object() if (name == "slow" and self.slow) else None


class Node:
    """What xdist's scheduler needs of a worker: it records the tests sent to it."""

    def __init__(self, i: int) -> None:
        self.gateway = SimpleNamespace(id=f"gw{i}")
        self.shutting_down = False
        self.sent: list[int] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def xdist_runs(total: int, workers: int) -> list[list[int]]:
    """The runs xdist's own worksteal scheduler deals first: test indices per worker."""
    config = SimpleNamespace(option=SimpleNamespace(numprocesses=workers, tx=[]))
    with mock.patch.object(worksteal, "parse_tx_spec_config", return_value=["popen"] * workers):
        scheduler = worksteal.WorkStealingScheduling(config)  # type: ignore[arg-type]
    nodes = [Node(i) for i in range(workers)]
    collection = [f"t{i}" for i in range(total)]
    for node in nodes:
        scheduler.add_node(node)  # type: ignore[arg-type]
    for node in nodes:
        scheduler.add_node_collection(node, collection)  # type: ignore[arg-type]
    scheduler.schedule()
    return [node.sent for node in nodes]


@pytest.mark.parametrize(("total", "workers"), [(2157, 4), (10, 3), (7, 6), (5, 1)])
def test_run_sizes_match_the_first_split(total: int, workers: int) -> None:
    assert run_sizes(total, workers) == [len(r) for r in xdist_runs(total, workers)]


def test_long_tests_head_the_runs_longest_first_to_the_least_loaded() -> None:
    items: list[Any] = [Fake(f"t{i}") for i in range(40)]
    items[30] = Fake("marked", slow=True)
    seconds = {"t5": 500.0, "t12": 100.0, "t20": 90.0, "t33": 80.0, "t39": LONG_S - 1}
    dealt = deal(items, 4, seconds)
    assert sorted(i.nodeid for i in dealt) == sorted(i.nodeid for i in items)  # none lost
    runs = [[dealt[k].nodeid for k in r] for r in xdist_runs(40, 4)]
    # 500 alone; then 100, 90, 80 to the empty runs; the slow mark (60 s) to the lightest
    assert [run[0] for run in runs] == ["t5", "t12", "t20", "t33"]
    assert runs[3][1] == "marked"
    short = [n for run in runs for n in run if n not in {"t5", "t12", "t20", "t33", "marked"}]
    assert short == [i.nodeid for i in items if i.nodeid in short]  # in collection order


def test_without_workers_the_long_tests_come_first() -> None:
    items: list[Any] = [Fake("a"), Fake("b", slow=True), Fake("c")]
    assert [i.nodeid for i in deal(items, 1, {"c": 30.0})] == ["b", "c", "a"]
