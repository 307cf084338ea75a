"""The Playwright browser computer against real Chromium and the real fixture server."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import itertools
import os
import re
import signal
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from proctor.computer import actions as a
from proctor.computer._act import POPUP_TIMEOUT_S
from proctor.computer._context import ACTION_TIMEOUT_MS
from proctor.computer._stall import STALL_S
from proctor.computer.browser import (
    BrowserComputer,
    BrowserHost,
    BrowserOptions,
    Recorder,
    launch,
    renderers,
)
from proctor.errors import BrowserFault, LimitReached
from proctor.records import Step
from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer, Site
from proctor.world._site import required

pytestmark = pytest.mark.browser

LAB = f"http://lab.{DOMAIN}"
DENIED = f"http://denied.{DOMAIN}"
ACTION = TypeAdapter(a.Action)


def page(body: str, title: str = "Lab") -> HTMLResponse:
    return HTMLResponse(
        f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"
    )


def static(body: str, title: str = "Lab") -> Any:
    async def handler(request: Request) -> Response:
        return page(body, title)

    return handler


FORM = """
<form method="post" action="/submit/signup" enctype="multipart/form-data">
  <label>Full name <input name="name"></label>
  <label>Plan <select name="plan"><option value="">Choose</option>
    <option value="p1">Basic plan</option><option value="p2">Pro plan</option></select></label>
  <label>Size <select name="size"><option value="s">Small</option>
    <option value="l">Large</option></select></label>
  <label><input type="checkbox" name="terms" value="yes"> I agree</label>
  <label><input type="checkbox" name="news" value="yes" checked> Send news</label>
  <label>Attachment <input type="file" name="doc"></label>
  <button type="submit">Sign up</button>
</form>"""

CLICKS = """
<p id="hits"></p>
<script>function hit(n) { const p = document.getElementById('hits');
  p.textContent = (p.textContent + ' ' + n).trim(); }</script>
<button onclick="hit('alpha')">Alpha</button>
<button id="beta" onclick="hit('beta')">Beta</button>
<button onclick="hit('gamma')"
  style="position:absolute;left:300px;top:300px;width:120px;height:40px">Gamma</button>
<button onclick="document.title = 'Clicked'">Go</button>"""

KEYS = """
<input id="k" aria-label="Keys">
<p id="out"></p>
<script>document.getElementById('k').addEventListener('keydown', e => {
  document.getElementById('out').textContent += '[' + e.key + ']'; });</script>"""

HOVER = """
<button id="h"
  onmouseenter="document.getElementById('hv').textContent = 'hovered'">Hover me</button>
<p id="hv">idle</p>"""

DRAG = """
<div id="pad"
  style="position:absolute;left:50px;top:50px;width:400px;height:300px;background:#eee"></div>
<p id="log" style="position:absolute;top:400px"></p>
<script>
const pad = document.getElementById('pad'), log = document.getElementById('log');
const at = e => { const r = pad.getBoundingClientRect();
  return Math.round(e.clientX - r.left) + ',' + Math.round(e.clientY - r.top); };
let moves = 0;
pad.addEventListener('mousedown', e => { moves = 0; log.textContent = 'down ' + at(e); });
pad.addEventListener('mousemove', e => { moves++; });
pad.addEventListener('mouseup', e => {
  log.textContent += ' up ' + at(e) + ' moves>1 ' + (moves > 1); });
</script>"""

DATA = """
<table id="prices"><tr><th>Item</th><th>Price</th></tr>
  <tr><td>Pen</td><td>$2.50</td></tr><tr><td>Ink</td><td>$7.00</td></tr></table>
<p id="note">Prices include tax.</p>
<nav id="nav"><a href="/form">Sign up</a> <a href="http://lab.proctor.test/keys?x=1">Keys</a></nav>
<span id="tag" data-sku="SKU-9">tag</span>"""

LATE = """
<p id="late"></p>
<script>setTimeout(() => {
  document.getElementById('late').textContent = 'Ready now'; }, 300);</script>"""

POPUP = """<a href="/popped" target="_blank">Open report</a>
<button onclick="window.open('/popped', '', 'noopener')">Open window</button>"""

FRAME = """
<button style="position:absolute;left:10px;top:10px;width:60px;height:30px">Outside</button>
<iframe src="/inner" title="inner"
  style="position:absolute;left:100px;top:100px;width:400px;height:200px;border:0"></iframe>"""

INNER = """<style>body{margin:0}</style>
<button style="width:400px;height:200px" onclick="this.textContent='Pressed'">Inside</button>"""

FRAMED_FORM = """
<iframe src="/inner-form" title="inner form"
  style="position:absolute;left:100px;top:100px;width:400px;height:200px;border:0"></iframe>"""

INNER_FORM = """<style>body{margin:0}</style>
<form method="post" action="/submit/signup"><input type="hidden" name="name" value="Ada">
<button style="width:400px;height:120px">Send from the frame</button></form>"""

COVERED = """
<button>Pay</button>
<div id="cookie-wall"
  style="position:fixed;inset:0;background:rgba(0,0,0,.4)">Accept cookies?</div>"""


async def offline(request: Request) -> Response:
    port = int(request.query_params["port"])
    return page(
        f'<img src="http://example.com/x.png"><img src="http://127.0.0.1:{port}/pixel.png">'
        "<p>offline page</p>"
    )


async def set_cookies(request: Request) -> Response:
    response = page("<p>cookies set</p>")
    response.set_cookie("keep", "1", max_age=3600)
    response.set_cookie("sess", "1")
    return response


async def download(request: Request) -> Response:
    return Response(
        b"a,b\n1,2\n",
        media_type="text/csv",
        headers={"content-disposition": 'attachment; filename="report.csv"'},
    )


SLOW_CLICK = """
<p id="hits"></p>
<button onclick="const t = Date.now(); while (Date.now() - t < 2500) {}
  document.getElementById('hits').textContent = 'clicked'">Slow</button>"""
"""A click handler that holds the renderer past the action timeout: the click is sent and
handled, but the page cannot confirm it in time."""

CHURN = """
<p id="out"></p>
<script>
// Work in small pieces (each well under a ping's patience) before the button exists: a
// page that gets a CPU makes it in about a second; a page starved of the CPU never does.
const channel = new MessageChannel();
let pieces = 0;
channel.port1.onmessage = () => {
  let x = 0;
  for (let i = 0; i < 300000; i++) x += i;
  if (++pieces < 3000) { channel.port2.postMessage(0); return; }
  const b = document.createElement('button');
  b.textContent = 'Ready';
  b.onclick = () => { document.getElementById('out').textContent = 'hit'; };
  document.body.append(b);
};
function start() { channel.port2.postMessage(0); }
</script>"""

SITE = Site(
    name="lab",
    hosts=("denied",),
    routes=[
        Route("/form", static(FORM, "Sign up")),
        Route("/clicks", static(CLICKS, "Clicks")),
        Route("/keys", static(KEYS, "Keys")),
        Route("/hover", static(HOVER)),
        Route("/long", static('<div style="height:5000px;width:4000px">tall</div>')),
        Route("/drag", static(DRAG)),
        Route("/data", static(DATA)),
        Route("/late", static(LATE)),
        Route("/popup", static(POPUP, "Popup")),
        Route("/popped", static("<h1>Report</h1>", "Popped")),
        Route("/offline", offline),
        Route("/deny-link", static(f'<a href="{DENIED}/secret">Leave</a>')),
        Route("/secret", static("secret")),
        Route("/frame", static(FRAME, "Frame")),
        Route("/inner", static(INNER, "Inner")),
        Route("/framed-form", static(FRAMED_FORM, "Framed form")),
        Route("/inner-form", static(INNER_FORM, "Inner form")),
        Route("/cookies", set_cookies),
        Route("/cookies/show", lambda r: PlainTextResponse("ok")),
        Route("/files", static('<a href="/download">Get report</a>')),
        Route("/download", download),
        Route("/covered", static(COVERED)),
        Route("/slow-click", static(SLOW_CLICK)),
        Route("/churn", static(CHURN)),
    ],
    forms={"signup": required("name")},
)


@dataclass
class Env:
    server: FixtureServer
    host: BrowserHost


@pytest.fixture(scope="module")
async def env() -> AsyncIterator[Env]:
    async with FixtureServer([SITE]) as server:
        host = await launch(server.port, DOMAIN)
        try:
            yield Env(server, host)
        finally:
            await host.close()


@pytest.fixture
def other_port() -> Iterator[tuple[int, socket.socket]]:
    """A listening loopback socket that is not the fixture server."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)
    try:
        yield sock.getsockname()[1], sock
    finally:
        sock.close()


_ids = itertools.count(1)


@asynccontextmanager
async def computer(
    env: Env,
    tmp_path: Path,
    start: str | None = None,
    *,
    deny: tuple[str, ...] = (),
    blocked: list[tuple[str, str]] | None = None,
    recorder: Recorder | None = None,
) -> AsyncIterator[BrowserComputer]:
    """One attempt's browser on the lab site; ends the attempt and closes the context."""
    attempt = f"browser-{next(_ids)}"
    scratch = tmp_path / attempt
    (scratch / "output").mkdir(parents=True)
    world = AttemptWorld(attempt, 0, dt.datetime(2025, 1, 2, tzinfo=dt.UTC), scratch)
    env.server.begin(world, ["lab"])
    options = BrowserOptions(
        attempt=attempt,
        fixture_hosts=(*env.server.hosts(), f"127.0.0.1:{env.server.port}"),
        attempt_header=ATTEMPT_HEADER,
        scratch=scratch,
        deny_origins=deny,
    )
    sink = blocked if blocked is not None else []
    comp = await BrowserComputer.open(
        env.host,
        options,
        recorder or Recorder(1000, 1000),
        lambda method, url, kind: sink.append((method, url)),
        start=start,
    )
    try:
        yield comp
    finally:
        await comp.close()
        env.server.end(attempt)


def held(seconds: float) -> Any:
    """A route handler that holds each request ``seconds`` before it goes on."""

    async def hold(route: Any) -> None:
        await asyncio.sleep(seconds)
        with contextlib.suppress(Exception):  # the page gave up on it meanwhile
            await route.continue_()

    return hold


async def act(comp: BrowserComputer, **action: Any) -> Step:
    return await comp.act(ACTION.validate_python(action))


async def text_of(comp: BrowserComputer, selector: str) -> str:
    step = await act(comp, op="extract", kind="text", selector=selector)
    assert step.status == "ok", step.error
    return str(step.data)


# ----- observing and clicking --------------------------------------------------


async def test_observe_gives_url_title_tabs_and_refs_that_click(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/clicks") as comp:
        obs = await comp.observe()
        assert obs.url == f"{LAB}/clicks"
        assert obs.title == "Clicks"
        assert [(t.index, t.url, t.title) for t in obs.tabs] == [(0, f"{LAB}/clicks", "Clicks")]
        assert obs.active == 0
        assert obs.error is None
        match = re.search(r'button "Go" \[ref=(e\d+)\]', obs.snapshot)
        assert match, obs.snapshot
        step = await act(comp, op="click", ref=match.group(1))
        assert step.status == "ok", step.error
        assert step.target == f"ref={match.group(1)}"
        assert (await comp.observe()).title == "Clicked"


async def test_click_by_role_selector_and_point(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/clicks") as comp:
        by_role = await act(comp, op="click", role="button", name="Alpha")
        by_css = await act(comp, op="click", selector="#beta")
        by_point = await act(comp, op="click", x=360, y=320)
        assert [s.status for s in (by_role, by_css, by_point)] == ["ok", "ok", "ok"]
        assert by_point.facts["in_frame"] is False
        assert by_point.facts["element"] == "button 'Gamma'"
        assert await text_of(comp, "#hits") == "alpha beta gamma"
        assert comp.recorder.inputs == 3


# ----- input -------------------------------------------------------------------


async def test_fill_select_check_and_upload_reach_the_server(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/form") as comp:
        doc = comp.options.scratch / "notes.txt"  # uploads come from the task's folder only
        doc.write_bytes(b"hello upload\n")
        steps = [
            await act(comp, op="fill", role="textbox", name="Full name", value="Ada Lovelace"),
            await act(comp, op="select", role="combobox", name="Plan", value="p2"),
            await act(comp, op="select", selector="select[name=size]", label="Large"),
            await act(comp, op="check", role="checkbox", name="I agree"),
            await act(comp, op="check", role="checkbox", name="Send news", checked=False),
            await act(comp, op="upload", selector="input[type=file]", files=[str(doc)]),
        ]
        assert [s.status for s in steps] == ["ok"] * 6, [s.error for s in steps]
        assert steps[1].facts["values"] == ["p2"]
        assert steps[2].facts["values"] == ["l"]
        assert steps[5].facts["files"] == ["notes.txt"]
        submit = await act(comp, op="click", role="button", name="Sign up")
        assert submit.status == "ok", submit.error
        assert comp.page.url == f"{LAB}/submitted/signup/1"
        attempt = comp.options.attempt
    (post,) = [r for r in env.server.log.for_attempt(attempt) if r.method == "POST"]
    assert post.path == "/submit/signup"
    assert post.form == {"name": ["Ada Lovelace"], "plan": ["p2"], "size": ["l"], "terms": ["yes"]}
    assert post.files == {
        "doc": [
            {
                "filename": "notes.txt",
                "size": 13,
                "sha256": hashlib.sha256(b"hello upload\n").hexdigest(),
            }
        ]
    }
    assert post.status == 303


async def test_upload_of_a_missing_file_is_an_error_step(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/form") as comp:
        step = await act(comp, op="upload", selector="input[type=file]", files=["nope.txt"])
        assert step.status == "error"
        assert step.error == "no such file: nope.txt"


async def test_upload_from_outside_the_scratch_folder_is_refused(env: Env, tmp_path: Path) -> None:
    outside = tmp_path / "answer-key.yaml"
    outside.write_text("solution: []\n")
    async with computer(env, tmp_path, f"{LAB}/form") as comp:
        link = comp.options.scratch / "link.yaml"
        link.symlink_to(outside)  # a symlink out of the folder is outside too
        steps = [
            await act(comp, op="upload", selector="input[type=file]", files=[str(outside)]),
            await act(comp, op="upload", selector="input[type=file]", files=["link.yaml"]),
            await act(comp, op="upload", selector="input[type=file]", files=["../answer-key.yaml"]),
        ]
        assert [s.status for s in steps] == ["refused"] * 3
        assert all("only files in the task's folder" in (s.error or "") for s in steps)


async def test_press_and_type(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/keys") as comp:
        typed = await act(comp, op="type", role="textbox", name="Keys", text="ab")
        pressed = await act(comp, op="press", key="Enter")
        on_element = await act(comp, op="press", selector="#k", key="Shift+Tab")
        assert [s.status for s in (typed, pressed, on_element)] == ["ok"] * 3
        assert await text_of(comp, "#out") == "[a][b][Enter][Shift][Tab]"
        value = await act(comp, op="extract", kind="attribute", selector="#k", attribute="id")
        assert value.data == "k"
        assert await comp.page.input_value("#k") == "ab"


async def test_hover(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/hover") as comp:
        step = await act(comp, op="hover", role="button", name="Hover me")
        assert step.status == "ok", step.error
        assert await text_of(comp, "#hv") == "hovered"


async def test_scroll_changes_the_scroll_facts(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/long") as comp:
        down = await act(comp, op="scroll", direction="down", amount=600)
        assert down.status == "ok", down.error
        assert down.facts["scroll"] == {"x": 0, "y": 600}
        up = await act(comp, op="scroll", direction="up", amount=200)
        assert up.facts["scroll"] == {"x": 0, "y": 400}
        right = await act(comp, op="scroll", direction="right", amount=300)
        assert right.facts["scroll"] == {"x": 300, "y": 400}


async def test_drag_within_an_element(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/drag") as comp:
        step = await act(
            comp,
            op="drag",
            start={"x": 10, "y": 20},
            end={"x": 200, "y": 100},
            within={"selector": "#pad"},
        )
        assert step.status == "ok", step.error
        assert step.facts == {"from": [60.0, 70.0], "to": [250.0, 150.0]}
        assert await text_of(comp, "#log") == "down 10,20 up 200,100 moves>1 true"


# ----- reading -----------------------------------------------------------------


async def test_extract_text_table_links_and_attribute(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/data") as comp:
        text = await act(comp, op="extract", kind="text", selector="#note")
        table = await act(comp, op="extract", kind="table", selector="#prices")
        links = await act(comp, op="extract", kind="links", selector="#nav")
        attr = await act(
            comp, op="extract", kind="attribute", selector="#tag", attribute="data-sku"
        )
        assert text.data == "Prices include tax."
        assert table.data == [{"Item": "Pen", "Price": "$2.50"}, {"Item": "Ink", "Price": "$7.00"}]
        assert links.data == [
            {"text": "Sign up", "href": f"{LAB}/form"},
            {"text": "Keys", "href": f"{LAB}/keys?x=1"},
        ]
        assert attr.data == "SKU-9"
        missing = await act(
            comp, op="extract", kind="attribute", selector="#nope", attribute="data-sku"
        )
        assert missing.status == "error"
        assert missing.error == "css=#nope matches no element"


async def test_wait_for_text(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/late") as comp:
        step = await act(comp, op="wait", text="Ready now")
        assert step.status == "ok", step.error
        assert step.output == "saw 'Ready now'"


# ----- tabs ----------------------------------------------------------------------


async def test_a_popup_is_a_new_tab_observed_only_once_activated(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/popup") as comp:
        click = await act(comp, op="click", role="link", name="Open report")
        assert click.status == "ok", click.error
        assert click.facts["new_tabs"] == [1]
        obs = await comp.observe()
        assert (obs.url, obs.title, obs.active) == (f"{LAB}/popup", "Popup", 0)
        listed = await act(comp, op="tabs", action="list")
        assert listed.data == [
            {"index": 0, "url": f"{LAB}/popup", "title": "Popup"},
            {"index": 1, "url": f"{LAB}/popped", "title": "Popped"},
        ]
        activated = await act(comp, op="tabs", action="activate", index=1)
        assert activated.facts["active"] == 1
        obs = await comp.observe()
        assert (obs.url, obs.title, obs.active) == (f"{LAB}/popped", "Popped", 1)
        closed = await act(comp, op="tabs", action="close", index=1)
        assert closed.status == "ok", closed.error
        assert closed.data == [{"index": 0, "url": f"{LAB}/popup", "title": "Popup"}]
        obs = await comp.observe()
        assert (obs.url, obs.active, len(obs.tabs)) == (f"{LAB}/popup", 0, 1)
        bad = await act(comp, op="tabs", action="activate", index=5)
        assert bad.status == "error"
        assert bad.error == "no tab 5; 1 tab(s) are open"


async def test_window_open_is_a_new_tab_too(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/popup") as comp:
        click = await act(comp, op="click", role="button", name="Open window")
        assert click.status == "ok", click.error
        assert click.facts["new_tabs"] == [1]
        assert click.output.endswith("; opened tab(s) [1] (observation stays on tab 0)")
        # the tab was waited for, not the popup deadline waited out (no wall-time bar here)
        assert click.latency_ms < POPUP_TIMEOUT_S * 1000


# ----- boundaries ------------------------------------------------------------------


async def test_offline_blocks_and_logs_off_world_requests(
    env: Env, tmp_path: Path, other_port: tuple[int, socket.socket]
) -> None:
    port, listener = other_port
    blocked: list[tuple[str, str]] = []
    async with computer(env, tmp_path, f"{LAB}/offline?port={port}", blocked=blocked) as comp:
        assert "offline page" in await comp.page_text()
        attempt = comp.options.attempt
    assert sorted(blocked) == [
        ("GET", f"http://127.0.0.1:{port}/pixel.png"),
        ("GET", "http://example.com/x.png"),
    ]
    with pytest.raises(BlockingIOError):
        listener.accept()
    hosts = {r.host for r in env.server.log.for_attempt(attempt)}
    assert hosts == {f"lab.{DOMAIN}"}


async def test_navigate_to_a_denied_origin_is_refused_before_any_request(
    env: Env, tmp_path: Path
) -> None:
    deny = (DENIED,)
    async with computer(env, tmp_path, f"{LAB}/deny-link", deny=deny) as comp:
        click = await act(comp, op="click", role="link", name="Leave")
        assert click.status == "refused"
        assert click.error == f"navigation to a denied origin was refused: {DENIED}/secret"
        assert (await comp.observe()).error == click.error
        nav = await act(comp, op="navigate", url=f"{DENIED}/secret")
        assert nav.status == "refused"
        assert nav.error == f"navigation to {DENIED} is denied for this task; refused"
        shouting = await act(comp, op="navigate", url="HTTP://Denied.Proctor.Test/secret")
        assert shouting.status == "refused"
        default_port = await act(comp, op="navigate", url=f"http://denied.{DOMAIN}:80/secret")
        assert default_port.status == "refused"
        attempt = comp.options.attempt
    hosts = [r.host for r in env.server.log.for_attempt(attempt)]
    assert hosts == [f"lab.{DOMAIN}"]


async def test_point_click_reports_the_frame_it_lands_in(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/frame") as comp:
        inside = await act(comp, op="click", x=300, y=200)
        outside = await act(comp, op="click", x=20, y=20)
        assert inside.facts == {
            "in_frame": True,
            "frame_depth": 1,
            "frame_url": f"{LAB}/inner",
            "element": "button 'Inside'",
        }
        assert outside.facts == {
            "in_frame": False,
            "frame_depth": 0,
            "frame_url": f"{LAB}/frame",
            "element": "button 'Outside'",
        }
        frame = comp.page.frames[1]
        assert await frame.inner_text("button") == "Pressed"


async def test_a_post_inside_a_frame_is_waited_for_before_the_next_observation(
    env: Env, tmp_path: Path
) -> None:
    """Playwright waits for a main-frame navigation a click starts, never a framed one."""
    async with computer(env, tmp_path, f"{LAB}/framed-form") as comp:
        assert comp.context is not None
        await comp.context.route("**/submit/signup", held(1.0))  # a post slow to arrive
        step = await act(comp, op="click", x=300, y=150)
        assert step.status == "ok" and step.facts["in_frame"] is True
        seen = await comp.observe()
        assert "Submission #1 (signup) was accepted." in seen.snapshot, seen.snapshot
        assert step.facts["frames_loaded"] == [f"{LAB}/submitted/signup/1"], step.facts
        # A click in the frame that starts nothing is not held up.
        other = await act(comp, op="click", x=20, y=20)
        assert "frames_loaded" not in other.facts


async def test_restart_keeps_persistent_cookies_and_drops_session_ones(
    env: Env, tmp_path: Path
) -> None:
    async with computer(env, tmp_path, f"{LAB}/cookies") as comp:
        await act(comp, op="navigate", url=f"{LAB}/cookies/show")
        restart = await act(comp, op="restart")
        assert restart.status == "ok", restart.error
        assert restart.facts["cookies_kept"] == 1
        after = await act(comp, op="navigate", url=f"{LAB}/cookies/show")
        assert after.status == "ok", after.error
        attempt = comp.options.attempt
    shows = [r.cookies for r in env.server.log.for_attempt(attempt) if r.path == "/cookies/show"]
    assert shows == [["keep", "sess"], ["keep"]]


async def test_a_download_is_saved_under_scratch_output(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/files") as comp:
        step = await act(comp, op="click", role="link", name="Get report")
        assert step.status == "ok", step.error
        assert step.facts["downloads"] == ["output/report.csv"]
        saved = comp.options.scratch / "output" / "report.csv"
        assert saved.read_bytes() == b"a,b\n1,2\n"


# ----- limits and failures ----------------------------------------------------------


async def test_the_tool_call_limit_is_exact(env: Env, tmp_path: Path) -> None:
    recorder = Recorder(tool_calls_limit=3, steps_limit=100)
    async with computer(env, tmp_path, f"{LAB}/clicks", recorder=recorder) as comp:
        await comp.observe()
        await act(comp, op="tabs")
        await act(comp, op="tabs")
        with pytest.raises(LimitReached) as info:
            await comp.observe()
        assert info.value.reason == "tool_limit"
        with pytest.raises(LimitReached):
            await act(comp, op="done")
    assert (recorder.tool_calls, recorder.actions, len(recorder.steps)) == (3, 2, 2)


async def test_the_step_limit_is_exact_and_done_stays_allowed(env: Env, tmp_path: Path) -> None:
    recorder = Recorder(tool_calls_limit=100, steps_limit=2)
    async with computer(env, tmp_path, f"{LAB}/clicks", recorder=recorder) as comp:
        await act(comp, op="click", role="button", name="Alpha")
        await act(comp, op="click", role="button", name="Alpha")
        await comp.observe()
        with pytest.raises(LimitReached) as info:
            await act(comp, op="click", role="button", name="Alpha")
        assert info.value.reason == "step_limit"
        done = await act(comp, op="done", answer="42")
        assert done.status == "ok"
        assert comp.finished and comp.answer == "42"
    assert [s.op for s in recorder.steps] == ["click", "click", "done"]
    assert recorder.tool_calls == 4


async def test_a_missing_element_is_an_error_step_within_the_action_timeout(
    env: Env, tmp_path: Path
) -> None:
    async with computer(env, tmp_path, f"{LAB}/clicks") as comp:
        step = await act(comp, op="click", selector="#missing")
        assert step.status == "error"
        assert step.output == "failed"
        assert step.error is not None
        assert step.error.startswith(f"Timeout {ACTION_TIMEOUT_MS}ms exceeded"), step.error
        assert ACTION_TIMEOUT_MS <= step.latency_ms < ACTION_TIMEOUT_MS + 5_000
        machine = step.facts["machine"]  # the evidence that the machine served the wait
        assert machine["starved_s"] < STALL_S and machine["paused_s"] < STALL_S, machine
        assert (await comp.observe()).error == step.error
        ok = await act(comp, op="click", role="button", name="Alpha")
        assert ok.status == "ok"
        assert (await comp.observe()).error is None
        assert [s.status for s in comp.recorder.steps] == ["error", "ok"]


SHORT_TIMEOUT_MS = 3_000
PAUSE_S = 2.0
"""Longer than ``_stall.STALL_S``, well inside the shortened action timeout."""


async def test_a_timeout_while_this_process_stalls_is_an_infra_fault(
    env: Env, tmp_path: Path
) -> None:
    async with computer(env, tmp_path, f"{LAB}/clicks") as comp:
        assert comp.context is not None
        comp.context.set_default_timeout(SHORT_TIMEOUT_MS)
        # this process is not scheduled for PAUSE_S, as on a machine short of cores
        asyncio.get_running_loop().call_later(0.7, time.sleep, PAUSE_S)
        with pytest.raises(BrowserFault, match=r"machine stalled during click: .*Timeout"):
            await act(comp, op="click", selector="#missing")
        assert comp.recorder.steps == []  # nothing scored: the runner retries the attempt


async def test_a_timeout_while_chromium_stalls_is_an_infra_fault(env: Env, tmp_path: Path) -> None:
    chromium, _driver = env.host.process_ids()
    assert chromium is not None
    async with computer(env, tmp_path, f"{LAB}/clicks") as comp:
        assert comp.context is not None
        comp.context.set_default_timeout(SHORT_TIMEOUT_MS)
        loop = asyncio.get_running_loop()
        loop.call_later(0.7, os.kill, chromium, signal.SIGSTOP)
        resume = loop.call_later(0.7 + PAUSE_S, os.kill, chromium, signal.SIGCONT)
        try:
            with pytest.raises(BrowserFault, match=r"nothing answered for \d\.\ds while"):
                await act(comp, op="click", selector="#missing")
        finally:
            resume.cancel()
            os.kill(chromium, signal.SIGCONT)
        ok = await act(comp, op="click", role="button", name="Alpha")
        assert ok.status == "ok", ok.error  # it runs again; the fault was the pause's


async def test_a_timeout_while_the_page_renderer_stalls_is_an_infra_fault(
    env: Env, tmp_path: Path
) -> None:
    """A stalled renderer reads like a missing element while the browser answers."""
    chromium, _driver = env.host.process_ids()
    assert chromium is not None
    async with computer(env, tmp_path, f"{LAB}/clicks") as comp:
        assert comp.context is not None
        comp.context.set_default_timeout(SHORT_TIMEOUT_MS)
        stopped = renderers(chromium)
        assert stopped, "no renderer found under Chromium"
        with (
            stopped_for(stopped, after=0.7, seconds=PAUSE_S),
            pytest.raises(BrowserFault, match=r"machine stalled during click"),
        ):
            await act(comp, op="click", selector="#missing")
        assert comp.recorder.steps == []
        ok = await act(comp, op="click", role="button", name="Alpha")
        assert ok.status == "ok", ok.error


async def test_a_navigation_while_the_renderer_is_stopped_is_an_infra_fault(
    env: Env, tmp_path: Path
) -> None:
    """A navigation pings no page (DevTools holds it): the kernel says the renderer stood still."""
    chromium, _driver = env.host.process_ids()
    assert chromium is not None
    async with computer(env, tmp_path, f"{LAB}/clicks") as comp:
        assert comp.context is not None
        comp.context.set_default_navigation_timeout(SHORT_TIMEOUT_MS)
        await comp.context.route("**/form", held(1.0))  # it answers after the stop
        stopped = renderers(chromium)
        assert stopped, "no renderer found under Chromium"
        # stopped past the navigation timeout: it runs out while they stand still
        with (
            stopped_for(stopped, after=0.5, seconds=SHORT_TIMEOUT_MS / 1000 + 1.0),
            pytest.raises(BrowserFault, match=r"machine stalled during navigate: .*CPU"),
        ):
            await act(comp, op="navigate", url=f"{LAB}/form")
        assert comp.recorder.steps == []


@contextlib.contextmanager
def stopped_for(pids: list[int], *, after: float, seconds: float) -> Iterator[None]:
    """SIGSTOP ``pids`` ``after`` seconds into the block, SIGCONT them ``seconds`` later,
    and at the latest when the block ends (the loop's timers: the action runs meanwhile)."""

    def send(sig: signal.Signals) -> None:
        for pid in pids:
            os.kill(pid, sig)

    loop = asyncio.get_running_loop()
    stop = loop.call_later(after, send, signal.SIGSTOP)
    resume = loop.call_later(after + seconds, send, signal.SIGCONT)
    try:
        yield
    finally:
        stop.cancel()
        resume.cancel()
        send(signal.SIGCONT)


@contextlib.contextmanager
def starved(pids: list[int], *, runs_s: float = 0.002, every_s: float = 0.1) -> Iterator[None]:
    """Starve processes of the CPU, whatever else the machine runs: a thread of this test
    stops them and lets them run ``runs_s`` in each ``every_s``. They answer each ping
    within about ``every_s`` (never 1.5 s late, no single stop is long), yet get at most
    a fiftieth of a CPU (a busy machine's scheduler can only give them less)."""
    done = threading.Event()

    def send(sig: signal.Signals) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def duty() -> None:
        while not done.is_set():
            send(signal.SIGSTOP)
            if done.wait(every_s - runs_s):
                break
            send(signal.SIGCONT)
            time.sleep(runs_s)

    thread = threading.Thread(target=duty, name="starver", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(timeout=30)
        send(signal.SIGCONT)


async def test_a_timeout_while_the_page_is_starved_of_cpu_is_an_infra_fault(
    env: Env, tmp_path: Path
) -> None:
    """Every ping answers, late; the page never got the CPU to make its button."""
    chromium, _driver = env.host.process_ids()
    assert chromium is not None
    before = set(renderers(chromium))
    async with computer(env, tmp_path, f"{LAB}/churn") as comp:
        assert comp.context is not None
        comp.context.set_default_timeout(SHORT_TIMEOUT_MS)
        # this context's own renderers: they end with the context, nice 19 and all
        ours = sorted(set(renderers(chromium)) - before)
        assert ours, "no renderer of this context found under Chromium"
        with starved(ours):
            await comp.page.evaluate("start()")
            with pytest.raises(BrowserFault, match=r"machine stalled during click: ") as fault:
                await act(comp, op="click", role="button", name="Ready")
        # the renderer ran often enough to answer every ping: the kernel's count decided
        assert re.search(r"during click: .* without a CPU", str(fault.value)), fault.value
        assert comp.recorder.steps == []
        comp.context.set_default_timeout(60_000)
        ok = await act(comp, op="click", role="button", name="Ready")
        assert ok.status == "ok", ok.error  # fed again, the page makes its button


async def test_a_click_the_page_took_but_confirmed_late_is_done(env: Env, tmp_path: Path) -> None:
    """Playwright sent the click; only the page's answer about it outlasted the timeout."""
    async with computer(env, tmp_path, f"{LAB}/slow-click") as comp:
        assert comp.context is not None
        comp.context.set_default_timeout(1_000)
        step = await act(comp, op="click", role="button", name="Slow")
        assert step.status == "ok", step.error
        assert step.facts["input"].startswith("slow: sent; the page answered"), step.facts
        assert await text_of(comp, "#hits") == "clicked"  # once: the click was not repeated


@pytest.mark.parametrize(
    "submit",
    [
        {"op": "click", "role": "button", "name": "Sign up"},
        {"op": "press", "role": "textbox", "name": "Full name", "key": "Enter"},
    ],
    ids=["click", "enter"],
)
async def test_an_input_whose_post_outlasts_the_action_timeout_is_done_once(
    env: Env, tmp_path: Path, submit: dict[str, str]
) -> None:
    """The page took the input; only its post was slow: not a failed step to retry."""
    async with computer(env, tmp_path, f"{LAB}/form") as comp:
        assert comp.context is not None
        comp.context.set_default_timeout(1_000)
        await comp.context.route("**/submit/signup", held(1.6))
        await act(comp, op="fill", role="textbox", name="Full name", value="Ada Lovelace")
        step = await act(comp, **submit)
        assert step.status == "ok", step.error
        assert step.facts["navigation"].startswith("slow: committed"), step.facts
        # Playwright learns the frame's new URL from an event of its own, which a loaded
        # machine can deliver a moment after the commit the step waited for.
        await comp.page.wait_for_url(f"{LAB}/submitted/signup/1", timeout=30_000)
        assert "Submission #1 (signup) was accepted." in (await comp.observe()).snapshot
        missing = await act(comp, op="press", selector="#missing", key="Enter")
        assert missing.status == "error" and "navigation" not in missing.facts  # never found
        attempt = comp.options.attempt
    posts = [r for r in env.server.log.for_attempt(attempt) if r.method == "POST"]
    assert len(posts) == 1


async def test_a_page_too_slow_to_open_is_the_agents_timeout_not_a_stall(
    env: Env, tmp_path: Path
) -> None:
    """DevTools holds commands to a renderer while it navigates: no renderer ping then."""
    async with computer(env, tmp_path, f"{LAB}/clicks") as comp:
        assert comp.context is not None
        comp.context.set_default_navigation_timeout(3_000)
        await comp.context.route("**/form", held(4.0))
        step = await act(comp, op="navigate", url=f"{LAB}/form")
        assert step.status == "error", step.error
        assert step.error is not None and "Timeout" in step.error


async def test_a_covered_element_says_it_is_covered(env: Env, tmp_path: Path) -> None:
    async with computer(env, tmp_path, f"{LAB}/covered") as comp:
        step = await act(comp, op="click", role="button", name="Pay")
        assert step.status == "error"  # the click never landed: the agent's timeout
        assert "navigation" not in step.facts
        assert step.error is not None
        assert "covered" in step.error, step.error
        assert "cookie-wall" in step.error, step.error
