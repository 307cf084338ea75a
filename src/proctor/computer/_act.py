"""Acting: one action becomes one recorded Step, with the lease, popups and downloads.

The popups and downloads an action starts are waited for (bounded), never slept on.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from proctor.computer import _delivery, _handlers
from proctor.computer import _scripts as js
from proctor.computer import actions as a
from proctor.computer._context import AttemptContext
from proctor.computer._downloads import SavedDownload
from proctor.computer._errors import Refused, first_line
from proctor.computer._frames import READ_TIMEOUT_S, FrameWatch
from proctor.computer._lease import Lease, refused_step
from proctor.computer._stall import NO_STALL, StallWatch
from proctor.errors import BrowserFault, ComputerError
from proctor.records import Step
from proctor.vocab import StepStatus

DOWNLOAD_TIMEOUT_S = 15.0
POPUP_TIMEOUT_S = 5.0
NAVIGATING = (a.Navigate, a.Back)
"""Ops that wait on a page load: DevTools holds every command to a renderer until a
pending navigation commits, so their stall watch does not ping the page (a slow
page is not a stalled machine)."""


async def act(c: AttemptContext, action: a.Action) -> Step:
    """Run one counted action and record it as a Step (see ``BrowserComputer.act``)."""
    lease = c.options.lease
    if lease is not None and lease.revoked and action.takes_lease():
        return refuse_input(c, action, lease)
    started = time.time()
    t0 = time.perf_counter()
    facts: dict[str, Any] = {}
    if action.watches_popups:
        await popups_started(c)  # older intents are not this action's
    tabs_before = len(c.pages)
    refusals_before = len(c.refusals)
    started_before = len(c.pending.downloads)
    downloads_before = c.pending.reported  # one that started between steps is this one's
    c.pending.expected = 0
    ignored = action.ignored()
    if ignored:
        facts["ignored"] = list(ignored)  # over-specified: the first way (PRECEDENCE) was used
    frames = FrameWatch.start(c.page) if action.watches_popups and c.pages else None
    try:
        output, data, status, error = await _dispatch(c, action, facts)
        if frames is not None:
            loaded = await frames.settle()
            if loaded:
                facts["frames_loaded"] = loaded  # a framed form or link was waited for
    finally:
        if frames is not None:
            frames.stop()
    if len(c.refusals) > refusals_before:
        urls = c.refusals[refusals_before:]
        status = "refused"
        error = f"navigation to a denied origin was refused: {', '.join(urls)}"
        output = "refused"
    if action.watches_popups and c.context is not None:
        popups = await popups_started(c)
        if popups:
            await await_tabs(c, tabs_before + popups)
    if len(c.pages) > tabs_before:
        facts["new_tabs"] = list(range(tabs_before, len(c.pages)))
        output += f"; opened tab(s) {facts['new_tabs']} (observation stays on tab {c.active})"
    if c.pending.expected:
        await downloads_started(c, started_before + c.pending.expected)
    new_downloads = c.pending.downloads[downloads_before:]
    c.pending.reported = len(c.pending.downloads)
    if new_downloads:
        saved = await await_downloads(new_downloads)
        facts["downloads"] = [d.path for d in saved]
        renamed = {d.path: d.suggested for d in saved if d.renamed}
        if renamed:
            # a second download of one name keeps both, as Chromium does: name (1).pdf
            facts["downloads_renamed"] = renamed
        output += "; downloaded " + ", ".join(
            f"{d.path} ({d.suggested} was taken)" if d.renamed else d.path for d in saved
        )
    c.last_error = error
    step = Step(
        index=c.recorder.next_index(),
        tool="user" if action.user_op else "browser",
        op=action.op,
        target=describe(action),
        input=action.model_dump(exclude_none=True, exclude_defaults=False),
        output=output,
        data=data,
        facts=facts,
        status=status,
        error=error,
        started_at=started,
        latency_ms=round((time.perf_counter() - t0) * 1000, 2),
    )
    c.recorder.record(step)
    return step


async def _dispatch(
    c: AttemptContext, action: a.Action, facts: dict[str, Any]
) -> tuple[str, Any, StepStatus, str | None]:
    """The handler's output and data, or the step's failure: (output, data, status, error).

    Raises:
        BrowserFault: the browser or its driver died, or a timeout ran out while the
            machine was stalled or starved (``_stall``): neither is the agent's failure.
    """
    page = c.page if c.pages and not isinstance(action, NAVIGATING) else None
    watch = None
    if c.context is not None:
        watch = StallWatch.start(c.context, page, c.pipeline)
    try:
        output, data = await _handlers.dispatch(c, action, facts)
    except ComputerError:
        raise
    except Refused as exc:
        return "refused", None, "refused", str(exc)
    except PlaywrightError as exc:
        seen = await watch.stop() if watch is not None else NO_STALL
        dead = await c.dead()  # a failed step may be a dead browser or driver, not the agent's
        if dead is not None:
            raise BrowserFault(f"browser fault during {action.op}: {dead}") from exc
        if isinstance(exc, PlaywrightTimeout):
            if seen.stalled:
                raise BrowserFault(
                    f"machine stalled during {action.op}: {seen.describe()} "
                    f"while the action waited ({first_line(exc)})"
                ) from exc
            facts["machine"] = seen.facts()  # the evidence that the timeout is the agent's
        return "failed", None, "error", first_line(exc)
    except (ValueError, OSError) as exc:
        return "failed", None, "error", str(exc)
    finally:
        if watch is not None:
            await watch.stop()
    return output, data, "ok", None


def refuse_input(c: AttemptContext, action: a.Action, lease: Lease) -> Step:
    """A Step for an input refused because the owner took control back."""
    step = refused_step(lease, action, describe(action), c.recorder.next_index())
    c.last_error = step.error
    c.recorder.record(step)
    return step


def describe(action: a.Action) -> str | None:
    """The Step's target: what the action addresses, in a few words."""
    aimed = action.aimed_at()
    if aimed is not None:
        return aimed.describe()
    match action:
        case a.Navigate():
            return action.url
        case a.AskUser():
            return action.key or action.question[:60]
        case a.RequestApproval():
            return action.action
        case a.Schedule():
            return action.at
        case a.Drag():
            return "drag"
        case a.Tabs():
            return f"{action.action} {action.index if action.index is not None else ''}".strip()
        case _:
            return None


async def downloads_started(c: AttemptContext, count: int) -> None:
    """Wait (bounded) until ``count`` downloads have started in this context."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DOWNLOAD_TIMEOUT_S
    while len(c.pending.downloads) < count:
        remaining = deadline - loop.time()
        if remaining <= 0:
            return
        c.pending.started.clear()
        try:
            await asyncio.wait_for(c.pending.started.wait(), remaining)
        except TimeoutError:
            return


async def popups_started(c: AttemptContext) -> int:
    """Popups the active tab's documents started since the last call (read and reset).

    A frame that never committed a document (an iframe of a refused ``file:`` URL in a
    ``data:`` page) has nothing to ask, and a read that would wait for it never returns:
    such frames are skipped, and every read is bounded (``READ_TIMEOUT_S``).
    """
    if not c.pages:
        return 0
    total = 0
    for frame in c.page.frames:
        if not frame.url:
            continue
        try:
            total += int(await asyncio.wait_for(frame.evaluate(js.TAKE_POPUPS_JS), READ_TIMEOUT_S))
        except (PlaywrightError, TimeoutError):
            continue
    return total


async def await_tabs(c: AttemptContext, count: int) -> None:
    """Wait (bounded) until ``count`` tabs are open.

    Playwright reports a popup's tab only after the click that opened it
    has returned, so without this wait the new tab would be missed.
    """
    deadline = time.monotonic() + POPUP_TIMEOUT_S
    while True:
        c.tab_opened.clear()
        remaining = deadline - time.monotonic()
        if len(c.pages) >= count or remaining <= 0:
            return
        try:
            await asyncio.wait_for(c.tab_opened.wait(), remaining)
        except TimeoutError:
            return


async def await_downloads(tasks: list[asyncio.Task[SavedDownload]]) -> list[SavedDownload]:
    """The downloads saved within the bound."""
    done, pending = await asyncio.wait(tasks, timeout=DOWNLOAD_TIMEOUT_S)
    saved = []
    for task in tasks:
        if task in done and task.exception() is None:
            saved.append(task.result())
    for task in pending:
        task.cancel()
    return saved


async def marking(c: AttemptContext, action: a.Action) -> str | None:
    """The site's ``data-proctor-sensitive`` marking of the control an action targets.

    Enter in a form's text field submits the form through its default button,
    so a Press of Enter reads that button's marking too.
    """
    resolved = action.aimed_at()
    enter = isinstance(action, a.Press) and (action.key or "").lower() == "enter"
    script = js.ENTER_MARK_JS if enter else js.MARK_JS
    try:
        if resolved is None:
            if not enter:
                return None
            mark = await c.page.evaluate(f"({script})(document.activeElement)")
        elif resolved.is_point:
            handle = await c.page.evaluate_handle(js.POINT_JS, [resolved.x, resolved.y])
            element = handle.as_element()
            if element is None:
                return None
            mark = await element.evaluate(script)
        else:
            locator = _delivery.locator(c, resolved)
            if await locator.count() != 1:
                return None
            mark = await locator.evaluate(script)
    except PlaywrightError:
        return None
    return str(mark) if mark else None
