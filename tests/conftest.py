"""Shared fixtures: one real fixture server + real Chromium per test session."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from _schedule import DurationRecorder, deal, measured, workers
from proctor.records import AttemptRecord
from proctor.runner import PlanItem, RunOptions, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, load_catalog
from proctor.world import all_sites

# Infra-fault retries wait 30 s, then 90 s, in real runs; tests retry at once.
os.environ["PROCTOR_RETRY_DELAYS"] = "0"


def pytest_configure(config: pytest.Config) -> None:
    record = os.environ.get("PROCTOR_RECORD_DURATIONS")
    if record and not hasattr(config, "workerinput"):
        config.pluginmanager.register(DurationRecorder(Path(record)), "proctor-durations")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long tests first, spread over the xdist workers (``_schedule``), so none starts
    late or queues behind another long one on the same worker."""
    items[:] = deal(items, workers(config), measured())


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
