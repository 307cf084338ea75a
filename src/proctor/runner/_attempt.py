"""One attempt, end to end: world up, computer up, agent, end state, grade, record."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from proctor.agents import Outcome
from proctor.agents.llm import Account, arm_mode, arm_model
from proctor.computer.browser import (
    BrowserComputer,
    BrowserOptions,
    InfraFault,
    Lease,
    Recorder,
    SetupFault,
)
from proctor.errors import (
    AgentError,
    LimitReached,
    ProviderFault,
    RunError,
    WorldError,
)
from proctor.grading import grade
from proctor.records import (
    AttemptRecord,
    EndState,
    Tab,
    append_jsonl,
    make_dirs,
    write_jsonl_atomic,
    write_model_atomic,
)
from proctor.records import (
    InfraFault as InfraRecord,
)
from proctor.runner._plan import PlanItem
from proctor.runner._worker import Worker
from proctor.scenario import SUITE_ROOT, Scenario, resolve
from proctor.vocab import FaultKind, Refusal, is_limit_reason
from proctor.world import (
    ATTEMPT_HEADER,
    DOMAIN,
    AttemptWorld,
    SimulatedUser,
    remove_scratch,
    seed_scratch,
    snapshot_dirs,
    snapshot_files,
)

TEARDOWN_TIMEOUT = 15.0


class FixtureFault(WorldError):
    """A fixture handler raised: an infra fault, retried and never scored."""


@dataclass
class _Try:
    record: AttemptRecord
    events: list[dict[str, Any]]


def attempt_folder(run_dir: Path, item: PlanItem) -> Path:
    """results/<label>/attempts/<scenario>/<arm>-<n>/"""
    return run_dir / "attempts" / item.scenario.scenario.id / f"{item.arm.name}-{item.repeat}"


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
    """Run one attempt, retrying infra faults; write attempt.json and events.jsonl.

    An infra fault (browser crash, fixture error, set-up failure) is retried up
    to ``options.infra_retries`` times and recorded; if every try faults, the
    attempt's result is ``error``, which is never scored against the agent.
    """
    folder = attempt_folder(worker.run_dir, item)
    if item.arm.skip:
        return skipped_record(worker.run_dir, item, item.arm.skip, write=write)
    faults: list[InfraRecord] = []
    outcome: _Try | None = None
    for try_number in range(1, worker.options.infra_retries + 2):
        try:
            outcome = await _one_try(worker, item, folder, try_number)
            break
        except (InfraFault, FixtureFault, WorldError, ProviderFault) as exc:
            kind = _fault_kind(exc)
            faults.append(InfraRecord(try_number=try_number, kind=kind, message=str(exc)))
            if kind == "browser":
                await worker.relaunch()
    if outcome is None:
        record = AttemptRecord(
            id=item.attempt_id,
            scenario=item.scenario.scenario.id,
            scenario_sha256=item.scenario.sha256,
            tier=item.scenario.scenario.tier,
            category=item.scenario.scenario.category,
            arm=item.arm.name,
            agent=item.arm.spec,
            repeat=item.repeat,
            model=arm_model(item.arm.spec),
            mode=arm_mode(item.arm.spec),
            result="error",
            stop_reason="infra",
            started_at=time.time(),
            seconds=0.0,
            error=faults[-1].message if faults else "unknown infra fault",
        )
        events: list[dict[str, Any]] = []
    else:
        record, events = outcome.record, outcome.events
    record = record.model_copy(update={"infra_faults": faults})
    if write:
        write_model_atomic(folder / "attempt.json", record)
        write_jsonl_atomic(folder / "events.jsonl", events)
        if record.end_state.requests:
            for req in record.end_state.requests:
                append_jsonl(worker.run_dir / "web.jsonl", req)
    return record


async def _one_try(worker: Worker, item: PlanItem, folder: Path, try_number: int) -> _Try:
    """One try; whatever ends it early, its scratch folder goes (unless kept)."""
    tag = f"{item.attempt_id}#{try_number}"
    safe = tag.replace("/", "--").replace("#", "-t")
    scratch = worker.run_dir / "scratch" / safe
    try:
        return await _try_in(worker, item, folder, tag, scratch)
    except BaseException:
        if not worker.options.keep_scratch:
            remove_scratch(scratch)
        raise


async def _try_in(worker: Worker, item: PlanItem, folder: Path, tag: str, scratch: Path) -> _Try:
    scenario0 = item.scenario.scenario
    try_number = int(tag.rsplit("#", 1)[1])
    started = time.time()
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    if scratch.exists():
        remove_scratch(scratch)
    originals = seed_scratch(scratch, scenario0.world.files, scenario0.world.dirs)
    values = placeholder_values(worker, scratch, scenario0.world.sites)
    scenario: Scenario = resolve(scenario0, values)
    agent = item.arm.factory(scenario)
    lease = Lease(tag)
    world = AttemptWorld(
        attempt=tag,
        seed=scenario.world.seed,
        clock=worker.clock,
        scratch=scratch,
        revoke=lease.revoke,
        seeds=dict(scenario.world.apps),
    )
    worker.server.begin(world, scenario.world.sites)
    recorder = Recorder(scenario.limits.tool_calls, scenario.limits.steps)
    user = SimulatedUser(scenario.user, persona=worker.options.persona, brief=scenario.brief)
    recorder.event("attempt", id=item.attempt_id, try_number=try_number, agent=agent.kind)
    computer: BrowserComputer | None = None
    try:
        make_dirs(folder)
        browser = scenario.world.browser
        options = BrowserOptions(
            attempt=tag,
            fixture_hosts=(*worker.server.hosts(), f"127.0.0.1:{worker.server.port}"),
            attempt_header=ATTEMPT_HEADER,
            scratch=scratch,
            deny_origins=tuple(browser.deny_origins),
            viewport=(browser.viewport.width, browser.viewport.height),
            offline=worker.options.offline,
            lease=lease,
            private=private_folders(worker, item),
            allow_schemes=tuple(browser.allow_schemes),
        )

        def on_blocked(method: str, url: str, kind: Refusal) -> None:
            parts = urlsplit(url)
            worker.server.log.append(
                attempt=tag,
                method=method,
                host=parts.hostname or "",
                path=parts.path or "/",
                status=0,
                blocked=True,
                refused=kind,
                url=url,
            )
            recorder.event("blocked", method=method, url=url[:2048], refused=kind)

        computer = await BrowserComputer.open(
            worker.host, options, recorder, on_blocked, start=browser.start, user=user
        )
        timings["setup"] = time.perf_counter() - t0
        if worker.options.screenshots:
            t_shot = time.perf_counter()
            await computer.screenshot(folder / "before.png")
            timings["before_png"] = time.perf_counter() - t_shot
        t_agent = time.perf_counter()
        outcome, error = await _drive(agent, scenario, computer)
        account = _account(agent)
        agent_seconds = time.perf_counter() - t_agent
        timings["agent"] = agent_seconds
        t_end = time.perf_counter()
        # after.png and the final page's facts only read the page, so they overlap.
        after_png = folder / "after.png" if worker.options.screenshots else None
        open_tabs, page_text, _ = await asyncio.gather(
            computer._tabs(), computer.page_text(), _screenshot(computer, after_png)
        )
        tabs = [
            Tab(index=t.index, url=t.url, title=t.title, active=t.index == computer.active)
            for t in open_tabs
        ]
        url = computer.page.url if computer.pages else ""
        # The observed page is computer.page, whose title was just read with the tabs.
        title = open_tabs[min(computer.active, len(open_tabs) - 1)].title if open_tabs else ""
        answer = outcome.answer if outcome.answer is not None else computer.answer
        apps = worker.server.snapshot(world)
        timings["end_state"] = time.perf_counter() - t_end
    finally:
        t_down = time.perf_counter()
        worker.server.end(tag)
        if computer is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(computer.close(), TEARDOWN_TIMEOUT)
        timings["teardown"] = time.perf_counter() - t_down
    t_end = time.perf_counter()
    requests = worker.server.log.for_attempt(tag)
    worker.server.log.drop_attempt(tag)
    faults = [r for r in requests if r.fault]
    if faults:
        raise FixtureFault(
            f"fixture error on {faults[0].method} {faults[0].host}{faults[0].path}: "
            f"{(faults[0].fault or '').splitlines()[0]}"
        )
    end = EndState(
        requests=requests,
        url=url,
        title=title,
        page_text=page_text,
        tabs=tabs,
        answer=answer,
        stop_reason=outcome.stop_reason,
        steps=list(recorder.steps),
        files=snapshot_files(scratch),
        dirs=snapshot_dirs(scratch),
        user=user.facts(),
        originals=originals,
        placeholders=values,
        lease=_lease_facts(lease),
        apps=apps,
    )
    timings["end_state"] += time.perf_counter() - t_end
    t_grade = time.perf_counter()
    checks = grade(scenario.checks, end)
    timings["grade"] = time.perf_counter() - t_grade
    verdicts = []
    if worker.options.judge is not None and scenario.judge:
        t_judge = time.perf_counter()
        verdicts = await worker.options.judge(scenario.judge, end)
        timings["judge"] = time.perf_counter() - t_judge
        recorder.event("judge", verdicts=[v.model_dump() for v in verdicts])
    if not worker.options.keep_scratch:
        t_down = time.perf_counter()
        remove_scratch(scratch)
        timings["teardown"] += time.perf_counter() - t_down
    passed = all(c.passed for c in checks)
    record = AttemptRecord(
        id=item.attempt_id,
        scenario=scenario.id,
        scenario_sha256=item.scenario.sha256,
        tier=scenario.tier,
        category=scenario.category,
        arm=item.arm.name,
        agent=agent.kind,
        repeat=item.repeat,
        result="passed" if passed else "failed",
        stop_reason=outcome.stop_reason,
        stop_detail=outcome.detail,
        needs_review=outcome.needs_review,
        answer=answer,
        checks=checks,
        failed_checks=[c.name for c in checks if not c.passed],
        steps=list(recorder.steps),
        tool_calls=recorder.tool_calls,
        inputs=recorder.inputs,
        planner_calls=account.planner_calls if account else outcome.planner_calls,
        tokens=dict(account.tokens if account else outcome.tokens),
        cost_usd=account.cost_usd if account else outcome.cost_usd,
        model=account.model if account else None,
        mode=account.mode if account else None,
        planner=account.calls if account else [],
        plan=account.plan if account else None,
        judge=verdicts,
        started_at=started,
        seconds=round(time.time() - started, 3),
        agent_seconds=round(agent_seconds, 3),
        timings={k: round(v, 4) for k, v in timings.items()},
        error=error,
        end_state=end,
    )
    recorder.event("graded", result=record.result, failed=record.failed_checks)
    return _Try(record, recorder.events)


def _account(agent: Any) -> Account | None:
    """A model agent's spend (calls, tokens, $, latency), read even when a limit stopped it."""
    account = getattr(agent, "account", None)
    return account() if callable(account) else None


def skipped_record(
    run_dir: Path, item: PlanItem, reason: str, *, write: bool = True
) -> AttemptRecord:
    """The record of an attempt not run (e.g. its arm has no API key): never scored."""
    scenario = item.scenario.scenario
    record = AttemptRecord(
        id=item.attempt_id,
        scenario=scenario.id,
        scenario_sha256=item.scenario.sha256,
        tier=scenario.tier,
        category=scenario.category,
        arm=item.arm.name,
        agent=item.arm.spec,
        repeat=item.repeat,
        model=arm_model(item.arm.spec),
        mode=arm_mode(item.arm.spec),
        result="skipped",
        stop_reason="skipped",
        stop_detail=reason,
        started_at=time.time(),
        seconds=0.0,
    )
    if write:
        write_model_atomic(attempt_folder(run_dir, item) / "attempt.json", record)
    return record


def _fault_kind(exc: Exception) -> FaultKind:
    """How an infra fault is recorded: provider, setup, fixture or browser."""
    if isinstance(exc, ProviderFault):
        return "provider"
    if isinstance(exc, SetupFault):
        return "setup"
    if isinstance(exc, FixtureFault | WorldError):
        return "fixture"
    return "browser"


def _lease_facts(lease: Lease) -> dict[str, Any]:
    if lease.revoked_at is None:
        return {}
    return {
        "revoked_at": lease.revoked_at,
        "revoked_by": lease.revoked_by,
        "reason": lease.reason,
        "receipts": list(lease.receipts),
    }


async def _screenshot(computer: BrowserComputer, path: Path | None) -> bool:
    """Save a PNG of the observed page to ``path``; False when there is no path or no image."""
    return path is not None and await computer.screenshot(path)


async def _drive(
    agent: Any, scenario: Scenario, computer: BrowserComputer
) -> tuple[Outcome, str | None]:
    """Run the agent under the wall limit; limits and agent crashes end it, infra faults escape."""
    try:
        outcome = await asyncio.wait_for(
            agent.run(scenario.brief, computer), timeout=scenario.limits.seconds
        )
        return outcome, None
    except LimitReached as exc:
        if not is_limit_reason(exc.reason):  # LimitReached.reason is typed str
            raise RunError(
                f"a limit stopped the agent with an unknown reason {exc.reason!r}"
            ) from exc
        return Outcome(stop_reason=exc.reason, answer=computer.answer), str(exc)
    except TimeoutError:
        return (
            Outcome(stop_reason="timeout", answer=computer.answer),
            f"the wall limit ({scenario.limits.seconds:g}s) was reached",
        )
    except (InfraFault, ProviderFault):
        raise  # an infra fault: retried by run_attempt, never scored
    except AgentError as exc:
        return Outcome(stop_reason="agent_error", answer=computer.answer), str(exc)
    except RunError:
        raise
    except Exception as exc:  # an agent's own bug is the agent's failure, not the harness's
        return (
            Outcome(stop_reason="agent_error", answer=computer.answer),
            f"{type(exc).__name__}: {exc}",
        )
