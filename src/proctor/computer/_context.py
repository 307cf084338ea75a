"""One attempt's browser context: its tabs, the seal's routes, downloads and liveness.

``AttemptContext`` is the state the jobs of the browser computer share: the
handlers (``_handlers``), observing (``_observe``) and acting (``_act``) take it,
and ``BrowserComputer`` (``_browser``) is it with the agent's contract on top, so
every dependency points down to this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from playwright.async_api import (
    BrowserContext,
    Download,
    Frame,
    Page,
    ViewportSize,
    WebSocketRoute,
)
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Route as PwRoute

from proctor.computer import _scripts as js
from proctor.computer._chromium import BrowserHost
from proctor.computer._downloads import SavedDownload, free_name
from proctor.computer._errors import first_line
from proctor.computer._recorder import Recorder
from proctor.computer._routing import (
    BlockedHook,
    BrowserOptions,
    deny_pattern,
    offline_pattern,
    scheme_allowed,
)
from proctor.computer._sched import Pipeline
from proctor.computer._told import user_notes
from proctor.computer.user import UserChannel
from proctor.errors import BrowserFault, ComputerError

if TYPE_CHECKING:  # the cookie's shape: Playwright does not export it publicly
    from playwright._impl._api_structures import SetCookieParam

ACTION_TIMEOUT_MS = 4_000
NAV_TIMEOUT_MS = 15_000
PROBE_TIMEOUT = 10.0
"""Seconds the browser gets to answer the liveness probe (``AttemptContext.dead``)."""


def _headers(opts: BrowserOptions) -> dict[str, str]:
    """The attempt's tag header (the fixture server files requests by it); none when the
    options name no header (the live tier: public sites get no harness header)."""
    return {opts.attempt_header: opts.attempt} if opts.attempt_header else {}


def _tag_cookies(opts: BrowserOptions) -> list[SetCookieParam]:
    """The attempt's tag as an httpOnly cookie of the same name on each world host.

    Chromium sends a context's extra headers with what its pages request, but not with
    a request the browser makes itself: an ``a[download]`` download reaches the server
    with the context's cookies and without the header. The cookie tags it; the fixture
    server reads it only when the header is missing, and takes it out of the request
    before a site or the log sees it. Pages cannot read it (httpOnly).
    """
    if not opts.attempt_header:
        return []
    return [
        {"name": opts.attempt_header, "value": opts.attempt, "url": f"http://{host}/",
         "httpOnly": True}
        for host in opts.fixture_hosts
    ]  # fmt: skip


@dataclass
class Pending:
    """What the browser started that an action waits for."""

    downloads: list[asyncio.Task[SavedDownload]] = field(default_factory=list)
    blanking: list[asyncio.Future[None]] = field(default_factory=list)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    expected: int = 0
    """Downloads the current action is known to start (a click on an ``a[download]`` link)."""
    reported: int = 0
    """Downloads a step has reported: a later one, even one that started between steps
    (after its action's bounded wait), is reported by the next step."""


class AttemptContext:
    """One attempt's browser context and what happened in it: tabs, downloads, refusals.

    Made and opened by ``BrowserComputer.open``; always ``close``.
    """

    def __init__(
        self,
        host: BrowserHost,
        options: BrowserOptions,
        recorder: Recorder,
        on_blocked: BlockedHook,
    ) -> None:
        self.host = host
        self.options = options
        self.recorder = recorder
        self.on_blocked = on_blocked
        self.context: BrowserContext | None = None
        self.pages: list[Page] = []
        self.active = 0
        self.crashed: str | None = None
        self.answer: str | None = None
        self.finished = False
        self.pending = Pending()
        self.tab_opened = asyncio.Event()
        self.navigations: Counter[Page] = Counter()
        """Main-frame navigations committed per page (``wait_navigated``)."""
        self.navigated = asyncio.Event()
        self.refusals: list[str] = []
        """URLs of denied origins the context's route refused (read by ``_act``)."""
        self.last_error: str | None = None
        self.profile = options.scratch / "profile" / "state.json"
        self.downloads_dir = options.scratch / "output"
        self.saving: set[str] = set()
        """Names given to downloads still being saved (``_downloads.free_name``)."""
        self.user: UserChannel | None = None
        """Who answers ask_user and request_approval; without one, those steps fail."""
        self._processes: tuple[int | None, int | None] | None = None

    # ----- life cycle -------------------------------------------------------

    async def new_context(self, storage_state: str | None) -> None:
        """Open this attempt's browser context (again, on restart) with the seal's routes."""
        opts = self.options
        viewport: ViewportSize = {"width": opts.viewport[0], "height": opts.viewport[1]}
        # The blank context the host prepared while the last attempt ran, when there
        # is one: it is fresh (no cookies, no storage), and gets this attempt's
        # headers, viewport, routes and scripts below, before its first navigation.
        spare = await self.host.take_spare() if storage_state is None else None
        try:
            if spare is not None:
                context, blank = spare
                await context.set_extra_http_headers(_headers(opts))
                await blank.set_viewport_size(viewport)
            else:
                blank = None
                context = await self.host.browser.new_context(
                    viewport=viewport,
                    extra_http_headers=_headers(opts),
                    accept_downloads=True,
                    storage_state=storage_state,
                    service_workers="block",
                )
            cookies = _tag_cookies(opts)
            if cookies:
                await context.add_cookies(cookies)
        except PlaywrightError as exc:
            raise BrowserFault(f"could not open a browser context: {first_line(exc)}") from exc
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(NAV_TIMEOUT_MS)
        if opts.offline:
            await context.route(offline_pattern(opts.fixture_hosts), self._block)
        # No fixture site has a websocket: every one is refused before it connects.
        await context.route_web_socket(re.compile(r".*"), self._refuse_websocket)
        if opts.deny_origins:
            await context.route(deny_pattern(opts.deny_origins), self._refuse)
        await context.add_init_script(js.POPUP_WATCH_JS)
        await context.add_init_script(js.LEAVE_WATCH_JS)
        if opts.offline and not self.host.sealed:
            # Without the sealed network nothing in the kernel stops WebRTC's UDP
            # (STUN, TURN, mDNS), which no route sees: take the API away. The
            # weakest layer, used only when the machine refuses the namespace.
            await context.add_init_script(js.NO_WEBRTC_JS)
        context.on("page", self._on_page)
        self.context = context
        self.pages = []
        self.active = 0
        page = blank if blank is not None else await context.new_page()
        if page not in self.pages:
            self._on_page(page)

    def _on_page(self, page: Page) -> None:
        if page in self.pages:
            return
        self.pages.append(page)
        self.tab_opened.set()
        page.on("crash", lambda _p: self._set_crashed("the page crashed"))
        page.on("download", self._on_download)
        page.on("close", lambda p: self._on_close(p))
        page.on("framenavigated", lambda frame: self._on_navigated(page, frame))

    def _on_close(self, page: Page) -> None:
        if page in self.pages:
            idx = self.pages.index(page)
            self.pages.remove(page)
            if self.active >= idx and self.active > 0:
                self.active -= 1

    def _set_crashed(self, why: str) -> None:
        self.crashed = self.crashed or why

    def _on_download(self, download: Download) -> None:
        # The name is chosen here, when the download starts, so that two downloads of
        # one name that are saved at the same time still get two names.
        name = free_name(self.downloads_dir, download.suggested_filename, self.saving)
        self.saving.add(name)
        self.pending.downloads.append(asyncio.ensure_future(self._save(download, name)))
        self.pending.started.set()

    async def _save(self, download: Download, name: str) -> SavedDownload:
        target = self.downloads_dir / name
        try:
            self.downloads_dir.mkdir(parents=True, exist_ok=True)
            await download.save_as(target)
        finally:
            self.saving.discard(name)
        path = target.relative_to(self.options.scratch).as_posix()
        return SavedDownload(path, download.suggested_filename)

    async def _block(self, route: PwRoute) -> None:
        request = route.request
        self.on_blocked(request.method, request.url, "offworld")
        with contextlib.suppress(PlaywrightError):
            await route.abort("blockedbyclient")

    async def _refuse_websocket(self, route: WebSocketRoute) -> None:
        self.on_blocked("GET", route.url, "websocket")
        with contextlib.suppress(PlaywrightError):
            await route.close(code=1008, reason="proctor: the world has no websockets")

    async def wait_navigated(self, page: Page, past: int, timeout_s: float) -> bool:
        """Wait (bounded) until ``page`` has committed more than ``past`` navigations."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while self.navigations[page] <= past and not page.is_closed():
            self.navigated.clear()
            try:
                await asyncio.wait_for(self.navigated.wait(), deadline - loop.time())
            except TimeoutError:
                return False
        return self.navigations[page] > past

    def _on_navigated(self, page: Page, frame: Frame) -> None:
        """Count a main-frame navigation; a refused scheme (script-opened) is logged and blanked."""
        if frame.parent_frame is not None:
            return
        self.navigations[page] += 1
        self.navigated.set()
        if scheme_allowed(self.options, frame.url):
            return
        self.on_blocked("GET", frame.url, "scheme")
        self.pending.blanking.append(asyncio.ensure_future(self._blank(page)))

    async def _blank(self, page: Page) -> None:
        with contextlib.suppress(PlaywrightError):
            await page.goto("about:blank")

    async def _refuse(self, route: PwRoute) -> None:
        self.refusals.append(route.request.url)
        with contextlib.suppress(PlaywrightError):
            await route.abort("blockedbyclient")

    async def close(self) -> None:
        for task in self.pending.downloads:
            task.cancel()
        for future in self.pending.blanking:
            future.cancel()
        if self.context is not None:
            with contextlib.suppress(PlaywrightError):
                await self.context.close()
            self.context = None

    # ----- state ------------------------------------------------------------

    @property
    def page(self) -> Page:
        if not self.pages:
            raise ComputerError("no tab is open")
        return self.pages[min(self.active, len(self.pages) - 1)]

    def check_alive(self) -> None:
        """Raise ``BrowserFault`` when the page crashed or Chromium disconnected (no round trip)."""
        if self.crashed:
            raise BrowserFault(f"browser fault: {self.crashed}")
        if not self.host.browser.is_connected():
            raise BrowserFault("browser fault: Chromium disconnected")

    def pipeline(self) -> Pipeline:
        """The renderers an action waits on (``_stall``), below Chromium (found once)."""
        if self._processes is None:
            self._processes = self.host.process_ids()
        return Pipeline(self._processes[0])

    async def dead(self) -> str | None:
        """Why the browser can no longer serve this attempt, or None when it answers.

        ``is_connected`` alone is not enough: after the Playwright driver (node)
        dies it still reads true, so this makes one round trip to the browser.
        """
        if self.crashed:
            return self.crashed
        if not self.host.browser.is_connected():
            return "Chromium disconnected"
        if self.context is None:
            return None  # no attempt open: nothing to read from
        try:
            await asyncio.wait_for(self.context.cookies(), PROBE_TIMEOUT)
        except TimeoutError:
            return f"the browser did not answer within {PROBE_TIMEOUT:g}s"
        except PlaywrightError as exc:
            return f"the browser does not answer: {first_line(exc)}"
        return None

    async def ensure_alive(self) -> None:
        """Raise ``BrowserFault`` unless the browser answers (before end-state reads).

        Raises:
            BrowserFault: the page crashed, Chromium or its driver is gone, or it hangs.
        """
        why = await self.dead()
        if why is not None:
            raise BrowserFault(f"browser fault: {why}")

    # ----- the user ---------------------------------------------------------

    def user_channel(self) -> UserChannel:
        """The attempt's user; a ValueError (a failed step) when there is none."""
        if self.user is None:
            raise ValueError("no user is reachable in this attempt; the task must be done alone")
        return self.user

    def user_messages(self) -> list[str]:
        """Messages from the user due now, each shown once and traced."""
        return user_notes(self.user, self.recorder)
