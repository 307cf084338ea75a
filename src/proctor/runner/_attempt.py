"""One attempt, end to end, as phase functions: world up, computer up, before.png, agent,
end state, grade, record. ``Phases`` times them; ``build_record`` makes every record."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from proctor._inject import attempt_scope, injections
from proctor._inject import due as inject_due
from proctor.agents import Account, Agent, Outcome, account_of, restarted
from proctor.computer import AgentReset
from proctor.computer.attempt import AGENT_HOME, AttemptInfo
from proctor.computer.browser import (
    BrowserComputer,
    BrowserOptions,
    Lease,
    Recorder,
)
from proctor.computer.desktop import AppSpec, DesktopComputer, FocusSteal
from proctor.errors import (
    AgentError,
    ComputerError,
    FixtureFault,
    InfraFault,
    LimitReached,
    ProviderFault,
    RunError,
    SetupFault,
)
from proctor.grading import grade
from proctor.records import (
    AttemptRecord,
    DesktopState,
    EndState,
    JudgeVerdict,
    Step,
    Tab,
    TryId,
)
from proctor.records import InfraFault as InfraRecord
from proctor.runner._phases import Phases
from proctor.runner._plan import PlanItem
from proctor.runner._record import (
    AttemptOutput,
    LiveTrace,
    attempt_folder,
    build_record,
    skipped_record,
    write_attempt,
)
from proctor.runner._worker import Worker
from proctor.scenario import SUITE_ROOT, Scenario, date_values, resolve
from proctor.vocab import Refusal, is_limit_reason
from proctor.world import (
    ATTEMPT_HEADER,
    DOMAIN,
    AttemptWorld,
    SimulatedUser,
    TimelineHooks,
    read_live,
    remove_scratch,
    seed_scratch,
    snapshot_dirs,
    snapshot_files,
)

TEARDOWN_TIMEOUT = 15.0


def private_folders(worker: Worker, item: PlanItem) -> tuple[Path, ...]:
    """What no agent may read: the results root (this run, its control token, earlier
    runs) and the folders of the shipped suite and of this scenario file."""
    return (worker.run_dir.parent, SUITE_ROOT, item.scenario.path.parent)


def placeholder_values(worker: Worker, scratch: Path, sites: list[str]) -> dict[str, str]:
    values = {
        "scratch": str(scratch),
        "base_url": worker.server.base_url,
        "home": str(scratch / "home"),
    }
    for name in worker.server.sites:
        values[f"site.{name}"] = f"http://{name}.{DOMAIN}"
    return values


async def run_attempt(worker: Worker, item: PlanItem, *, write: bool = True) -> AttemptRecord:
    """Run one attempt in this worker, retrying infra faults, and write its folder.

    The in-process path (``proctor verify``, tests): the run's executors
    schedule tries themselves (``run_try``) so that a retry may run on another
    worker. An infra fault is retried up to ``options.infra_retries`` times,
    after the options' retry delays; if every try faults, the attempt's result
    is ``error``, which is never scored against the agent.
    """
    if item.skip:
        return skipped_record(worker.run_dir, item, item.skip, write=write)
    faults: list[InfraRecord] = []
    output: AttemptOutput | None = None
    for try_number in range(1, worker.options.infra_retries + 2):
        if faults:
            await asyncio.sleep(worker.options.retry_delay(len(faults)))
        done = await run_try(worker, item, try_number)
        if isinstance(done, InfraRecord):
            faults.append(done)
            continue
        output = done
        break
    output = finish_attempt(item, output, faults)
    if write:
        write_attempt(worker.run_dir, attempt_folder(worker.run_dir, item), output)
    return output.record


def finish_attempt(
    item: PlanItem, output: AttemptOutput | None, faults: list[InfraRecord]
) -> AttemptOutput:
    """The attempt's output with its faulted tries noted; ``error`` when no try was graded."""
    if output is None:
        error = faults[-1].message if faults else "unknown infra fault"
        record = build_record(item, "error", "infra", started_at=time.time(), error=error)
        output = AttemptOutput(record, [], {})
    record = output.record.model_copy(update={"infra_faults": list(faults)})
    return AttemptOutput(record, output.events, output.artifacts)


async def run_try(worker: Worker, item: PlanItem, try_number: int) -> AttemptOutput | InfraRecord:
    """One try of an attempt, as data: its graded output, or the infra fault that ended it.

    Any ``InfraFault`` ends the try, recorded under the fault's own ``kind``. A
    browser fault relaunches the worker's browser before this returns, so the
    next try (of this attempt or another) starts on a live one.
    """
    try:
        return await _one_try(worker, item, try_number)
    except InfraFault as exc:
        if exc.kind == "browser":
            await worker.relaunch()
        return InfraRecord(try_number=try_number, kind=exc.kind, message=str(exc))


async def _one_try(worker: Worker, item: PlanItem, try_number: int) -> AttemptOutput:
    """One try; whatever ends it early, its scratch folder goes (unless kept)."""
    try_id = TryId(item.attempt_id, try_number)
    scratch = worker.run_dir / "scratch" / try_id.folder_name
    try:
        with attempt_scope(str(try_id)):
            return await _try_in(worker, item, try_id, scratch)
    except BaseException:
        if not worker.options.keep_scratch:
            remove_scratch(scratch)
        raise


@dataclass(frozen=True)
class _Up:
    """What world up made for one try."""

    try_id: TryId
    scratch: Path
    scenario: Scenario
    """The scenario with its placeholders resolved."""
    values: dict[str, str]
    originals: dict[str, str]
    agent: Agent
    lease: Lease
    world: AttemptWorld
    recorder: Recorder
    user: SimulatedUser

    @property
    def tag(self) -> str:
        """The try id's wire form, as the computer, the world and the server take it."""
        return str(self.try_id)


@dataclass(frozen=True)
class _Page:
    """The final page's facts, read once the agent stopped."""

    url: str
    title: str
    text: str
    tabs: list[Tab]
    png: bytes | None


async def _try_in(worker: Worker, item: PlanItem, try_id: TryId, scratch: Path) -> AttemptOutput:
    started = time.time()
    phases = Phases()
    computer: BrowserComputer | DesktopComputer | None = None
    desktop: DesktopState | None = None
    artifacts: dict[str, bytes] = {}
    with phases.phase("setup"):
        up = _world_up(worker, item, try_id, scratch)
    try:
        with phases.phase("setup"):
            computer = await _set_up(worker, item, up)
        if worker.options.screenshots:
            with phases.phase("before_png"):
                before = await computer.screenshot_bytes()
            if before is not None:
                artifacts["before.png"] = before
        if isinstance(computer, BrowserComputer) and worker.spare == "agent":
            worker.host.prepare_spare()  # the next attempt's context, made while the agent runs
        with phases.phase("agent"):
            limit = worker.options.wall_limit(up.scenario.limits.seconds)
            agents = _Agents(up, item)
            outcome, error = await _drive(agents, up.scenario, computer, limit)
            account = agents.account()
        _inject_at(worker, up.tag, "done")
        with phases.phase("end_state"):
            if isinstance(computer, DesktopComputer):
                # The end state is read only from the apps that ran the attempt: an app
                # that exited, before the reads or during them, is an infra fault.
                computer.ensure_alive()
                page, desktop = await _desktop_facts(computer, worker.options.screenshots)
                computer.ensure_alive()
            else:
                # The end state is read only from a live browser: a crash or a dead
                # driver at any point, before the reads or during them, is an infra fault.
                await computer.ensure_alive()
                page = await _page_facts(computer, worker.options.screenshots)
                await computer.ensure_alive()
            if page.png is not None:
                artifacts["after.png"] = page.png
            answer = outcome.answer if outcome.answer is not None else computer.answer
            apps = worker.server.snapshot(up.world)
    finally:
        with phases.phase("teardown"):
            worker.server.end(up.tag)
            if computer is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(computer.close(), TEARDOWN_TIMEOUT)
    if isinstance(computer, BrowserComputer) and worker.spare == "after":
        # The next attempt's context, made while this one's end state is read, graded
        # and written, and while the driver starts the next: off every agent's path.
        worker.host.prepare_spare()
    with phases.phase("end_state"):
        end = await _end_state(worker, up, page, outcome, answer, apps, desktop)
    with phases.phase("grade"):
        checks = grade(up.scenario.checks, end)
    verdicts: list[JudgeVerdict] = []
    if worker.options.judge is not None and up.scenario.judge:
        with phases.phase("judge"):
            verdicts = await worker.options.judge(up.scenario.judge, end)
        up.recorder.event("judge", verdicts=[v.model_dump() for v in verdicts])
    if not worker.options.keep_scratch:
        with phases.phase("teardown"):
            remove_scratch(scratch)
    timing = phases.done()
    passed = all(c.passed for c in checks)
    record = build_record(
        item,
        "passed" if passed else "failed",
        outcome.stop_reason,
        started_at=started,
        seconds=timing.seconds,
        agent=up.agent.kind,
        stop_detail=outcome.detail,
        needs_review=outcome.needs_review,
        answer=answer,
        checks=checks,
        failed_checks=[c.name for c in checks if not c.passed],
        steps=list(up.recorder.steps),
        tool_calls=up.recorder.tool_calls,
        observations=up.recorder.observations,
        inputs=up.recorder.inputs,
        planner_calls=account.planner_calls if account else outcome.planner_calls,
        invalid_calls=account.invalid_calls if account else 0,
        infra_seconds=account.infra_seconds if account else 0.0,
        tokens=dict(account.tokens if account else outcome.tokens),
        cost_usd=account.cost_usd if account else outcome.cost_usd,
        model=account.model if account else None,
        mode=account.mode if account else None,
        planner=account.calls if account else [],
        plan=account.plan if account else None,
        judge=verdicts,
        agent_seconds=timing.phases.get("agent", 0.0),
        timings=timing.phases,
        error=error,
        exit_code=outcome.exit_code,
        stderr_tail=outcome.stderr_tail,
        end_state=end,
    )
    up.recorder.event("graded", result=record.result, failed=record.failed_checks)
    return AttemptOutput(record, up.recorder.events, artifacts)


def _world_up(worker: Worker, item: PlanItem, try_id: TryId, scratch: Path) -> _Up:
    """Seed the scratch folder, resolve the scenario, build the agent and begin the world."""
    tag = str(try_id)
    scenario0 = item.scenario.scenario
    if scratch.exists():
        remove_scratch(scratch)
    originals = seed_scratch(scratch, scenario0.world.files, scenario0.world.dirs)
    values = placeholder_values(worker, scratch, scenario0.world.sites)
    values |= date_values(worker.clock, scenario0.zone)  # {date:+3d}: the run clock, user's zone
    scenario: Scenario = resolve(scenario0, values)
    agent = item.arm.factory(scenario)
    lease = Lease(tag)
    world = AttemptWorld(
        attempt=tag,
        seed=scenario.world.seed,
        clock=worker.clock,
        scratch=scratch,
        revoke=lease.revoke,
        seeds=scenario.world.site_seeds(),
    )
    worker.server.begin(world, scenario.world.sites)
    recorder = Recorder(
        scenario.limits.tool_calls,
        scenario.limits.steps,
        on_event=LiveTrace.for_attempt(worker.run_dir, item),
    )
    if injections():
        recorder.on_step = lambda step: _inject_at(worker, tag, step.index + 1)
    user = SimulatedUser(scenario.user, persona=worker.options.persona, brief=scenario.brief)
    if scenario.play:
        (scratch / AGENT_HOME).mkdir(exist_ok=True)
        server = worker.server
        hooks = TimelineHooks(
            world=world,
            sites=server.sites,
            requests=lambda: server.log.for_attempt(tag),
            apps=lambda: server.snapshot(world),
            call=server.call,
            trace=recorder.event,
        )
        user.attach(scenario.play, hooks, scenario.zone)
    recorder.event("attempt", id=item.attempt_id, try_number=try_id.number, agent=agent.kind)
    return _Up(try_id, scratch, scenario, values, originals, agent, lease, world, recorder, user)


async def _set_up(worker: Worker, item: PlanItem, up: _Up) -> BrowserComputer | DesktopComputer:
    """The try's computer at the scenario's starting state.

    Raises:
        SetupFault: the starting state was not reached (a set-up step found no control,
            the start page did not load): an infra fault of the try, never the agent's,
            and never the end of the run.
    """
    try:
        if up.scenario.world.desktop is not None:
            return await _desktop_up(worker, item, up)
        computer = await _computer_up(worker, item, up)
        if up.scenario.world.miniwob is not None:
            try:
                await _check_utterance(up)
            except BaseException:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(computer.close(), TEARDOWN_TIMEOUT)
                raise
        return computer
    except InfraFault:
        raise  # already the try's fault, under its own kind (browser, desktop, setup)
    except ComputerError as exc:
        raise SetupFault(f"attempt {up.tag}: set-up failed: {exc}") from exc


async def _computer_up(worker: Worker, item: PlanItem, up: _Up) -> BrowserComputer:
    """A fresh browser context for the try, its refusals logged to the server and the trace."""
    browser = up.scenario.world.browser
    live = up.scenario.world.live  # the live tier: its public hosts are its world
    options = BrowserOptions(
        attempt=up.tag,
        fixture_hosts=(
            (*worker.server.hosts(), f"127.0.0.1:{worker.server.port}")
            if live is None
            else tuple(live.hosts)
        ),
        attempt_header=ATTEMPT_HEADER if live is None else "",
        scratch=up.scratch,
        deny_origins=tuple(browser.deny_origins),
        viewport=(browser.viewport.width, browser.viewport.height),
        offline=worker.options.offline,
        lease=up.lease,
        private=private_folders(worker, item),
        allow_schemes=tuple(browser.allow_schemes),
        spend=worker.spend_ledger,
    )

    def on_blocked(method: str, url: str, kind: Refusal) -> None:
        parts = urlsplit(url)
        worker.server.log.append(
            attempt=up.tag,
            method=method,
            host=parts.hostname or "",
            path=parts.path or "/",
            status=0,
            blocked=True,
            refused=kind,
            url=url,
        )
        up.recorder.event("blocked", method=method, url=url[:2048], refused=kind)

    host = worker.host if live is None else await worker.live_host()
    return await BrowserComputer.open(
        host, options, up.recorder, on_blocked, start=browser.start, user=up.user
    )


async def _desktop_up(worker: Worker, item: PlanItem, up: _Up) -> DesktopComputer:
    """The worker's desktop, and the try's apps launched on it in fresh HOMEs."""
    world = up.scenario.world.desktop
    assert world is not None
    host = await worker.desktop()
    info = AttemptInfo(
        attempt=up.tag,
        scratch=up.scratch,
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
        up.recorder,
        apps,
        start=world.start,
        lease=up.lease,
        user=up.user,
        steal=FocusSteal(steal.app, steal.after) if steal is not None else None,
    )
    if injections():
        recorder, tag = up.recorder, up.tag

        def on_step(step: Step) -> None:
            _inject_at(worker, tag, step.index + 1)
            if inject_due("app", step.index + 1, tag):
                computer.kill_app(computer.apps[computer.current].spec.name)

        recorder.on_step = on_step
    return computer


async def _desktop_facts(computer: DesktopComputer, png: bool) -> tuple[_Page, DesktopState]:
    """The desktop's end state (each app's windows and controls) and its PNG when ``png``."""
    facts = DesktopState.model_validate(await computer.end_state())
    shot = await computer.screenshot_bytes() if png else None
    current = facts.apps[computer.current] if facts.apps else None
    title = current.windows[0] if current is not None and current.windows else ""
    url = f"app:{current.name}" if current is not None else ""
    return _Page(url, title, "", [], shot), facts


async def _page_facts(computer: BrowserComputer, png: bool) -> _Page:
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
    return _Page(url, title, text, tabs, shot)


async def _end_state(
    worker: Worker,
    up: _Up,
    page: _Page,
    outcome: Outcome,
    answer: str | None,
    apps: dict[str, Any],
    desktop: DesktopState | None = None,
) -> EndState:
    """The end state grading reads; the try's request log leaves the server here, and a
    live scenario's pages are read by the harness itself (``world.read_live``).

    Raises:
        FixtureFault: when a fixture handler raised during the try.
        LiveFault: when the harness could not read a live page.
    """
    requests = worker.server.log.for_attempt(up.tag)
    worker.server.log.drop_attempt(up.tag)
    faults = [r for r in requests if r.fault]
    if faults:
        raise FixtureFault(
            f"fixture error on {faults[0].method} {faults[0].host}{faults[0].path}: "
            f"{(faults[0].fault or '').splitlines()[0]}"
        )
    return EndState(
        requests=requests,
        url=page.url,
        title=page.title,
        page_text=page.text,
        tabs=page.tabs,
        answer=answer,
        stop_reason=outcome.stop_reason,
        steps=list(up.recorder.steps),
        files=snapshot_files(up.scratch),
        dirs=snapshot_dirs(up.scratch),
        user=up.user.facts(),
        originals=up.originals,
        placeholders=up.values,
        lease=_lease_facts(up.lease),
        apps=apps,
        desktop=desktop,
        moments=up.user.moments(),
        live=await read_live(up.scenario.checks) if up.scenario.world.live else [],
    )


UTTERANCE_TIMEOUT = 10.0
"""Seconds a MiniWoB page gets to start its episode and report its utterance."""


async def _check_utterance(up: _Up) -> None:
    """The page's own utterance for the seed must be the brief the scenario pins.

    Raises:
        SetupFault: it is another (the package or the seeding changed), or never came.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + UTTERANCE_TIMEOUT
    while True:
        started = up.world.state("miniwob").get("started")
        if started is not None:
            break
        if loop.time() > deadline:
            raise SetupFault(
                f"the MiniWoB page did not start its episode within {UTTERANCE_TIMEOUT:g}s"
            )
        await asyncio.sleep(0.02)
    said = " ".join(str(started.get("utterance", "")).split())
    pinned = " ".join(up.scenario.brief.split())
    if said != pinned:
        raise SetupFault(
            f"the MiniWoB page's utterance {said!r} is not the brief the scenario pins "
            f"({pinned!r}): the installed miniwob differs from the one the scenario was "
            "written against"
        )


def _inject_at(worker: Worker, tag: str, at: int | Literal["done"]) -> None:
    """Cause the faults ``PROCTOR_INJECT`` asks for at this point of the try (tests only)."""
    if not injections():
        return
    if inject_due("worker", at, tag):
        os.kill(os.getpid(), signal.SIGKILL)
    if inject_due("hang", at, tag):
        time.sleep(24 * 3600)  # a stalled call that blocks the loop: only a kill ends it
    for kind in ("browser", "driver"):
        if inject_due(kind, at, tag):
            browser, driver = worker.host.process_ids()
            victim = browser if kind == "browser" else driver
            if victim is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(victim, signal.SIGKILL)


def _lease_facts(lease: Lease) -> dict[str, Any]:
    if lease.revoked_at is None:
        return {}
    return {
        "revoked_at": lease.revoked_at,
        "revoked_by": lease.revoked_by,
        "reason": lease.reason,
        "receipts": list(lease.receipts),
    }


async def _screenshot(computer: BrowserComputer, png: bool) -> bytes | None:
    """A PNG of the observed page; None when not asked for or there is no image."""
    return await computer.screenshot_bytes() if png else None


class _Agents:
    """The agents of one try: the arm's, and each one a timeline reset put in its place."""

    def __init__(self, up: _Up, item: PlanItem) -> None:
        self.up, self.item = up, item
        self.all: list[Agent] = [up.agent]

    async def run(self, computer: BrowserComputer | DesktopComputer) -> Outcome:
        """Run the agent; on each reset, run the one that replaces it (same wall limit)."""
        brief = self.up.scenario.brief
        while True:
            try:
                return await self.all[-1].run(brief, computer)
            except AgentReset as reset:
                brief = self._reset(reset, computer)

    def _reset(self, reset: AgentReset, computer: BrowserComputer | DesktopComputer) -> str:
        old = self.all[-1]
        new = restarted(old) or self.item.arm.factory(self.up.scenario)
        self.all.append(new)
        computer.finished = False
        brief = self.up.scenario.brief
        if reset.keep_conversation:
            brief = (
                f"{brief}\n\nYou were restarted. The conversation so far:\n"
                f"{self.up.user.conversation()}"
            )
        computer.trace(
            "agent_reset", event=reset.event, old=old.kind, new=new.kind,
            keep_conversation=reset.keep_conversation, agents=len(self.all),
        )  # fmt: skip
        return brief

    def account(self) -> Account | None:
        """What the try's model agents spent, summed over every agent a reset started."""
        return combined_account([a for a in map(account_of, self.all) if a is not None])


def combined_account(accounts: list[Account]) -> Account | None:
    """One account for several agents of one try (None when none keeps one)."""
    if not accounts:
        return None
    if len(accounts) == 1:
        return accounts[0]
    tokens: dict[str, int] = {}
    for a in accounts:
        for kind, n in a.tokens.items():
            tokens[kind] = tokens.get(kind, 0) + n
    costs = [a.cost_usd for a in accounts]
    first = accounts[0]
    return Account(
        planner_calls=sum(a.planner_calls for a in accounts),
        tokens=tokens,
        cost_usd=None if any(c is None for c in costs) else sum(c or 0.0 for c in costs),
        calls=[c for a in accounts for c in a.calls],
        model=first.model,
        mode=first.mode,
        plan=first.plan,
        invalid_calls=sum(a.invalid_calls for a in accounts),
        infra_seconds=sum(a.infra_seconds for a in accounts),
        provider_failing=any(a.provider_failing for a in accounts),
    )


async def _drive(
    agents: _Agents, scenario: Scenario, computer: BrowserComputer | DesktopComputer, limit: float
) -> tuple[Outcome, str | None]:
    """Run the agent under the wall limit; limits and agent crashes end it, infra faults escape.

    A wall limit reached after time was lost to a failing provider (a failed try,
    a retry, its backoff) is an infra fault: retried, never a ``timeout``.
    """
    try:
        outcome = await asyncio.wait_for(agents.run(computer), timeout=limit)
        return outcome, None
    except LimitReached as exc:
        if not is_limit_reason(exc.reason):  # LimitReached.reason is typed str
            raise RunError(
                f"a limit stopped the agent with an unknown reason {exc.reason!r}"
            ) from exc
        return Outcome(stop_reason=exc.reason, answer=computer.answer), str(exc)
    except TimeoutError:
        account = agents.account()
        if account is not None and (account.provider_failing or account.infra_seconds > 0):
            # Part of the run went to a failing provider: whether the model would have
            # finished in time is unknowable, so the attempt is retried, never scored.
            raise ProviderFault(
                f"the wall limit ({limit:g}s) was reached "
                + (
                    "while a failed provider call was being retried"
                    if account.provider_failing
                    else f"after {account.infra_seconds:g}s lost to a failing provider"
                )
                + "; an infra fault, not counted against the model"
            ) from None
        return (
            Outcome(stop_reason="timeout", answer=computer.answer),
            f"the wall limit ({limit:g}s) was reached",
        )
    except InfraFault:
        raise  # an infra fault (a timeline event the world refused too): retried, never scored
    except AgentError as exc:
        return Outcome(stop_reason="agent_error", answer=computer.answer), str(exc)
    except RunError:
        raise
    except Exception as exc:  # an agent's own bug is the agent's failure, not the harness's
        return (
            Outcome(stop_reason="agent_error", answer=computer.answer),
            f"{type(exc).__name__}: {exc}",
        )
