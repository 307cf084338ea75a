"""The handlers of pages and tabs: navigate, back, tabs, extract, wait, restart."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable
from typing import Any

from playwright.async_api import Response
from playwright.async_api import TimeoutError as PlaywrightTimeout

from proctor.computer import _observe
from proctor.computer import _scripts as js
from proctor.computer import actions as a
from proctor.computer._context import NAV_TIMEOUT_MS, AttemptContext
from proctor.computer._delivery import Facts, Handled, locator, settle
from proctor.computer._errors import (
    Refused,
)
from proctor.computer._routing import check_url, denied, origin
from proctor.errors import ComputerError

NAV_GRACE_S = 5.0
"""Seconds past ``NAV_TIMEOUT_MS`` a navigation step waits before it gives up itself."""
WAIT_TEXT_TIMEOUT_MS = 10_000


async def navigate(c: AttemptContext, action: a.Navigate, facts: Facts) -> Handled:
    check_url(c.options, c.on_blocked, action.url)
    if denied(c.options, action.url):
        raise Refused(f"navigation to {origin(action.url)} is denied for this task; refused")
    response = await bounded(
        c.page.goto(action.url, wait_until="load"), f"navigate to {action.url}"
    )
    facts["status"] = response.status if response else None
    return Handled(f"opened {c.page.url}")


async def back(c: AttemptContext) -> Handled:
    await bounded(c.page.go_back(wait_until="load"), "back")
    return Handled(f"back to {c.page.url}")


async def bounded(going: Awaitable[Response | None], what: str) -> Response | None:
    """Await a navigation of the active page, never longer than its timeout and a grace.

    Playwright's own navigation timeout (``NAV_TIMEOUT_MS``) ends a navigation that does
    not load; this bound holds when that timer is not reached (a driver call that never
    answers), so a navigation is a step error returned to the agent, never a hung attempt.
    """
    limit = NAV_TIMEOUT_MS / 1000 + NAV_GRACE_S
    try:
        return await asyncio.wait_for(going, limit)
    except TimeoutError:
        raise PlaywrightTimeout(
            f"{what}: the page did not load within {NAV_TIMEOUT_MS // 1000}s"
        ) from None


async def tabs(c: AttemptContext, action: a.Tabs, facts: Facts) -> Handled:
    if action.action != "list":
        index = action.tab()
        if index >= len(c.pages):
            raise ValueError(f"no tab {index}; {len(c.pages)} tab(s) are open")
        if action.action == "activate":
            c.active = index
            await c.page.bring_to_front()
            await settle(c)
        else:
            await c.pages[index].close()
    listed = [
        {"index": t.index, "url": t.url, "title": t.title} for t in await _observe.tabs(c.pages)
    ]
    facts["active"] = c.active
    return Handled(f"{len(listed)} tab(s), active {c.active}", listed)


async def extract(c: AttemptContext, action: a.Extract) -> Handled:
    target = action.target()
    data: Any
    if action.kind == "attribute":
        if target is None or action.attribute is None:
            raise ValueError("extract kind=attribute needs an element and an attribute name")
        values = await locator(c, target).evaluate_all(
            "(els, name) => els.map(e => e.getAttribute(name))", action.attribute
        )
        if not values:
            raise ValueError(f"{target.describe()} matches no element")
        data = values[0] if len(values) == 1 else values
    else:
        root = locator(c, target) if target else c.page.locator("body")
        if action.kind == "text":
            data = await root.first.inner_text()
        elif action.kind == "table":
            table = root if target else c.page.locator("table")
            data = await table.first.evaluate(js.TABLE_JS)
        else:
            data = await root.first.evaluate(js.LINKS_JS)
    summary = json.dumps(data, ensure_ascii=False)
    return Handled(f"extracted {action.kind}: {summary[:200]}", data)


async def wait(c: AttemptContext, action: a.Wait) -> Handled:
    if action.text is not None:
        await c.page.get_by_text(action.text).first.wait_for(
            state="visible", timeout=WAIT_TEXT_TIMEOUT_MS
        )
        return Handled(f"saw {action.text!r}")
    if action.ms is None:
        raise ValueError("give exactly one of text or ms")
    # The agent asked for this pause (bounded to 10 s by the model); not a wait on the page.
    await asyncio.sleep(action.ms / 1000)
    return Handled(f"waited {action.ms} ms")


async def restart(c: AttemptContext, facts: Facts) -> Handled:
    context = c.context
    if context is None:
        raise ComputerError(f"attempt {c.options.attempt}: no browser context to restart")
    state = await context.storage_state()
    # A real restart keeps persistent cookies and drops session ones.
    state["cookies"] = [k for k in state["cookies"] if k.get("expires", -1) > 0]
    c.profile.parent.mkdir(parents=True, exist_ok=True)
    c.profile.write_text(json.dumps(state))
    kept = len(state["cookies"])
    await context.close()
    await c.new_context(storage_state=str(c.profile))
    facts["cookies_kept"] = kept
    return Handled(f"browser restarted with the attempt's profile ({kept} cookie(s) kept)")
