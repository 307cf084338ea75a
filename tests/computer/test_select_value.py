"""`select {value}` matches the value attribute only, never an option's visible label."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from proctor.computer import actions as a
from proctor.computer._context import ACTION_TIMEOUT_MS
from proctor.computer.browser import BrowserComputer, BrowserOptions, Recorder, launch
from proctor.records import Step
from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer, Site

pytestmark = pytest.mark.browser

ACTION = TypeAdapter(a.Action)
# "Gold" is the label of the first option and the value of the second: a value
# lookup must land on the second, where Playwright's value-or-label lands on the first.
PAGE = """<!doctype html><title>Tiers</title>
<label>Tier <select name="tier">
  <option value="t1">Gold</option>
  <option value="Gold">Silver</option>
  <option value="t3">Bronze</option>
</select></label>"""


async def _tiers(request: Request) -> Response:
    return HTMLResponse(PAGE)


SITE = Site(name="tiers", routes=[Route("/", _tiers)])


@pytest.fixture(scope="module")
async def tiers(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BrowserComputer]:
    scratch = tmp_path_factory.mktemp("tiers")
    (scratch / "output").mkdir()
    async with FixtureServer([SITE]) as server:
        host = await launch(server.port, DOMAIN)
        world = AttemptWorld("tiers-1", 0, dt.datetime(2025, 1, 2, tzinfo=dt.UTC), scratch)
        server.begin(world, ["tiers"])
        options = BrowserOptions(
            attempt="tiers-1",
            fixture_hosts=tuple(server.hosts()),
            attempt_header=ATTEMPT_HEADER,
            scratch=Path(scratch),
        )
        comp = await BrowserComputer.open(
            host, options, Recorder(100, 100), lambda m, u, r: None, start=f"http://tiers.{DOMAIN}/"
        )
        try:
            yield comp
        finally:
            await comp.close()
            server.end("tiers-1")
            await host.close()


async def _act(comp: BrowserComputer, **action: Any) -> Step:
    return await comp.act(ACTION.validate_python(action))


async def _chosen(comp: BrowserComputer) -> str:
    return str(await comp.page.locator("select").input_value())


async def test_value_selects_the_option_with_that_value(tiers: BrowserComputer) -> None:
    step = await _act(tiers, op="select", role="combobox", name="Tier", value="Gold")
    assert step.status == "ok", step.error
    assert step.facts["values"] == ["Gold"]
    assert await _chosen(tiers) == "Gold"


async def test_a_label_given_as_value_fails_fast_and_selects_nothing(
    tiers: BrowserComputer,
) -> None:
    await _act(tiers, op="select", role="combobox", name="Tier", value="t3")
    step = await _act(tiers, op="select", role="combobox", name="Tier", value="Bronze")
    assert step.status == "error"
    assert step.error == (
        "combobox 'Tier' has no option with value 'Bronze' (values: 't1', 'Gold', 't3'); "
        "to choose by visible text, give label instead"
    )
    assert step.latency_ms < ACTION_TIMEOUT_MS / 2
    assert await _chosen(tiers) == "t3"
    by_label = await _act(tiers, op="select", role="combobox", name="Tier", label="Bronze")
    assert by_label.status == "ok", by_label.error
    assert by_label.facts["values"] == ["t3"]
