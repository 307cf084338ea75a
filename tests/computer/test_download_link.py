"""A click on an ``a[download]`` link waits for the download it starts, however late it comes."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from proctor.computer import actions as a
from proctor.computer.browser import BrowserComputer, BrowserOptions, Recorder, launch
from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer, Site

pytestmark = pytest.mark.browser

BODY = b"id,total\n1,86.40\n"
WAIT_S = 10.0
arrived = threading.Event()
release = threading.Event()


PAGE = """<!doctype html>
<a id="dl" href="/report.csv" download>Get the CSV</a>
<script>
// Like "preparing your file...": the download starts once /prepare answers.
let ready = false;
document.getElementById('dl').addEventListener('click', async (e) => {
  if (ready) return;
  e.preventDefault();
  await fetch('/prepare');
  ready = true;
  e.target.click();
});
</script>"""


async def _page(request: Request) -> Response:
    return HTMLResponse(PAGE)


async def _prepare(request: Request) -> Response:
    """Holds the answer until the test releases it, so the download starts after the click."""
    arrived.set()
    await asyncio.to_thread(release.wait, WAIT_S)
    return Response("ready")


async def _report(request: Request) -> Response:
    return Response(
        BODY,
        media_type="text/csv",
        headers={"content-disposition": 'attachment; filename="report.csv"'},
    )


SLOW = Site(
    name="slow",
    routes=[Route("/", _page), Route("/prepare", _prepare), Route("/report.csv", _report)],
)


@pytest.fixture
async def computer(tmp_path: Path) -> AsyncIterator[BrowserComputer]:
    async with FixtureServer([SLOW]) as server:
        host = await launch(server.port, DOMAIN)
        (tmp_path / "output").mkdir()
        server.begin(
            AttemptWorld("slow-1", 0, dt.datetime(2025, 1, 2, tzinfo=dt.UTC), tmp_path), []
        )
        options = BrowserOptions(
            attempt="slow-1",
            fixture_hosts=tuple(server.hosts()),
            attempt_header=ATTEMPT_HEADER,
            scratch=tmp_path,
        )
        comp = await BrowserComputer.open(
            host, options, Recorder(100, 100), lambda m, u: None, start=f"http://slow.{DOMAIN}/"
        )
        try:
            yield comp
        finally:
            release.set()
            await comp.close()
            server.end("slow-1")
            await host.close()


async def test_a_late_download_is_still_part_of_the_click(computer: BrowserComputer) -> None:
    arrived.clear()
    release.clear()
    click = asyncio.ensure_future(computer.act(a.Click(role="link", name="Get the CSV")))
    assert await asyncio.to_thread(arrived.wait, WAIT_S), "the click never asked for the file"
    # Playwright's click has returned by now; the step must still wait for the download.
    assert not click.done()
    release.set()
    step = await asyncio.wait_for(click, WAIT_S * 2)
    assert step.status == "ok", step.error
    assert step.facts["downloads"] == ["output/report.csv"]
    saved = computer.options.scratch / "output" / "report.csv"
    assert hashlib.sha256(saved.read_bytes()).hexdigest() == hashlib.sha256(BODY).hexdigest()
