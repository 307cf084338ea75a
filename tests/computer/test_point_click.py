"""A click at page coordinates lands at that exact point and waits for the post it starts.

Uses the frames/widget fixture sites: the audit page has a fixed layout with an
iframe (content at 42,162) whose "Approve figures" button spans (82,242)-(282,302)
on the page, and the host's "Mark audit reviewed" button spans (600,200)-(820,260).
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from proctor.computer import actions as a
from proctor.computer.browser import BrowserComputer, BrowserHost, BrowserOptions, Recorder, launch
from proctor.records import Step
from proctor.world import ATTEMPT_HEADER, DOMAIN, AttemptWorld, FixtureServer
from proctor.world.sites import frames, widget

pytestmark = pytest.mark.browser

ACTION = TypeAdapter(a.Action)
AUDIT = f"http://frames.{DOMAIN}/audit"
_ids = itertools.count(1)

Session = tuple[FixtureServer, BrowserHost]
Opener = Callable[[], AbstractAsyncContextManager[tuple[BrowserComputer, str]]]


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    async with FixtureServer([frames.SITE, widget.SITE]) as server:
        host = await launch(server.port, DOMAIN)
        try:
            yield server, host
        finally:
            await host.close()


@pytest.fixture
def audit_page(session: Session, tmp_path: Path) -> Opener:
    """Opens a fresh attempt's browser at the audit page; yields it and the attempt id."""
    server, host = session

    @asynccontextmanager
    async def opened() -> AsyncIterator[tuple[BrowserComputer, str]]:
        attempt = f"point-{next(_ids)}"
        scratch = tmp_path / attempt
        (scratch / "output").mkdir(parents=True)
        world = AttemptWorld(attempt, 0, dt.datetime(2025, 9, 8, tzinfo=dt.UTC), scratch)
        server.begin(world, ["frames", "widget"])
        options = BrowserOptions(
            attempt=attempt,
            fixture_hosts=tuple(server.hosts()),
            attempt_header=ATTEMPT_HEADER,
            scratch=scratch,
            viewport=(1280, 800),
        )
        comp = await BrowserComputer.open(
            host, options, Recorder(100, 100), lambda m, u: None, start=AUDIT
        )
        try:
            yield comp, attempt
        finally:
            await comp.close()
            server.end(attempt)

    return opened


async def _act(comp: BrowserComputer, **action: Any) -> Step:
    return await comp.act(ACTION.validate_python(action))


def _posts(server: FixtureServer, attempt: str) -> list[tuple[str, str, int]]:
    return [
        (r.host, r.path, r.status) for r in server.log.for_attempt(attempt) if r.method == "POST"
    ]


async def test_a_point_click_returns_after_the_post_it_starts(
    session: Session, audit_page: Opener
) -> None:
    server, _ = session
    async with audit_page() as (comp, attempt):
        step = await _act(comp, op="click", x=710, y=230)
        # Read at once, as an agent that says done right away would be graded.
        assert _posts(server, attempt) == [(f"frames.{DOMAIN}", "/submit/audit-review", 303)]
        assert step.status == "ok", step.error
        assert step.output == (
            f"clicked (710,230); now at http://frames.{DOMAIN}/submitted/audit-review/1"
        )
        assert step.facts == {
            "in_frame": False,
            "frame_depth": 0,
            "frame_url": AUDIT,
            "element": "button 'Mark audit reviewed'",
        }


@pytest.mark.parametrize(
    ("x", "y", "tag", "posted"),
    [
        (601, 201, "button", True),  # 1px inside the top-left corner
        (819, 259, "button", True),  # 1px inside the bottom-right corner
        (599, 230, "html", False),  # 1px left of the button
        (710, 261, "html", False),  # 1px below the button
    ],
)
async def test_a_point_click_lands_at_that_exact_point(
    session: Session, audit_page: Opener, x: int, y: int, tag: str, posted: bool
) -> None:
    server, _ = session
    async with audit_page() as (comp, attempt):
        step = await _act(comp, op="click", x=x, y=y)
        assert step.status == "ok", step.error
        assert step.facts["element"].split(" ", 1)[0] == tag
        expected = [(f"frames.{DOMAIN}", "/submit/audit-review", 303)] if posted else []
        assert _posts(server, attempt) == expected


@pytest.mark.parametrize(
    ("x", "y", "tag", "posted"),
    [
        (83, 243, "button", True),  # 1px inside the framed button
        (81, 270, "html", False),  # 1px left of it, still inside the frame
    ],
)
async def test_a_point_click_inside_a_frame_lands_there(
    session: Session, audit_page: Opener, x: int, y: int, tag: str, posted: bool
) -> None:
    server, _ = session
    async with audit_page() as (comp, attempt):
        step = await _act(comp, op="click", x=x, y=y)
        assert step.status == "ok", step.error
        assert step.facts["in_frame"] is True
        assert step.facts["frame_url"] == f"http://widget.{DOMAIN}/approve?audit=AUD-5521"
        assert step.facts["element"].split(" ", 1)[0] == tag
        # Playwright does not wait for a child frame's navigation: the host page's
        # post (which it does wait for) orders the frame's post before our read.
        await _act(comp, op="click", x=710, y=230)
        expected = [(f"widget.{DOMAIN}", "/submit/frame-approve", 303)] if posted else []
        assert _posts(server, attempt) == [
            *expected,
            (f"frames.{DOMAIN}", "/submit/audit-review", 303),
        ]
