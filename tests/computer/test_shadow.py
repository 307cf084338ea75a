"""Shadow DOM through the toolset: an open root is observable and usable, a closed one is not."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import TypeAdapter

from proctor.computer import actions as a
from proctor.computer.browser import BrowserComputer, BrowserHost, BrowserOptions, Recorder, launch
from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer
from proctor.world.sites import shadow

pytestmark = pytest.mark.browser

OFFERS = f"http://shadow.{DOMAIN}/offers"
ACTION = TypeAdapter(a.Action)
CODE = "MBR-2SBH1"


@dataclass
class Opened:
    computer: BrowserComputer
    server: FixtureServer
    attempt: str


@pytest.fixture(scope="module")
async def host_and_server() -> AsyncIterator[tuple[BrowserHost, FixtureServer]]:
    async with FixtureServer([shadow.SITE]) as server:
        host = await launch(server.port, DOMAIN)
        try:
            yield host, server
        finally:
            await host.close()


@pytest.fixture
async def opened(
    host_and_server: tuple[BrowserHost, FixtureServer], tmp_path: Path
) -> AsyncIterator[Opened]:
    host, server = host_and_server
    attempt = f"shadow-{tmp_path.name}"
    (tmp_path / "output").mkdir()
    server.begin(AttemptWorld(attempt, 0, dt.datetime(2025, 1, 2, tzinfo=dt.UTC), tmp_path), [])
    options = BrowserOptions(
        attempt=attempt,
        fixture_hosts=(*server.hosts(), f"127.0.0.1:{server.port}"),
        attempt_header=ATTEMPT_HEADER,
        scratch=tmp_path,
    )
    comp = await BrowserComputer.open(
        host, options, Recorder(100, 100), lambda method, url: None, start=OFFERS
    )
    try:
        yield Opened(comp, server, attempt)
    finally:
        await comp.close()
        server.end(attempt)


async def test_open_shadow_button_is_observed_and_closed_one_is_not(opened: Opened) -> None:
    snapshot = (await opened.computer.observe()).snapshot
    assert re.search(r'- button "Reveal my code" \[ref=e\d+\]', snapshot), snapshot
    assert 'region "Member discount"' in snapshot
    assert "Claim partner offer" not in snapshot
    assert "Partner offer" not in snapshot


async def test_the_observed_ref_clicks_inside_the_open_root(opened: Opened) -> None:
    comp = opened.computer
    snapshot = (await comp.observe()).snapshot
    found = re.search(r'- button "Reveal my code" \[ref=(e\d+)\]', snapshot)
    assert found is not None, snapshot
    click = await comp.act(ACTION.validate_python({"op": "click", "ref": found.group(1)}))
    assert click.status == "ok", click.error
    wait = await comp.act(ACTION.validate_python({"op": "wait", "text": "Your code:"}))
    assert wait.status == "ok", wait.error
    read = await comp.act(ACTION.validate_python({"op": "extract", "role": "status"}))
    assert read.data == f"Your code: {CODE}"
    after = (await comp.observe()).snapshot
    assert re.search(rf'- status \[ref=e\d+\]: "Your code: {CODE}"', after), after
    posts = [
        (r.path, r.json_body)
        for r in opened.server.log.for_attempt(opened.attempt)
        if r.method == "POST"
    ]
    assert posts == [("/submit/reveal", {"offer": "member"})]


async def test_the_closed_button_cannot_be_clicked_by_role_and_name(opened: Opened) -> None:
    step = await opened.computer.act(
        ACTION.validate_python({"op": "click", "role": "button", "name": "Claim partner offer"})
    )
    assert step.status == "error"
    assert step.error is not None and "Timeout" in step.error
    posts = [r.path for r in opened.server.log.for_attempt(opened.attempt) if r.method == "POST"]
    assert posts == []
