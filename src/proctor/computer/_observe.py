"""Observing the browser: the aria snapshot, the tabs, the page text and screenshots."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from pathlib import Path

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from proctor.computer import _scripts as js
from proctor.computer._context import AttemptContext
from proctor.computer._errors import first_line
from proctor.computer.observation import Capture, Observation, TabInfo, png_size
from proctor.errors import ComputerError
from proctor.records import write_bytes_atomic

SNAPSHOT_TIMEOUT_MS = 5_000


async def observe(computer: AttemptContext) -> Observation:
    """The active tab as the agent sees it: url, tabs, aria snapshot with refs."""
    page = computer.page
    try:
        snapshot = await page.aria_snapshot(mode="ai", timeout=SNAPSHOT_TIMEOUT_MS)
    except PlaywrightError as exc:
        snapshot = f"(no snapshot: {first_line(exc)})"
    focused: str | None = None
    try:
        focused = await page.evaluate(js.FOCUSED_JS)
    except PlaywrightError:
        focused = None
    return Observation(
        url=page.url,
        title=await title(page),
        tabs=tuple(await tabs(computer.pages)),
        active=computer.active,
        snapshot=snapshot,
        focused=focused,
        error=computer.last_error,
        notes=tuple(computer.user_messages()),
    )


async def title(page: Page) -> str:
    """The page's title; empty when it cannot be read."""
    try:
        return await page.title()
    except PlaywrightError:
        return ""


async def tabs(pages: list[Page]) -> list[TabInfo]:
    """Every open tab, in opening order."""
    return [TabInfo(i, p.url, await title(p)) for i, p in enumerate(pages)]


async def page_text(computer: AttemptContext) -> str:
    """Visible text of the observed page; empty with no tab open."""
    if not computer.pages:
        return ""
    try:
        text = await computer.page.evaluate(js.TEXT_JS)
    except PlaywrightError:
        return ""
    return str(text)


SHOT_TRIES = 3
SHOT_PAUSE_S = 0.2
FAST_FAIL_S = 1.0
"""A capture that failed both ways within ``FAST_FAIL_S`` is tried again after a short
pause (once seen on a null attempt, cause unknown; perhaps a renderer swapping under
the page). One that hung until its timeout is not, and none after ``SHOT_TRIES``."""


async def screenshot_bytes(computer: AttemptContext) -> bytes | None:
    """A PNG of the observed page; None when the page cannot be captured.

    Chromium's fast PNG encoder (through CDP) is about a third quicker than
    Playwright's screenshot, which matters twice per attempt; Playwright's is the
    fallback. Both failing is tried again, a bounded number of times.
    """
    for tried in range(1, SHOT_TRIES + 1):
        try:
            page = computer.page
        except ComputerError:
            return None
        began = time.monotonic()
        shot = await _shot(computer, page)
        failed_fast = time.monotonic() - began < FAST_FAIL_S
        if shot is not None or page.is_closed() or not failed_fast or tried == SHOT_TRIES:
            return shot
        await asyncio.sleep(SHOT_PAUSE_S)
    return None


async def _shot(computer: AttemptContext, page: Page) -> bytes | None:
    """One capture: CDP's, else Playwright's; None when both failed."""
    if computer.context is not None:
        try:
            session = await computer.context.new_cdp_session(page)
            try:
                shot = await session.send(
                    "Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True}
                )
            finally:
                with contextlib.suppress(PlaywrightError):
                    await session.detach()
            return base64.b64decode(shot["data"])
        except (PlaywrightError, KeyError, ValueError):
            pass
    try:
        return await page.screenshot(timeout=SNAPSHOT_TIMEOUT_MS)
    except PlaywrightError:
        return None


async def capture(computer: AttemptContext) -> Capture | None:
    """A PNG of the observed page's viewport and the viewport's size in CSS pixels.

    Coordinates (Playwright's mouse, ``elementFromPoint``) are CSS pixels of the
    viewport from its top-left corner, so the viewport is the space an agent's
    x,y live in; the PNG is that viewport at the device scale. None when the page
    cannot be captured.
    """
    data = await screenshot_bytes(computer)
    if data is None:
        return None
    try:
        png_w, png_h = png_size(data)
    except ValueError:
        return None
    size = computer.page.viewport_size
    width, height = (size["width"], size["height"]) if size else computer.options.viewport
    return Capture(data, width, height, png_w, png_h)


async def screenshot(computer: AttemptContext, path: Path) -> bool:
    """Save a PNG of the observed page (atomically); False when it cannot be captured."""
    data = await screenshot_bytes(computer)
    if data is None:
        return False
    try:
        write_bytes_atomic(path, data)
    except OSError:
        return False
    return True
