"""Waiting for the navigations an action starts inside frames.

Playwright waits for a main-frame navigation an input starts (a form post, a
link), never for one inside an iframe: a click on a framed form returns while
the frame is still posting, and the next observation would show the old frame,
or none. Every document notes that it is leaving (``js.LEAVE_WATCH_JS``: a form
submitted, a link followed, a scripted navigation); after an input, each child
frame that noted it is waited for (bounded) until its new document is parsed,
or until its navigation ended without one (failed, a download, a 204).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page, Request

from proctor.computer import _scripts as js

FRAME_NAV_TIMEOUT_S = 15.0
"""Seconds a frame's navigation gets to commit and parse (``NAV_TIMEOUT_MS`` too)."""
READ_TIMEOUT_S = 5.0
"""Seconds a frame gets to say whether it is leaving."""


@dataclass
class FrameWatch:
    """The child-frame navigations of one page while an action runs and settles."""

    page: Page
    navigated: set[Frame] = field(default_factory=set)
    ended: set[Frame] = field(default_factory=set)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @classmethod
    def start(cls, page: Page) -> FrameWatch | None:
        """Watch ``page`` for this action; None when it has no child frame to wait for.

        Listening is per action and only on a page with frames: Playwright's driver
        sends request events only while a listener wants them.
        """
        if len(page.frames) < 2:
            return None
        watch = cls(page)
        page.on("framenavigated", watch._navigated)
        page.on("framedetached", watch._ended)
        page.on("requestfailed", watch._request_failed)
        page.on("requestfinished", watch._request_finished)
        page.on("download", watch._download)
        return watch

    def stop(self) -> None:
        page = self.page
        page.remove_listener("framenavigated", self._navigated)
        page.remove_listener("framedetached", self._ended)
        page.remove_listener("requestfailed", self._request_failed)
        page.remove_listener("requestfinished", self._request_finished)
        page.remove_listener("download", self._download)

    async def settle(self) -> list[str]:
        """Wait (bounded) for each child frame that is leaving its document; their URLs."""
        leaving = [f for f in self.page.frames if f.parent_frame is not None and await _leaving(f)]
        leaving += [f for f in self.navigated if f not in leaving and not f.is_detached()]
        if not leaving:
            return []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FRAME_NAV_TIMEOUT_S
        for frame in leaving:
            while frame not in self.navigated and frame not in self.ended:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    break
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), remaining)
                except TimeoutError:
                    break
            if frame in self.navigated and not frame.is_detached():
                remaining = max(0.1, deadline - loop.time())
                with contextlib.suppress(PlaywrightError):
                    await frame.wait_for_load_state("domcontentloaded", timeout=remaining * 1000)
        return [f.url for f in leaving if not f.is_detached()]

    def _note(self, into: set[Frame], frame: Frame) -> None:
        if frame.parent_frame is not None:
            into.add(frame)
            self.changed.set()

    def _navigated(self, frame: Frame) -> None:
        self._note(self.navigated, frame)

    def _ended(self, frame: Frame) -> None:
        self._note(self.ended, frame)

    def _request_failed(self, request: Request) -> None:
        if request.is_navigation_request():
            self._note(self.ended, request.frame)

    async def _request_finished(self, request: Request) -> None:
        # A redirect hop finishes too, and its frame navigates on; a 204 or 205 answer
        # leaves the frame where it was: its navigation ended there.
        if not request.is_navigation_request() or request.frame.parent_frame is None:
            return
        with contextlib.suppress(PlaywrightError):
            response = await request.response()
            if response is not None and response.status in (204, 205):
                self._note(self.ended, request.frame)

    def _download(self, _download: object) -> None:
        # A navigation that turned into a download commits nothing: stop waiting for any.
        for frame in self.page.frames:
            self._note(self.ended, frame)


async def _leaving(frame: Frame) -> bool:
    """Whether the frame's document noted that it is leaving (read and reset)."""
    try:
        return bool(await asyncio.wait_for(frame.evaluate(js.TAKE_LEAVING_JS), READ_TIMEOUT_S))
    except PlaywrightError:
        return False  # its document is gone already: framenavigated says the rest
    except TimeoutError:
        return False  # a frame with no document to ask (still starting): nothing it started
