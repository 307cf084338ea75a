"""Where each test starts under pytest-xdist: the long ones first, one queue each.

``--dist worksteal`` first deals the collected tests out in equal contiguous runs,
one run per worker, and an idle worker later steals from the tail of the longest
queue. A long test therefore runs as early as its place in its run allows, and
long tests in one run follow each other on one worker. So the long tests (measured
seconds in ``durations.json``; a ``slow`` mark without a measure counts as
``SLOW_S``) are dealt longest first, each to the run with the least long work so
far, and put at the head of it; the short tests fill the rest in collection order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

DURATIONS = Path(__file__).with_name("durations.json")
"""Seconds per test id, as ``make test`` printed them on a 2-core machine (refresh with
``make durations``); a hint for the order only, so a stale entry costs no correctness."""
LONG_S = 10.0
"""A test measured at this or more is dealt as a long one."""
SLOW_S = 60.0


def measured() -> dict[str, float]:
    """The recorded durations; empty when the file is missing."""
    try:
        data: Any = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise pytest.UsageError(f"{DURATIONS}: not a JSON object of seconds ({exc})") from exc
    if not isinstance(data, dict) or not all(isinstance(v, int | float) for v in data.values()):
        raise pytest.UsageError(f"{DURATIONS}: not a JSON object of test id -> seconds")
    return {str(k): float(v) for k, v in data.items()}


def run_sizes(total: int, workers: int) -> list[int]:
    """The lengths of the runs worksteal deals ``total`` tests into, in order."""
    sizes = []
    left = total
    for i in range(workers):
        size = left // (workers - i)
        sizes.append(size)
        left -= size
    return sizes


def deal(items: list[pytest.Item], workers: int, seconds: dict[str, float]) -> list[pytest.Item]:
    """``items`` reordered so that each worker's run starts with its share of long tests."""

    def cost(item: pytest.Item) -> float:
        if item.nodeid in seconds:
            return seconds[item.nodeid]
        return SLOW_S if item.get_closest_marker("slow") is not None else 0.0

    long = sorted((i for i in items if cost(i) >= LONG_S), key=cost, reverse=True)
    if workers <= 1:
        chosen = set(long)
        return long + [i for i in items if i not in chosen]
    sizes = run_sizes(len(items), workers)
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    load = [0.0] * workers
    for item in long:
        k = min(
            (j for j in range(workers) if len(heads[j]) < sizes[j]),
            key=lambda j: (load[j], j),
        )
        heads[k].append(item)
        load[k] += cost(item)
    chosen = set(long)
    rest = iter([i for i in items if i not in chosen])
    dealt: list[pytest.Item] = []
    for k in range(workers):
        dealt += heads[k]
        dealt += [next(rest) for _ in range(sizes[k] - len(heads[k]))]
    return dealt


def workers(config: pytest.Config) -> int:
    """How many xdist workers share the run (1 without xdist)."""
    workerinput = getattr(config, "workerinput", None)
    if isinstance(workerinput, dict):
        return int(workerinput.get("workercount", 1))
    return 1


class DurationRecorder:
    """Sums each test's setup, call and teardown seconds; writes the long ones as JSON.

    Registered on the xdist controller (which receives every worker's reports) when
    ``PROCTOR_RECORD_DURATIONS`` names the file to write: ``make durations``.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seconds: dict[str, float] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        long = {k: round(v, 1) for k, v in self.seconds.items() if v >= LONG_S / 2}
        ordered = dict(sorted(long.items(), key=lambda kv: (-kv[1], kv[0])))
        temp = self.path.with_suffix(".tmp")
        temp.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")
        temp.replace(self.path)
