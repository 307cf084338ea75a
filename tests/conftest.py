"""Shared fixtures: one real fixture server + real Chromium per test session."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, RunOptions, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, load_catalog
from proctor.world import all_sites

# Infra-fault retries wait 30 s, then 90 s, in real runs; tests retry at once.
os.environ["PROCTOR_RETRY_DELAYS"] = "0"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests first: pytest-xdist hands them out before the many short ones, so no
    long test starts last and leaves the other workers idle while it runs alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def suite() -> dict[str, LoadedScenario]:
    """The shipped scenarios, by id."""
    return load_catalog(sites=set(all_sites())).scenarios


@pytest.fixture(scope="session")
async def worker(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Worker]:
    """A started worker (fixture server + Chromium) shared by the session's tests."""
    # A results root of its own, as in results/<label>: the jail hides the whole root.
    run_dir = tmp_path_factory.mktemp("results") / "run"
    async with Worker(run_dir, RunOptions(screenshots=False, retry_delays=(0.0,))) as w:
        yield w


async def attempt(
    worker: Worker, loaded: LoadedScenario, spec: str = "oracle=scripted", repeat: int = 1
) -> AttemptRecord:
    """Run one attempt of ``loaded`` with the arm ``spec`` (NAME=SPEC)."""
    return await run_attempt(worker, PlanItem(loaded, parse_arm(spec), repeat), write=False)


def results_dir(tmp_path: Path) -> Path:
    return tmp_path / "results"
