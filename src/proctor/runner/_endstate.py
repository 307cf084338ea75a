"""Phase 4 of a try, read the end state: the facts only the live computer knows, read
before teardown (the page or the apps, after.png, the answer, the sites' snapshots),
then, after it, the ``EndState`` grading reads (the request log, the scratch files, the
user, the lease, a live scenario's pages)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from proctor.agents import Outcome
from proctor.computer.browser import BrowserComputer, Lease
from proctor.computer.desktop import DesktopComputer
from proctor.errors import FixtureFault
from proctor.records import DesktopState, EndState, Tab
from proctor.runner._setup import TrySetup
from proctor.runner._worker import Worker
from proctor.world import read_live, snapshot_dirs, snapshot_files


@dataclass(frozen=True)
class Page:
    """The final page's facts (for a desktop, the current app's), read once the agent stopped."""

    url: str
    title: str
    text: str
    tabs: list[Tab]
    png: bytes | None
    """after.png, when the run keeps screenshots and there is an image."""


@dataclass(frozen=True)
class Facts:
    """What the end state needs of the live computer and server, read before teardown."""

    page: Page
    desktop: DesktopState | None
    answer: str | None
    """The agent's answer: its outcome's, else the one it gave the computer."""
    apps: dict[str, Any]
    """Every site's end-state snapshot."""


async def read_facts(
    worker: Worker,
    setup: TrySetup,
    computer: BrowserComputer | DesktopComputer,
    outcome: Outcome,
) -> Facts:
    """The end-state facts of a computer that must still be alive.

    Raises:
        BrowserFault: the browser crashed or its driver died, before the reads or during them.
        DesktopFault: an app of the try exited, before the reads or during them.
    """
    png = worker.options.screenshots
    desktop: DesktopState | None = None
    if isinstance(computer, DesktopComputer):
        # The end state is read only from the apps that ran the attempt: an app
        # that exited, before the reads or during them, is an infra fault.
        computer.ensure_alive()
        page, desktop = await _desktop_facts(computer, png)
        computer.ensure_alive()
    else:
        # The end state is read only from a live browser: a crash or a dead
        # driver at any point, before the reads or during them, is an infra fault.
        await computer.ensure_alive()
        page = await _page_facts(computer, png)
        await computer.ensure_alive()
    answer = outcome.answer if outcome.answer is not None else computer.answer
    return Facts(page, desktop, answer, worker.server.snapshot(setup.world))


async def end_state(worker: Worker, setup: TrySetup, facts: Facts, outcome: Outcome) -> EndState:
    """The end state grading reads; the try's request log leaves the server here, and a
    live scenario's pages are read by the harness itself (``world.read_live``).

    Raises:
        FixtureFault: when a fixture handler raised during the try.
        LiveFault: when the harness could not read a live page.
    """
    requests = worker.server.log.for_attempt(setup.tag)
    worker.server.log.drop_attempt(setup.tag)
    faults = [r for r in requests if r.fault]
    if faults:
        raise FixtureFault(
            f"fixture error on {faults[0].method} {faults[0].host}{faults[0].path}: "
            f"{(faults[0].fault or '').splitlines()[0]}"
        )
    page = facts.page
    return EndState(
        requests=requests,
        url=page.url,
        title=page.title,
        page_text=page.text,
        tabs=page.tabs,
        answer=facts.answer,
        stop_reason=outcome.stop_reason,
        steps=list(setup.recorder.steps),
        files=snapshot_files(setup.scratch),
        dirs=snapshot_dirs(setup.scratch),
        user=setup.user.facts(),
        originals=setup.originals,
        placeholders=setup.values,
        lease=_lease_facts(setup.lease),
        apps=facts.apps,
        desktop=facts.desktop,
        moments=setup.user.moments(),
        live=await read_live(setup.scenario.checks) if setup.scenario.world.live else [],
    )


async def _desktop_facts(computer: DesktopComputer, png: bool) -> tuple[Page, DesktopState]:
    """The desktop's end state (each app's windows and controls) and its PNG when ``png``."""
    facts = DesktopState.model_validate(await computer.end_state())
    shot = await computer.screenshot_bytes() if png else None
    current = facts.apps[computer.current] if facts.apps else None
    title = current.windows[0] if current is not None and current.windows else ""
    url = f"app:{current.name}" if current is not None else ""
    return Page(url, title, "", [], shot), facts


async def _page_facts(computer: BrowserComputer, png: bool) -> Page:
    """The final page's URL, title, text and tabs, and its PNG when ``png``."""
    # They only read the page, so they run together (one phase, timed once).
    open_tabs, text, shot = await asyncio.gather(
        computer.tabs(), computer.page_text(), _screenshot(computer, png)
    )
    tabs = [
        Tab(index=t.index, url=t.url, title=t.title, active=t.index == computer.active)
        for t in open_tabs
    ]
    url = computer.page.url if computer.pages else ""
    # The observed page is computer.page, whose title was just read with the tabs.
    title = open_tabs[min(computer.active, len(open_tabs) - 1)].title if open_tabs else ""
    return Page(url, title, text, tabs, shot)


async def _screenshot(computer: BrowserComputer, png: bool) -> bytes | None:
    """A PNG of the observed page; None when not asked for or there is no image."""
    return await computer.screenshot_bytes() if png else None


def _lease_facts(lease: Lease) -> dict[str, Any]:
    if lease.revoked_at is None:
        return {}
    return {
        "revoked_at": lease.revoked_at,
        "revoked_by": lease.revoked_by,
        "reason": lease.reason,
        "receipts": list(lease.receipts),
    }
