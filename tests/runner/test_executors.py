"""The executors for real: faults injected per kind (test_kill_resume.py proves that inline,
pool and Ray write the same tree, killed and resumed or not).

Each fault kind is caused on purpose (``PROCTOR_INJECT``) in a real run and
must be retried, recorded under ``infra_faults`` and never scored.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from executor_support import CLOCK

import proctor
from proctor.api import EXIT_UNSCORED, RunOutcome
from proctor.runner import RunOptions
from proctor.scenario import LoadedScenario
from proctor.vocab import ExecutorKind

pytestmark = pytest.mark.browser

HAS_RAY = importlib.util.find_spec("ray") is not None


def options(**kw: object) -> RunOptions:
    settings: dict[str, object] = {"retry_delays": (0.0,), "clock": CLOCK, **kw}
    return RunOptions(**settings)  # type: ignore[arg-type]


async def run(
    picked: list[LoadedScenario],
    results: Path,
    label: str,
    executor: ExecutorKind = "inline",
    workers: int = 1,
    repeat: int = 1,
    arms: list[str] | None = None,
    **kw: object,
) -> RunOutcome:
    settings = proctor.RunSettings(
        repeat=repeat,
        options=options(**kw),
        results=results,
        label=label,
        executor=executor,
        workers=workers,
    )
    return await proctor.run(picked, arms or ["oracle=scripted"], settings)


@pytest.mark.parametrize(
    ("inject", "kind"),
    [
        ("browser@done", "browser"),  # Chromium dies after done, before the end-state reads
        ("driver@1", "browser"),  # the Playwright driver (node) dies mid-attempt
        ("fixture@1", "fixture"),
    ],
)
async def test_an_injected_fault_is_retried_recorded_and_never_scored(
    tmp_path: Path,
    suite: dict[str, LoadedScenario],
    monkeypatch: pytest.MonkeyPatch,
    inject: str,
    kind: str,
) -> None:
    monkeypatch.setenv("PROCTOR_INJECT", f"manual-extract:{inject}")
    picked = [suite["manual-extract"], suite["loop-shadow-dom"]]
    outcome = await run(picked, tmp_path / "results", "fault", screenshots=False)
    first, second = outcome.records
    assert (first.result, [f.kind for f in first.infra_faults]) == ("passed", [kind])
    assert first.infra_faults[0].try_number == 1
    # The browser was relaunched: the next attempt starts clean on its first try.
    assert (second.result, second.infra_faults) == ("passed", [])
    assert outcome.exit_code == 0
    summary = outcome.summary
    assert summary is not None
    (row,) = summary.metrics
    assert (row.success, row.infra_faults) == (1.0, {kind: 1})
    report = (outcome.folder.path / "report.md").read_text()
    assert f"1 ({kind} 1)" in report


async def test_faults_on_every_try_make_an_error_and_nothing_scored(
    tmp_path: Path, suite: dict[str, LoadedScenario], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROCTOR_INJECT", "browser@1x*")
    outcome = await run(
        [suite["manual-extract"]], tmp_path / "results", "dead", screenshots=False, infra_retries=1
    )
    (record,) = outcome.records
    assert (record.result, record.stop_reason) == ("error", "infra")
    assert [f.try_number for f in record.infra_faults] == [1, 2]
    assert outcome.exit_code == EXIT_UNSCORED


async def test_a_killed_pool_worker_is_a_worker_fault_and_its_attempt_is_retried(
    tmp_path: Path, suite: dict[str, LoadedScenario], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROCTOR_INJECT", "manual-extract:worker@1")
    picked = [suite["manual-extract"], suite["loop-shadow-dom"]]
    outcome = await run(picked, tmp_path / "results", "pool", "pool", 2, screenshots=False)
    by_id = {r.scenario: r for r in outcome.records}
    record = by_id["manual-extract"]
    assert record.result == "passed"
    (fault,) = record.infra_faults
    assert fault.kind == "worker" and "the worker process ended (exit -9)" in fault.message
    assert by_id["loop-shadow-dom"].infra_faults == []


@pytest.mark.slow
async def test_a_hung_pool_worker_is_killed_at_its_deadline_and_retried(
    tmp_path: Path, suite: dict[str, LoadedScenario], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROCTOR_INJECT", "hang@1")
    loaded = suite["manual-extract"]
    # The deadline is the wall limit plus the grace: 20 s here.
    grace = 20.0 - loaded.scenario.limits.seconds
    outcome = await run([loaded], tmp_path / "results", "hung", "pool", 1, grace=grace)
    (record,) = outcome.records
    assert record.result == "passed"
    (fault,) = record.infra_faults
    assert fault.kind == "worker" and "passed the try's deadline (20s" in fault.message
