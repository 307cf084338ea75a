"""The Playwright browser computer: one attempt's context, tabs, recorder and limits."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from playwright.async_api import (
    BrowserContext,
    Download,
    ElementHandle,
    Frame,
    Locator,
    Page,
    WebSocketRoute,
)
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Route as PwRoute

from proctor.computer import _scripts as js
from proctor.computer import actions as a
from proctor.computer._chromium import BrowserHost
from proctor.computer._lease import Lease
from proctor.computer._recorder import Recorder
from proctor.computer.observation import Observation, TabInfo
from proctor.computer.user import UserChannel
from proctor.errors import ComputerError
from proctor.records import Step, StepStatus, write_bytes_atomic
from proctor.vocab import Refusal

ACTION_TIMEOUT_MS = 4_000
NAV_TIMEOUT_MS = 15_000
DOWNLOAD_TIMEOUT_S = 15.0
POPUP_TIMEOUT_S = 5.0
SNAPSHOT_TIMEOUT_MS = 5_000

BlockedHook = Callable[[str, str, Refusal], None]
"""Called with (method, url, kind) for every request or navigation the seal refused."""

WORLD_SCHEMES = ("http", "https")
OPTIONAL_SCHEMES = ("data", "blob")
"""Schemes a scenario may allow (``world.browser.allow_schemes``); refused otherwise."""
HARMLESS_PAGES = ("about:blank", "chrome-error://chromewebdata/")


class InfraFault(ComputerError):
    """The browser itself failed (crash, disconnect): retried, never scored."""


class SetupFault(InfraFault):
    """The attempt's starting state could not be reached (e.g. the start page did not load)."""


@dataclass(frozen=True)
class BrowserOptions:
    """How one attempt's browser is set up."""

    attempt: str
    fixture_hosts: tuple[str, ...]
    attempt_header: str
    scratch: Path
    deny_origins: tuple[str, ...] = ()
    viewport: tuple[int, int] = (1280, 800)
    offline: bool = True
    lease: Lease | None = None
    allow_schemes: tuple[str, ...] = ()
    """Of OPTIONAL_SCHEMES, those this attempt's pages may use (data:, blob:)."""
    private: tuple[Path, ...] = ()
    """Folders no agent may read (the results root, the scenario folders): an external
    agent's process runs with them hidden (``agents/_jail.py``)."""


@dataclass
class _Pending:
    downloads: list[asyncio.Task[str]] = field(default_factory=list)
    blanking: list[asyncio.Future[None]] = field(default_factory=list)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    expected: int = 0
    """Downloads the current action is known to start (a click on an ``a[download]`` link)."""


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    for prefix in ("Locator.", "Page.", "Mouse.", "Keyboard.", "Frame."):
        if text.startswith(prefix):
            text = text.split(": ", 1)[-1]
    lines = [ln for ln in text.splitlines() if ln.strip() and "=====" not in ln]
    first = lines[0] if lines else type(exc).__name__
    if "intercepts pointer events" in text:
        hit = re.search(r"<[a-zA-Z][^\n]*? intercepts pointer events", text)
        first += " (covered: " + (hit.group(0)[:160] if hit else "another element") + ")"
    if "element is not enabled" in text or "not enabled" in text:
        first += " (the element is disabled)"
    if "strict mode violation" in text:
        first = first.split(" Call log")[0]
    return first[:400]


def scheme_of(url: str) -> str:
    """The URL's scheme, lower case ('' when it has none)."""
    head, sep, _ = url.partition(":")
    return head.strip().lower() if sep and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", head) else ""


def offline_pattern(hosts: tuple[str, ...]) -> re.Pattern[str]:
    """A URL regex matching every http(s) request NOT for a fixture host."""
    alts = "|".join(re.escape(h) for h in hosts)
    return re.compile(rf"^(?!https?://(?:{alts})(?:[:/?#]|$))https?://", re.IGNORECASE)


class BrowserComputer:
    """The browser an agent drives during one attempt.

    Every ``act`` call becomes a recorded Step. Observations are built on
    request. Use ``BrowserComputer.open`` and always ``close``.
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
        self._pending = _Pending()
        self._tab_opened = asyncio.Event()
        self._refusals: list[str] = []
        self._last_error: str | None = None
        self._profile = options.scratch / "profile" / "state.json"
        self.downloads_dir = options.scratch / "output"
        self.user: UserChannel | None = None
        """Who answers ask_user and request_approval; without one, those steps fail."""

    # ----- life cycle -------------------------------------------------------

    @classmethod
    async def open(
        cls,
        host: BrowserHost,
        options: BrowserOptions,
        recorder: Recorder,
        on_blocked: BlockedHook,
        start: str | None = None,
        user: UserChannel | None = None,
    ) -> BrowserComputer:
        """A fresh context (no cookies, no storage) with one tab, at ``start`` if given."""
        computer = cls(host, options, recorder, on_blocked)
        computer.user = user
        await computer._new_context(storage_state=None)
        if start:
            page = computer.page
            try:
                await page.goto(start, wait_until="load", timeout=NAV_TIMEOUT_MS)
            except PlaywrightError as exc:
                await computer.close()
                raise SetupFault(
                    f"attempt {options.attempt}: the start page {start} did not load: "
                    f"{_first_line(exc)}"
                ) from exc
        return computer

    async def _new_context(self, storage_state: str | None) -> None:
        opts = self.options
        try:
            context = await self.host.browser.new_context(
                viewport={"width": opts.viewport[0], "height": opts.viewport[1]},
                extra_http_headers={opts.attempt_header: opts.attempt},
                accept_downloads=True,
                storage_state=storage_state,
                service_workers="block",
            )
        except PlaywrightError as exc:
            raise InfraFault(f"could not open a browser context: {_first_line(exc)}") from exc
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(NAV_TIMEOUT_MS)
        if opts.offline:
            await context.route(offline_pattern(opts.fixture_hosts), self._block)
        # No fixture site has a websocket: every one is refused before it connects.
        await context.route_web_socket(re.compile(r".*"), self._refuse_websocket)
        if opts.deny_origins:
            alts = "|".join(re.escape(o.rstrip("/")) for o in opts.deny_origins)
            await context.route(re.compile(rf"^(?:{alts})(?:[/?#]|$)", re.I), self._refuse)
        await context.add_init_script(js.POPUP_WATCH_JS)
        if opts.offline and not self.host.sealed:
            # Without the sealed network nothing in the kernel stops WebRTC's UDP
            # (STUN, TURN, mDNS), which no route sees: take the API away. The
            # weakest layer, used only when the machine refuses the namespace.
            await context.add_init_script(js.NO_WEBRTC_JS)
        context.on("page", self._on_page)
        self.context = context
        self.pages = []
        self.active = 0
        page = await context.new_page()
        if page not in self.pages:
            self._on_page(page)

    def _on_page(self, page: Page) -> None:
        if page in self.pages:
            return
        self.pages.append(page)
        self._tab_opened.set()
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
        self._pending.downloads.append(asyncio.ensure_future(self._save(download)))
        self._pending.started.set()

    async def _save(self, download: Download) -> str:
        name = Path(download.suggested_filename).name or "download"
        target = self.downloads_dir / name
        self.downloads_dir.mkdir(parents=True, exist_ok=True)
        await download.save_as(target)
        return target.relative_to(self.options.scratch).as_posix()

    async def _block(self, route: PwRoute) -> None:
        request = route.request
        self.on_blocked(request.method, request.url, "offworld")
        with contextlib.suppress(PlaywrightError):
            await route.abort("blockedbyclient")

    async def _refuse_websocket(self, route: WebSocketRoute) -> None:
        self.on_blocked("GET", route.url, "websocket")
        with contextlib.suppress(PlaywrightError):
            await route.close(code=1008, reason="proctor: the world has no websockets")

    def _on_navigated(self, page: Page, frame: Frame) -> None:
        """A page that reached a refused scheme anyway (script-opened) is logged and blanked."""
        if frame.parent_frame is not None or self._scheme_allowed(frame.url):
            return
        self.on_blocked("GET", frame.url, "scheme")
        self._pending.blanking.append(asyncio.ensure_future(self._blank(page)))

    async def _blank(self, page: Page) -> None:
        with contextlib.suppress(PlaywrightError):
            await page.goto("about:blank")

    def _scheme_allowed(self, url: str) -> bool:
        if url in HARMLESS_PAGES:
            return True
        scheme = scheme_of(url)
        return scheme in WORLD_SCHEMES or scheme in self.options.allow_schemes

    async def _refuse(self, route: PwRoute) -> None:
        self._refusals.append(route.request.url)
        with contextlib.suppress(PlaywrightError):
            await route.abort("blockedbyclient")

    async def close(self) -> None:
        for task in self._pending.downloads:
            task.cancel()
        for future in self._pending.blanking:
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

    def _check_alive(self) -> None:
        if self.crashed:
            raise InfraFault(f"browser fault: {self.crashed}")
        if not self.host.browser.is_connected():
            raise InfraFault("browser fault: Chromium disconnected")

    async def observe(self, *, count: bool = True) -> Observation:
        """The active tab as the agent sees it: url, tabs, aria snapshot with refs."""
        if count:
            self.recorder.count_call()
        self._check_alive()
        page = self.page
        try:
            snapshot = await page.aria_snapshot(mode="ai", timeout=SNAPSHOT_TIMEOUT_MS)
        except PlaywrightError as exc:
            snapshot = f"(no snapshot: {_first_line(exc)})"
        focused: str | None = None
        try:
            focused = await page.evaluate(js.FOCUSED_JS)
        except PlaywrightError:
            focused = None
        return Observation(
            url=page.url,
            title=await self._title(page),
            tabs=tuple(await self._tabs()),
            active=self.active,
            snapshot=snapshot,
            focused=focused,
            error=self._last_error,
            notes=tuple(self._user_messages()),
        )

    async def _title(self, page: Page) -> str:
        try:
            return await page.title()
        except PlaywrightError:
            return ""

    async def _tabs(self) -> list[TabInfo]:
        return [TabInfo(i, p.url, await self._title(p)) for i, p in enumerate(self.pages)]

    async def page_text(self) -> str:
        """Visible text of the observed page (for the end state); empty with no tab open."""
        if not self.pages:
            return ""
        try:
            text = await self.page.evaluate(js.TEXT_JS)
        except PlaywrightError:
            return ""
        return str(text)

    async def screenshot(self, path: Path) -> bool:
        """Save a PNG of the observed page; False when the page cannot be captured.

        Chromium's fast PNG encoder (through CDP) is about a third quicker than
        Playwright's screenshot, which matters twice per attempt; Playwright's is the
        fallback.
        """
        try:
            page = self.page
        except ComputerError:
            return False
        try:
            assert self.context is not None
            session = await self.context.new_cdp_session(page)
            try:
                shot = await session.send(
                    "Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True}
                )
            finally:
                with contextlib.suppress(PlaywrightError):
                    await session.detach()
            write_bytes_atomic(path, base64.b64decode(shot["data"]))
            return True
        except (PlaywrightError, KeyError, ValueError, OSError, AssertionError):
            pass
        try:
            data = await page.screenshot(timeout=SNAPSHOT_TIMEOUT_MS)
            write_bytes_atomic(path, data)
        except (PlaywrightError, OSError):
            return False
        return True

    # ----- acting -----------------------------------------------------------

    async def act(self, action: a.Action) -> Step:
        """Run one action and record it as a Step; a failed action is a Step with an error.

        Raises:
            LimitReached: when the attempt's tool-call or step limit is used up.
            InfraFault: when the browser itself failed.
        """
        self.recorder.count_call(action.op)
        self._check_alive()
        lease = self.options.lease
        if lease is not None and lease.revoked and _needs_lease(action):
            return self._refuse_input(action, lease)
        started = time.time()
        t0 = time.perf_counter()
        facts: dict[str, Any] = {}
        data: Any = None
        status: StepStatus = "ok"
        error: str | None = None
        watch_popups = action.op not in ("tabs", "restart", "done", *a.USER_OPS)
        if watch_popups:
            await self._popups_started()  # older intents are not this action's
        tabs_before = len(self.pages)
        refusals_before = len(self._refusals)
        downloads_before = len(self._pending.downloads)
        self._pending.expected = 0
        try:
            output, data = await self._dispatch(action, facts)
        except ComputerError:
            raise
        except _Refused as exc:
            status, error, output = "refused", str(exc), "refused"
        except PlaywrightError as exc:
            if self.crashed or not self.host.browser.is_connected():
                raise InfraFault(f"browser fault during {action.op}: {_first_line(exc)}") from exc
            status, error, output = "error", _first_line(exc), "failed"
        except (ValueError, OSError) as exc:
            status, error, output = "error", str(exc), "failed"
        if len(self._refusals) > refusals_before:
            urls = self._refusals[refusals_before:]
            status = "refused"
            error = f"navigation to a denied origin was refused: {', '.join(urls)}"
            output = "refused"
        if watch_popups and self.context is not None:
            popups = await self._popups_started()
            if popups:
                await self._await_tabs(tabs_before + popups)
        if len(self.pages) > tabs_before:
            facts["new_tabs"] = list(range(tabs_before, len(self.pages)))
            output += (
                f"; opened tab(s) {facts['new_tabs']} (observation stays on tab {self.active})"
            )
        if self._pending.expected:
            await self._downloads_started(downloads_before + self._pending.expected)
        new_downloads = self._pending.downloads[downloads_before:]
        if new_downloads:
            saved = await self._await_downloads(new_downloads)
            facts["downloads"] = saved
            output += f"; downloaded {', '.join(saved)}"
        self._last_error = error
        step = Step(
            index=self.recorder.next_index(),
            tool="user" if action.op in a.USER_OPS else "browser",
            op=action.op,
            target=_describe(action),
            input=action.model_dump(exclude_none=True, exclude_defaults=False),
            output=output,
            data=data,
            facts=facts,
            status=status,
            error=error,
            started_at=started,
            latency_ms=round((time.perf_counter() - t0) * 1000, 2),
        )
        self.recorder.record(step)
        return step

    async def _downloads_started(self, count: int) -> None:
        """Wait (bounded) until ``count`` downloads have started in this context."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + DOWNLOAD_TIMEOUT_S
        while len(self._pending.downloads) < count:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            self._pending.started.clear()
            try:
                await asyncio.wait_for(self._pending.started.wait(), remaining)
            except TimeoutError:
                return

    async def _popups_started(self) -> int:
        """Popups the active tab's documents started since the last call (read and reset)."""
        if not self.pages:
            return 0
        total = 0
        for frame in self.page.frames:
            try:
                total += int(await frame.evaluate(js.TAKE_POPUPS_JS))
            except PlaywrightError:
                continue
        return total

    async def _await_tabs(self, count: int) -> None:
        """Wait (bounded) until ``count`` tabs are open.

        Playwright reports a popup's tab only after the click that opened it
        has returned, so without this wait the new tab would be missed.
        """
        deadline = time.monotonic() + POPUP_TIMEOUT_S
        while True:
            self._tab_opened.clear()
            remaining = deadline - time.monotonic()
            if len(self.pages) >= count or remaining <= 0:
                return
            try:
                await asyncio.wait_for(self._tab_opened.wait(), remaining)
            except TimeoutError:
                return

    async def _await_downloads(self, tasks: list[asyncio.Task[str]]) -> list[str]:
        done, pending = await asyncio.wait(tasks, timeout=DOWNLOAD_TIMEOUT_S)
        saved = []
        for task in tasks:
            if task in done and task.exception() is None:
                saved.append(task.result())
        for task in pending:
            task.cancel()
        return saved

    async def _settle(self) -> None:
        with contextlib.suppress(PlaywrightError):
            await self.page.wait_for_load_state("domcontentloaded", timeout=NAV_TIMEOUT_MS)

    def _check_url(self, url: str) -> None:
        """Refuse (and log) a URL outside the world before anything is loaded.

        Only http(s) URLs (of the world's hosts, when offline), ``about:blank``, and
        the optional schemes a scenario allows may be opened: never ``javascript:``
        (script run without a recorded input), ``file:`` (the disk, where the answer
        key lives), ``chrome:``, ``view-source:`` or any other.
        """
        scheme = scheme_of(url)
        if url.strip() == "about:blank" or scheme in self.options.allow_schemes:
            return
        if scheme not in WORLD_SCHEMES:
            self.on_blocked("GET", url, "scheme")
            shown = f"{scheme}:" if scheme else "a URL without a scheme"
            raise _Refused(
                f"{shown} URLs are refused: navigate opens only the task's http(s) pages"
                + (
                    " (javascript: would run script without a recorded input)"
                    if scheme == "javascript"
                    else ""
                )
            )
        if self.options.offline and offline_pattern(self.options.fixture_hosts).match(url):
            self.on_blocked("GET", url, "offworld")
            raise _Refused(f"{_origin(url)} is outside this task's world; refused")

    def _denied(self, url: str) -> bool:
        origin = _origin(url)
        return any(origin == o.rstrip("/").lower() for o in self.options.deny_origins)

    def _locator(self, target: a.Target) -> Locator:
        page = self.page
        if target.ref is not None:
            return page.locator(f"aria-ref={target.ref}")
        if target.role is not None:
            return page.get_by_role(target.role, name=target.name, exact=target.exact)  # type: ignore[arg-type]
        if target.selector is not None:
            return page.locator(target.selector)
        raise ValueError("no element target")

    async def _dispatch(self, action: a.Action, facts: dict[str, Any]) -> tuple[str, Any]:
        handler = getattr(self, f"_do_{action.op}")
        result: tuple[str, Any] = await handler(action, facts)
        return result

    async def _do_navigate(self, action: a.Navigate, facts: dict[str, Any]) -> tuple[str, Any]:
        self._check_url(action.url)
        if self._denied(action.url):
            raise _Refused(f"navigation to {_origin(action.url)} is denied for this task; refused")
        response = await self.page.goto(action.url, wait_until="load")
        facts["status"] = response.status if response else None
        return f"opened {self.page.url}", None

    async def _do_back(self, action: a.Back, facts: dict[str, Any]) -> tuple[str, Any]:
        await self.page.go_back(wait_until="load")
        return f"back to {self.page.url}", None

    async def _do_click(self, action: a.Click, facts: dict[str, Any]) -> tuple[str, Any]:
        target = action.target()
        assert target is not None
        if target.is_point:
            assert target.x is not None and target.y is not None
            hit = await self._frame_at(target.x, target.y)
            facts.update(hit.facts)
            if hit.element is None:
                await self.page.mouse.click(target.x, target.y)
            else:
                # Through the element hit at that point, so that Playwright waits for a
                # main-frame navigation the click starts (a form post), as it does for
                # element clicks; a bare mouse click returns before the post is even
                # sent. force: no actionability checks, the click lands at this point.
                # (Playwright does not wait for navigations inside child frames.)
                offset = await hit.element.evaluate(js.PADDING_OFFSET_JS, [hit.x, hit.y])
                await hit.element.click(position=offset, force=True)
        else:
            locator = self._locator(target)
            # Chromium reports a download link's download only after the click
            # returns; note it so act waits for it instead of racing it.
            if await locator.evaluate_all(js.DOWNLOAD_LINK_JS):
                self._pending.expected += 1
            await locator.click()
        await self._settle()
        return f"clicked {target.describe()}; now at {self.page.url}", None

    async def _frame_at(self, x: float, y: float) -> _Hit:
        """Which frame (and element) a point lands in, descending through iframes."""
        frame: Frame = self.page.main_frame
        fx, fy = x, y
        depth = 0
        element = ""
        hit: ElementHandle | None = None
        while True:
            handle = await frame.evaluate_handle(js.POINT_JS, [fx, fy])
            hit = handle.as_element()
            if hit is None:
                break
            element = str((await hit.evaluate(js.DESCRIBE_JS)) or "")
            child = await hit.content_frame()
            if child is None:
                break
            box = await hit.evaluate(js.INNER_BOX_JS)
            fx, fy = fx - box["x"], fy - box["y"]
            frame = child
            depth += 1
        facts = {
            "in_frame": depth > 0,
            "frame_depth": depth,
            "frame_url": frame.url,
            "element": element,
        }
        return _Hit(facts, hit, fx, fy)

    async def _do_fill(self, action: a.Fill, facts: dict[str, Any]) -> tuple[str, Any]:
        target = action.target()
        assert target is not None
        await self._locator(target).fill(action.value)
        return f"filled {target.describe()}", None

    async def _do_select(self, action: a.Select, facts: dict[str, Any]) -> tuple[str, Any]:
        target = action.target()
        assert target is not None
        loc = self._locator(target)
        if action.value is not None:
            # Playwright's Python `value=` also matches labels; the toolset promises the
            # value attribute only, so find that option and select it by index.
            values: list[str] | None = await loc.evaluate(js.OPTION_VALUES_JS)
            if values is not None and action.value not in values:
                shown = ", ".join(repr(v) for v in values[:12])
                raise ValueError(
                    f"{target.describe()} has no option with value {action.value!r} "
                    f"(values: {shown}); to choose by visible text, give label instead"
                )
            if values is None:
                chosen = await loc.select_option(value=action.value)
            else:
                chosen = await loc.select_option(index=values.index(action.value))
        else:
            chosen = await loc.select_option(label=action.label)
        facts["values"] = chosen
        await self._settle()
        return f"selected {chosen} in {target.describe()}", None

    async def _do_check(self, action: a.Check, facts: dict[str, Any]) -> tuple[str, Any]:
        target = action.target()
        assert target is not None
        await self._locator(target).set_checked(action.checked)
        return f"{'checked' if action.checked else 'unchecked'} {target.describe()}", None

    async def _do_press(self, action: a.Press, facts: dict[str, Any]) -> tuple[str, Any]:
        target = action.target()
        if target is None:
            await self.page.keyboard.press(action.key)
        else:
            await self._locator(target).press(action.key)
        await self._settle()
        return f"pressed {action.key}", None

    async def _do_type(self, action: a.Type, facts: dict[str, Any]) -> tuple[str, Any]:
        target = action.target()
        if target is None:
            await self.page.keyboard.type(action.text)
        else:
            await self._locator(target).press_sequentially(action.text)
        return f"typed {len(action.text)} characters", None

    async def _do_scroll(self, action: a.Scroll, facts: dict[str, Any]) -> tuple[str, Any]:
        dx, dy = {
            "up": (0, -action.amount),
            "down": (0, action.amount),
            "left": (-action.amount, 0),
            "right": (action.amount, 0),
        }[action.direction]
        target = action.target()
        if target is not None:
            await self._locator(target).hover()
        else:
            w, h = self.options.viewport
            await self.page.mouse.move(w / 2, h / 2)
        await self.page.mouse.wheel(dx, dy)
        position = await self.page.evaluate(js.SCROLL_SETTLE_JS)
        facts["scroll"] = position
        return f"scrolled {action.direction} to {position}", None

    async def _do_hover(self, action: a.Hover, facts: dict[str, Any]) -> tuple[str, Any]:
        target = action.target()
        assert target is not None
        if target.is_point:
            assert target.x is not None and target.y is not None
            await self.page.mouse.move(target.x, target.y)
        else:
            await self._locator(target).hover()
        return f"hovering {target.describe()}", None

    async def _point(self, point: a.Point, within: a.Target | None) -> tuple[float, float]:
        target = point.target()
        if target.is_point:
            assert target.x is not None and target.y is not None
            if within is None:
                return target.x, target.y
            box = await self._locator(within).bounding_box()
            if box is None:
                raise ValueError(f"{within.describe()} is not visible")
            return box["x"] + target.x, box["y"] + target.y
        box = await self._locator(target).bounding_box()
        if box is None:
            raise ValueError(f"{target.describe()} is not visible")
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    async def _do_drag(self, action: a.Drag, facts: dict[str, Any]) -> tuple[str, Any]:
        sx, sy = await self._point(action.start, action.within)
        ex, ey = await self._point(action.end, action.within)
        mouse = self.page.mouse
        await mouse.move(sx, sy)
        await mouse.down()
        await mouse.move(ex, ey, steps=action.steps)
        await mouse.up()
        facts["from"] = [round(sx, 1), round(sy, 1)]
        facts["to"] = [round(ex, 1), round(ey, 1)]
        return f"dragged ({sx:.0f},{sy:.0f}) to ({ex:.0f},{ey:.0f})", None

    async def _do_upload(self, action: a.Upload, facts: dict[str, Any]) -> tuple[str, Any]:
        target = action.target()
        assert target is not None
        paths = [self._scratch_file(f) for f in action.files]
        await self._locator(target).set_input_files(paths)
        facts["files"] = [p.name for p in paths]
        return f"attached {', '.join(p.name for p in paths)}", None

    async def _do_tabs(self, action: a.Tabs, facts: dict[str, Any]) -> tuple[str, Any]:
        if action.action != "list":
            assert action.index is not None
            if action.index >= len(self.pages):
                raise ValueError(f"no tab {action.index}; {len(self.pages)} tab(s) are open")
        if action.action == "activate":
            assert action.index is not None
            self.active = action.index
            await self.page.bring_to_front()
            await self._settle()
        elif action.action == "close":
            assert action.index is not None
            await self.pages[action.index].close()
        tabs = [{"index": t.index, "url": t.url, "title": t.title} for t in await self._tabs()]
        facts["active"] = self.active
        return f"{len(tabs)} tab(s), active {self.active}", tabs

    async def _do_extract(self, action: a.Extract, facts: dict[str, Any]) -> tuple[str, Any]:
        target = action.target()
        if action.kind == "attribute":
            assert target is not None and action.attribute is not None
            values = await self._locator(target).evaluate_all(
                "(els, name) => els.map(e => e.getAttribute(name))", action.attribute
            )
            if not values:
                raise ValueError(f"{target.describe()} matches no element")
            data: Any = values[0] if len(values) == 1 else values
        else:
            root = self._locator(target) if target else self.page.locator("body")
            if action.kind == "text":
                data = await root.first.inner_text()
            elif action.kind == "table":
                table = root if target else self.page.locator("table")
                data = await table.first.evaluate(js.TABLE_JS)
            else:
                data = await root.first.evaluate(js.LINKS_JS)
        summary = json.dumps(data, ensure_ascii=False)
        return f"extracted {action.kind}: {summary[:200]}", data

    async def _do_wait(self, action: a.Wait, facts: dict[str, Any]) -> tuple[str, Any]:
        if action.text is not None:
            await self.page.get_by_text(action.text).first.wait_for(state="visible", timeout=10_000)
            return f"saw {action.text!r}", None
        assert action.ms is not None
        await asyncio.sleep(action.ms / 1000)
        return f"waited {action.ms} ms", None

    async def _do_restart(self, action: a.Restart, facts: dict[str, Any]) -> tuple[str, Any]:
        assert self.context is not None
        state = await self.context.storage_state()
        # A real restart keeps persistent cookies and drops session ones.
        state["cookies"] = [c for c in state["cookies"] if c.get("expires", -1) > 0]
        self._profile.parent.mkdir(parents=True, exist_ok=True)
        self._profile.write_text(json.dumps(state))
        kept = len(state["cookies"])
        await self.context.close()
        await self._new_context(storage_state=str(self._profile))
        facts["cookies_kept"] = kept
        return f"browser restarted with the attempt's profile ({kept} cookie(s) kept)", None

    async def _do_ask_user(self, action: a.AskUser, facts: dict[str, Any]) -> tuple[str, Any]:
        reply = await self._user().ask(action, step=self.recorder.next_index())
        return reply.text, reply.data

    async def _do_request_approval(
        self, action: a.RequestApproval, facts: dict[str, Any]
    ) -> tuple[str, Any]:
        reply = await self._user().request_approval(action, step=self.recorder.next_index())
        return reply.text, reply.data

    def _scratch_file(self, name: str) -> Path:
        """A file to upload: it must resolve (symlinks too) to a file inside the scratch folder."""
        scratch = self.options.scratch.resolve()
        given = Path(name)
        path = (given if given.is_absolute() else scratch / given).resolve()
        if not path.is_relative_to(scratch):
            raise _Refused(f"upload {name!r} refused: only files in the task's folder ({scratch})")
        if not path.is_file():
            raise ValueError(f"no such file: {name}")
        return path

    def _user(self) -> UserChannel:
        if self.user is None:
            raise ValueError("no user is reachable in this attempt; the task must be done alone")
        return self.user

    def _user_messages(self) -> list[str]:
        """Steering messages due now, each shown once and traced."""
        if self.user is None:
            return []
        done = len(self.recorder.steps)
        due = self.user.messages_due(done)
        for text in due:
            self.recorder.event("user_message", after_steps=done, text=text)
        return [f"message from the user: {text}" for text in due]

    async def _do_done(self, action: a.Done, facts: dict[str, Any]) -> tuple[str, Any]:
        self.answer = action.answer
        self.finished = True
        return "done", action.answer

    # ----- lease, markings and trace ---------------------------------------------

    def _refuse_input(self, action: a.Action, lease: Lease) -> Step:
        """A Step for an input refused because the owner took control back."""
        target = _describe(action)
        receipt = lease.refuse(action.op, target)
        error = f"refused: the control lease was revoked by {lease.revoked_by} ({lease.reason})"
        self._last_error = error
        step = Step(
            index=self.recorder.next_index(),
            op=action.op,
            target=target,
            input=action.model_dump(exclude_none=True),
            output="refused",
            facts={"receipt": receipt},
            status="refused",
            error=error,
            started_at=time.time(),
            latency_ms=0.0,
        )
        self.recorder.record(step)
        return step

    async def marking(self, action: a.Action) -> str | None:
        """The site's ``data-proctor-sensitive`` marking of the control an action targets.

        Enter in a form's text field submits the form through its default button,
        so a Press of Enter reads that button's marking too.
        """
        target = getattr(action, "target", None)
        resolved = target() if callable(target) else None
        enter = isinstance(action, a.Press) and action.key.lower() == "enter"
        script = js.ENTER_MARK_JS if enter else js.MARK_JS
        try:
            if not isinstance(resolved, a.Target):
                if not enter:
                    return None
                mark = await self.page.evaluate(f"({script})(document.activeElement)")
            elif resolved.is_point:
                handle = await self.page.evaluate_handle(js.POINT_JS, [resolved.x, resolved.y])
                element = handle.as_element()
                if element is None:
                    return None
                mark = await element.evaluate(script)
            else:
                locator = self._locator(resolved)
                if await locator.count() != 1:
                    return None
                mark = await locator.evaluate(script)
        except PlaywrightError:
            return None
        return str(mark) if mark else None

    def trace(self, kind: str, **data: Any) -> None:
        """Add a raw event to the attempt's trace."""
        self.recorder.event(kind, **data)


class _Hit(NamedTuple):
    """Where a point lands: trace facts, and the element hit with the point in its frame."""

    facts: dict[str, Any]
    element: ElementHandle | None
    x: float
    y: float


def _needs_lease(action: a.Action) -> bool:
    """Whether an action sends input or changes the page (refused once the lease is revoked)."""
    if isinstance(action, a.Tabs):
        return action.action != "list"
    return not isinstance(action, a.Extract | a.Wait | a.Done | a.AskUser | a.RequestApproval)


class _Refused(Exception):
    """The harness refused the action before anything left the browser."""


def _describe(action: a.Action) -> str | None:
    target = getattr(action, "target", None)
    if callable(target):
        t = target()
        if t is not None:
            return str(t.describe())
    if isinstance(action, a.Navigate):
        return action.url
    if isinstance(action, a.AskUser):
        return action.key or action.question[:60]
    if isinstance(action, a.RequestApproval):
        return action.action
    if isinstance(action, a.Drag):
        return "drag"
    if isinstance(action, a.Tabs):
        return f"{action.action} {action.index if action.index is not None else ''}".strip()
    return None
