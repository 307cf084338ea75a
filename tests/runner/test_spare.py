"""When the next attempt's blank browser context is made (PROCTOR_SPARE): never (``off``,
the default), while the agent runs (``agent``) or after the attempt's context closed
(``after``); and a prepared one is what the next attempt gets."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from proctor.agents import Computer, Outcome
from proctor.computer.browser import BrowserComputer
from proctor.errors import RunError
from proctor.runner import Arm, PlanItem, RunOptions, Worker, run_attempt
from proctor.scenario import dump_scenario, load_scenario
from proctor.vocab import SpareMode
from proctor.world import Site

pytestmark = pytest.mark.browser


async def plain(request: Request) -> Response:
    return HTMLResponse("<!doctype html><title>Plain</title><p>plain page</p>")


LAB = Site(name="lab", routes=[Route("/plain", plain)])


class Probe:
    """Notes, while it runs, whether a spare is being made and which context it got."""

    kind = "probe"

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.spare_pending: bool | None = None
        self.context: object = None

    async def run(self, brief: str, computer: Computer) -> Outcome:
        self.spare_pending = self.worker.host._spare is not None
        assert isinstance(computer, BrowserComputer)
        self.context = computer.context
        return Outcome("done")


def _item(tmp_path: Path, worker: Worker, probes: list[Probe], repeat: int) -> PlanItem:
    path = tmp_path / "spare.yaml"
    path.write_text(
        dump_scenario(
            {
                "id": "spare",
                "title": "Spare context timing",
                "brief": "Look at {site.lab}.",
                "tier": "local",
                "category": "regression",
                "limits": {"seconds": 30, "tool_calls": 10, "steps": 10},
                "world": {"sites": ["lab"], "browser": {"start": "{site.lab}/plain"}},
                "checks": [{"requested": {"path": "/plain"}}],
                "solution": [{"op": "done"}],
                "decoys": [{"name": "idle", "steps": [{"op": "done"}], "fails": ["requested"]}],
            }
        ),
        encoding="utf-8",
    )

    def factory(_: object) -> Probe:
        probes.append(Probe(worker))
        return probes[-1]

    return PlanItem(load_scenario(path, sites={"lab"}), Arm("probe", "probe", factory), repeat)


@pytest.mark.parametrize(
    ("mode", "during_agent", "after_attempt"),
    [("agent", True, True), ("after", False, True), ("off", False, False)],
)
async def test_spare_mode_decides_when_the_next_context_is_made(
    mode: SpareMode,
    during_agent: bool,
    after_attempt: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PROCTOR_SPARE", mode)
    probes: list[Probe] = []
    async with Worker(tmp_path / "run", RunOptions(screenshots=False), sites=[LAB]) as worker:
        assert worker.spare == mode
        first = await run_attempt(worker, _item(tmp_path, worker, probes, 1), write=False)
        assert first.result == "passed", (first.error, first.failed_checks)
        assert probes[0].spare_pending is during_agent
        pending = worker.host._spare
        assert (pending is not None) is after_attempt
        second = await run_attempt(worker, _item(tmp_path, worker, probes, 2), write=False)
        assert second.result == "passed", (second.error, second.failed_checks)
        if pending is not None:
            # The second attempt got the context made for it, not one of its own.
            context, _page = await asyncio.wait_for(pending, 15)
            assert probes[1].context is context
        else:
            assert probes[1].context is not None


async def test_by_default_no_spare_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROCTOR_SPARE", raising=False)
    probes: list[Probe] = []
    async with Worker(tmp_path / "run", RunOptions(screenshots=False), sites=[LAB]) as worker:
        assert worker.spare == "off"
        record = await run_attempt(worker, _item(tmp_path, worker, probes, 1), write=False)
        assert record.result == "passed", (record.error, record.failed_checks)
        assert probes[0].spare_pending is False
        assert worker.host._spare is None


def test_an_unknown_spare_mode_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCTOR_SPARE", "sometimes")
    with pytest.raises(RunError, match=r"PROCTOR_SPARE='sometimes': use agent, after, off"):
        Worker(Path("unused"), RunOptions())
