"""What every action handler shares: its result, the element a target addresses, and
delivering an input that may start a navigation.

A handler (``_pointer``, ``_fields``, ``_pages``) drives the active page and returns
what the Step says (``Handled``); ``facts`` collects what the trace records besides.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import Any, NamedTuple

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from proctor.computer import actions as a
from proctor.computer._context import NAV_TIMEOUT_MS, AttemptContext
from proctor.computer._errors import (
    performed_then_waited,
    reached_the_key_press,
    sent_unconfirmed,
)

Facts = dict[str, Any]


class Handled(NamedTuple):
    """What an action did: the Step's output line and its data."""

    output: str
    data: Any = None


async def delivered(c: AttemptContext, action: Awaitable[None], facts: Facts) -> None:
    """Await an input that may start a navigation (a form post, a link, Enter).

    Playwright holds the input until a navigation it started commits, within the
    action timeout. When only that wait runs out, the page took the input: the step
    is done (a retry would post twice), and this waits on (``NAV_TIMEOUT_MS``) for
    the navigation to commit, so that ``settle`` waits for the new document.

    A click's call log says it was performed. A key press's says only that its
    element was found (``elementHandle.press``); what follows (focus, the key, the
    navigation wait) takes no time unless a navigation is pending, so the press is
    done if the page commits a navigation within the bound, and failed if not.

    A click whose log ends at "performing click action" was sent, and the wait that
    ran out was the page's answer about it (``sent_unconfirmed``): the step is done
    too, once the page answers again (within ``NAV_TIMEOUT_MS``), so the click has
    been handled before the next observation.
    """
    page = c.page
    past = c.navigations[page]
    try:
        await action
    except PlaywrightTimeout as exc:
        if sent_unconfirmed(exc):
            answered = await _answers(page)
            facts["input"] = (
                "slow: sent; the page answered after the input's own wait ran out"
                if answered
                else f"slow: sent; the page did not answer {NAV_TIMEOUT_MS // 1000}s after it"
            )
            return
        clicked = performed_then_waited(exc)
        if not (clicked or reached_the_key_press(exc)):
            raise
        committed = await c.wait_navigated(page, past, NAV_TIMEOUT_MS / 1000)
        if not (committed or clicked):
            raise
        facts["navigation"] = (
            "slow: committed after the input's own wait ran out"
            if committed
            else f"slow: not committed {NAV_TIMEOUT_MS // 1000}s after the input"
        )


async def _answers(page: Page) -> bool:
    """Whether the page's renderer runs a script again within ``NAV_TIMEOUT_MS``."""
    try:
        await asyncio.wait_for(page.evaluate("0"), NAV_TIMEOUT_MS / 1000)
    except (PlaywrightError, TimeoutError):
        return False
    return True


async def settle(c: AttemptContext) -> None:
    """Wait (bounded) for the active page's document to be parsed."""
    with contextlib.suppress(PlaywrightError):
        await c.page.wait_for_load_state("domcontentloaded", timeout=NAV_TIMEOUT_MS)


def locator(c: AttemptContext, target: a.Target) -> Locator:
    """The element ``target`` addresses on the active page."""
    page = c.page
    if target.ref is not None:
        return page.locator(f"aria-ref={target.ref}")
    if target.role is not None:
        return page.get_by_role(target.role, name=target.name, exact=target.exact)  # type: ignore[arg-type]
    if target.selector is not None:
        return page.locator(target.selector)
    raise ValueError("no element target")
