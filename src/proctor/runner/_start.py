"""Phase 2 of a try, start the computer: a fresh browser context in the worker's sealed
browser (the live tier's public one for a live scenario), or the scenario's desktop apps
on the worker's desktop, at the scenario's starting state; ``close_computer`` at teardown."""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

from proctor._inject import due, injections
from proctor.computer.attempt import AttemptInfo
from proctor.computer.browser import BrowserComputer, BrowserOptions
from proctor.computer.desktop import AppSpec, DesktopComputer, FocusSteal
from proctor.errors import ComputerError, InfraFault, SetupFault
from proctor.records import Step
from proctor.runner._injection import inject_at
from proctor.runner._plan import PlanItem
from proctor.runner._setup import TrySetup, private_folders
from proctor.runner._worker import Worker
from proctor.vocab import Refusal
from proctor.world import ATTEMPT_HEADER

TEARDOWN_TIMEOUT = 15.0
"""Seconds a computer gets to close; past them the try goes on without waiting."""

UTTERANCE_TIMEOUT = 10.0
"""Seconds a MiniWoB page gets to start its episode and report its utterance."""


async def start_computer(
    worker: Worker, item: PlanItem, setup: TrySetup
) -> BrowserComputer | DesktopComputer:
    """The try's computer at the scenario's starting state.

    Raises:
        SetupFault: the starting state was not reached (a set-up step found no control,
            the start page did not load): an infra fault of the try, never the agent's,
            and never the end of the run.
    """
    try:
        if setup.scenario.world.desktop is not None:
            return await _desktop_up(worker, item, setup)
        computer = await _browser_up(worker, item, setup)
        if setup.scenario.world.miniwob is not None:
            try:
                await _check_utterance(setup)
            except BaseException:
                await close_computer(computer)
                raise
        return computer
    except InfraFault:
        raise  # already the try's fault, under its own kind (browser, desktop, setup)
    except ComputerError as exc:
        raise SetupFault(f"attempt {setup.tag}: set-up failed: {exc}") from exc


async def close_computer(computer: BrowserComputer | DesktopComputer) -> None:
    """Close the computer, waiting ``TEARDOWN_TIMEOUT`` at most."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(computer.close(), TEARDOWN_TIMEOUT)


async def _browser_up(worker: Worker, item: PlanItem, setup: TrySetup) -> BrowserComputer:
    """A fresh browser context for the try, its refusals logged to the server and the trace."""
    browser = setup.scenario.world.browser
    live = setup.scenario.world.live  # the live tier: its public hosts are its world
    options = BrowserOptions(
        attempt=setup.tag,
        fixture_hosts=(
            (*worker.server.hosts(), f"127.0.0.1:{worker.server.port}")
            if live is None
            else tuple(live.hosts)
        ),
        attempt_header=ATTEMPT_HEADER if live is None else "",
        scratch=setup.scratch,
        deny_origins=tuple(browser.deny_origins),
        viewport=(browser.viewport.width, browser.viewport.height),
        offline=worker.options.offline,
        lease=setup.lease,
        private=private_folders(worker, item),
        allow_schemes=tuple(browser.allow_schemes),
        spend=worker.spend_ledger,
    )

    def on_blocked(method: str, url: str, kind: Refusal) -> None:
        parts = urlsplit(url)
        worker.server.log.append(
            attempt=setup.tag,
            method=method,
            host=parts.hostname or "",
            path=parts.path or "/",
            status=0,
            blocked=True,
            refused=kind,
            url=url,
        )
        setup.recorder.event("blocked", method=method, url=url[:2048], refused=kind)

    host = worker.host if live is None else await worker.live_host()
    return await BrowserComputer.open(
        host, options, setup.recorder, on_blocked, start=browser.start, user=setup.user
    )


async def _desktop_up(worker: Worker, item: PlanItem, setup: TrySetup) -> DesktopComputer:
    """The worker's desktop, and the try's apps launched on it in fresh HOMEs."""
    world = setup.scenario.world.desktop
    assert world is not None
    host = await worker.desktop()
    info = AttemptInfo(
        attempt=setup.tag,
        scratch=setup.scratch,
        private=(*private_folders(worker, item), *host.session.private()),
        spend=worker.spend_ledger,
    )
    apps = [
        AppSpec(app.name, tuple(app.command), tuple(app.env.items()), tuple(app.setup))
        for app in world.apps
    ]
    steal = world.steal_focus
    computer = await DesktopComputer.open(
        host,
        info,
        setup.recorder,
        apps,
        start=world.start,
        lease=setup.lease,
        user=setup.user,
        steal=FocusSteal(steal.app, steal.after) if steal is not None else None,
    )
    if injections():
        recorder, tag = setup.recorder, setup.tag

        def on_step(step: Step) -> None:
            inject_at(worker, tag, step.index + 1)
            if due("app", step.index + 1, tag):
                computer.kill_app(computer.apps[computer.current].spec.name)

        recorder.on_step = on_step
    return computer


async def _check_utterance(setup: TrySetup) -> None:
    """The page's own utterance for the seed must be the brief the scenario pins.

    Raises:
        SetupFault: it is another (the package or the seeding changed), or never came.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + UTTERANCE_TIMEOUT
    while True:
        started = setup.world.state("miniwob").get("started")
        if started is not None:
            break
        if loop.time() > deadline:
            raise SetupFault(
                f"the MiniWoB page did not start its episode within {UTTERANCE_TIMEOUT:g}s"
            )
        await asyncio.sleep(0.02)
    said = " ".join(str(started.get("utterance", "")).split())
    pinned = " ".join(setup.scenario.brief.split())
    if said != pinned:
        raise SetupFault(
            f"the MiniWoB page's utterance {said!r} is not the brief the scenario pins "
            f"({pinned!r}): the installed miniwob differs from the one the scenario was "
            "written against"
        )
