"""runner._attempt.run_try: what ends a try early, and how it is recorded.

The try's body is replaced by one that raises, so each fault class is checked
without a browser; tests/runner/test_executors.py causes real faults.
"""

from __future__ import annotations

from typing import cast

import pytest

from proctor.computer.browser import Recorder
from proctor.errors import (
    AgentError,
    AppLaunchFailed,
    BrowserFault,
    FixtureFault,
    LiveFault,
    ProctorError,
    ProviderFault,
    RunError,
    ScenarioError,
    SetupFault,
    WindowUnavailable,
    WorldError,
)
from proctor.records import InfraFault as InfraRecord
from proctor.runner import PlanItem, _attempt
from proctor.runner._worker import Worker
from proctor.vocab import FaultKind


class FakeWorker:
    def __init__(self) -> None:
        self.relaunches = 0

    async def relaunch(self) -> None:
        self.relaunches += 1


def raising(exc: BaseException) -> object:
    async def one_try(
        worker: Worker, item: PlanItem, try_number: int, held: list[Recorder]
    ) -> None:
        raise exc

    return one_try


@pytest.mark.parametrize(
    ("fault", "kind"),
    [
        (BrowserFault("browser fault: Chromium disconnected"), "browser"),
        (SetupFault("the start page did not load"), "setup"),
        (AppLaunchFailed("mousepad exited"), "desktop"),
        (WindowUnavailable("no window: window_unavailable"), "window_unavailable"),
        (ProviderFault("HTTP 503 after 2 tries"), "provider"),
        (FixtureFault("fixture error on POST shop.test/cart"), "fixture"),
        (WorldError("timeline event 'mail': deliver failed"), "fixture"),
        (LiveFault("the live page answered 503"), "live"),
    ],
)
async def test_an_infra_fault_is_recorded_under_its_kind(
    monkeypatch: pytest.MonkeyPatch, fault: ProctorError, kind: FaultKind
) -> None:
    monkeypatch.setattr(_attempt, "_one_try", raising(fault))
    worker = FakeWorker()
    done = await _attempt.run_try(cast(Worker, worker), cast(PlanItem, None), 2)
    assert isinstance(done, InfraRecord)
    assert (done.try_number, done.kind, done.message) == (2, kind, str(fault))
    assert done.started_at is not None and done.seconds is not None and done.seconds >= 0
    # Only a browser fault relaunches the browser (a set-up fault never did).
    assert worker.relaunches == (1 if kind == "browser" else 0)


@pytest.mark.parametrize(
    "error",
    [AgentError("bad agent"), RunError("bad run"), ScenarioError("bad file"), ValueError("bug")],
)
async def test_any_other_error_is_not_a_fault_of_the_try(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    monkeypatch.setattr(_attempt, "_one_try", raising(error))
    worker = FakeWorker()
    with pytest.raises(type(error), match=str(error)):
        await _attempt.run_try(cast(Worker, worker), cast(PlanItem, None), 1)
    assert worker.relaunches == 0
