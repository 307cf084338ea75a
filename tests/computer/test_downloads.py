"""Downloads of one name keep every copy, as Chromium does: name (1).ext, name (2).ext."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from proctor.computer import actions as a
from proctor.computer._downloads import free_name, numbered, split_extension
from proctor.computer.browser import BrowserComputer, BrowserOptions, Recorder, launch
from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer, Site

PAGE = """<!doctype html>
<a href="/report.csv?v=1" download>One report</a>
<button id="two">Two reports at once</button>
<button id="later" onclick="setTimeout(() => document.getElementById('late').click(), 600)">
  A report later</button>
<a id="late" href="/report.csv?v=4" download hidden></a>
<script>
// Two downloads of one name from one click: both are saved while the other still is.
document.getElementById('two').addEventListener('click', () => {
  for (const v of ['2', '3']) {
    const link = document.createElement('a');
    link.href = '/report.csv?v=' + v;
    link.download = '';
    document.body.append(link);
    link.click();
  }
});
</script>"""


def body(version: str) -> bytes:
    return f"id,total\n{version},86.40\n".encode()


async def _page(request: Request) -> Response:
    return HTMLResponse(PAGE)


async def _report(request: Request) -> Response:
    return Response(
        body(request.query_params["v"]),
        media_type="text/csv",
        headers={"content-disposition": 'attachment; filename="report.csv"'},
    )


SITE = Site(name="twice", routes=[Route("/", _page), Route("/report.csv", _report)])


@pytest.mark.parametrize(
    ("name", "stem", "ext", "first"),
    [
        ("statement.pdf", "statement", ".pdf", "statement (1).pdf"),
        ("logs.tar.gz", "logs", ".tar.gz", "logs (1).tar.gz"),
        ("photo.v2.jpeg", "photo.v2", ".jpeg", "photo.v2 (1).jpeg"),
        ("README", "README", "", "README (1)"),
        (".env", ".env", "", ".env (1)"),
    ],
)
def test_the_number_goes_before_the_extension(name: str, stem: str, ext: str, first: str) -> None:
    assert split_extension(name) == (stem, ext)
    assert numbered(name, 1) == first


def test_a_free_name_skips_files_on_disk_and_names_being_saved(tmp_path: Path) -> None:
    assert free_name(tmp_path, "../../etc/a.pdf", set()) == "a.pdf"  # the last part only
    assert free_name(tmp_path, "", set()) == "download"
    (tmp_path / "a.pdf").write_bytes(b"1")
    assert free_name(tmp_path, "a.pdf", set()) == "a (1).pdf"
    assert free_name(tmp_path, "a.pdf", {"a (1).pdf"}) == "a (2).pdf"


@pytest.fixture
async def computer(tmp_path: Path) -> AsyncIterator[BrowserComputer]:
    async with FixtureServer([SITE]) as server:
        host = await launch(server.port, DOMAIN)
        (tmp_path / "output").mkdir()
        (tmp_path / "output" / "report.csv").write_bytes(b"seeded before the attempt\n")
        server.begin(
            AttemptWorld("twice-1", 0, dt.datetime(2025, 1, 2, tzinfo=dt.UTC), tmp_path), []
        )
        options = BrowserOptions(
            attempt="twice-1",
            fixture_hosts=tuple(server.hosts()),
            attempt_header=ATTEMPT_HEADER,
            scratch=tmp_path,
        )
        comp = await BrowserComputer.open(
            host, options, Recorder(100, 100), lambda m, u: None, start=f"http://twice.{DOMAIN}/"
        )
        try:
            yield comp
        finally:
            await comp.close()
            server.end("twice-1")
            await host.close()


@pytest.mark.browser
async def test_downloads_of_a_taken_name_are_numbered_and_recorded(
    computer: BrowserComputer,
) -> None:
    output = computer.options.scratch / "output"
    one = await computer.act(a.Click(role="link", name="One report"))
    assert one.status == "ok", one.error
    # report.csv was already there (seeded): the download is kept beside it
    assert one.facts["downloads"] == ["output/report (1).csv"]
    assert one.facts["downloads_renamed"] == {"output/report (1).csv": "report.csv"}
    assert (output / "report.csv").read_bytes() == b"seeded before the attempt\n"
    assert (output / "report (1).csv").read_bytes() == body("1")
    two = await computer.act(a.Click(role="button", name="Two reports at once"))
    assert two.status == "ok", two.error
    got = list(two.facts.get("downloads", []))
    for _ in range(5):  # on a loaded machine the second may start after the click's step ended
        if len(got) >= 2:
            break
        later = await computer.act(a.Wait(ms=3000))
        got += later.facts.get("downloads", [])
    assert sorted(got) == ["output/report (2).csv", "output/report (3).csv"]
    saved = {(output / Path(p).name).read_bytes() for p in got}
    assert saved == {body("2"), body("3")}  # two names, so neither overwrote the other
    digests = {hashlib.sha256(p.read_bytes()).hexdigest() for p in output.iterdir()}
    assert len(digests) == 4


@pytest.mark.browser
async def test_a_download_that_starts_between_steps_is_reported_by_the_next_one(
    computer: BrowserComputer,
) -> None:
    click = await computer.act(a.Click(role="button", name="A report later"))
    assert click.status == "ok" and "downloads" not in click.facts
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while not computer.pending.downloads:  # it starts after the click's step ended
        assert loop.time() < deadline, "the late download never started"
        await asyncio.sleep(0.05)
    after = await computer.act(a.Wait(ms=1))
    assert after.facts["downloads"] == ["output/report (1).csv"], after.facts
    assert (computer.options.scratch / "output" / "report (1).csv").read_bytes() == body("4")
    again = await computer.act(a.Wait(ms=1))
    assert "downloads" not in again.facts  # reported once
