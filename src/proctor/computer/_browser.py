"""The Playwright browser computer: the agent's contract over one attempt's context.

``BrowserComputer`` is the attempt's context (``_context.AttemptContext``: tabs,
routes, downloads, liveness) with the agent's contract on top. The jobs it
delegates each have a module: ``_observe`` (snapshot, tabs, text, screenshots),
``_act`` (the recorded Step, the lease, waits for popups and downloads),
``_handlers`` (one function per op) and ``_routing`` (options and URL rules).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError

from proctor.computer import _act, _observe
from proctor.computer import actions as a
from proctor.computer._chromium import BrowserHost
from proctor.computer._context import NAV_TIMEOUT_MS, AttemptContext
from proctor.computer._errors import first_line
from proctor.computer._recorder import Recorder
from proctor.computer._routing import BlockedHook, BrowserOptions
from proctor.computer._told import told
from proctor.computer.attempt import AttemptInfo, CallCounter
from proctor.computer.observation import Capture, Observation, TabInfo
from proctor.computer.user import UserChannel
from proctor.errors import SetupFault
from proctor.records import Step
from proctor.vocab import Surface


class BrowserComputer(AttemptContext):
    """The browser an agent drives during one attempt.

    Every ``act`` call becomes a recorded Step. Observations are built on
    request. Use ``BrowserComputer.open`` and always ``close``.
    """

    # ----- the agent's contract (``proctor.agents.Computer``) ------------------

    @property
    def surface(self) -> Surface:
        """A browser: the browser's tools are offered."""
        return "browser"

    @property
    def attempt(self) -> AttemptInfo:
        """The attempt this computer serves: its id, scratch folder and private folders."""
        opts = self.options
        return AttemptInfo(
            attempt=opts.attempt, scratch=opts.scratch, private=opts.private, spend=opts.spend
        )

    @property
    def has_user(self) -> bool:
        """Whether a user answers ask_user and request_approval in this attempt."""
        return self.user is not None

    @property
    def has_timeline(self) -> bool:
        """Whether the scenario has a timeline (``schedule`` is offered)."""
        return self.user is not None and self.user.has_timeline

    @property
    def calls(self) -> CallCounter:
        """The attempt's call counter (its recorder)."""
        return self.recorder

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
        await computer.new_context(storage_state=None)
        if start:
            page = computer.page
            try:
                await page.goto(start, wait_until="load", timeout=NAV_TIMEOUT_MS)
            except PlaywrightError as exc:
                await computer.close()
                raise SetupFault(
                    f"attempt {options.attempt}: the start page {start} did not load: "
                    f"{first_line(exc)}"
                ) from exc
        return computer

    # ----- observing --------------------------------------------------------

    async def observe(self, *, auto: bool = False) -> Observation:
        """The active tab as the agent sees it: url, tabs, aria snapshot with refs.

        ``auto`` marks the loop's own observation for the agent: it counts as an
        observation, not as one of the agent's tool calls.
        """
        if auto:
            self.recorder.count_observation()
        else:
            self.recorder.count_call()
        self.check_alive()
        return await _observe.observe(self)

    async def tabs(self) -> list[TabInfo]:
        """Every open tab, in opening order (uncounted: for the end state)."""
        return await _observe.tabs(self.pages)

    async def page_text(self) -> str:
        """Visible text of the observed page (for the end state); empty with no tab open."""
        return await _observe.page_text(self)

    async def screenshot(self, path: Path) -> bool:
        """Save a PNG of the observed page; False when the page cannot be captured."""
        return await _observe.screenshot(self, path)

    async def screenshot_bytes(self) -> bytes | None:
        """A PNG of the observed page; None when the page cannot be captured."""
        return await _observe.screenshot_bytes(self)

    async def capture(self) -> Capture | None:
        """The observed page's viewport as a PNG, with its size, uncounted and untraced.

        What a pixel agent's harness sends with every action's result (the native
        computer-use tools); the agent's own screenshot is ``look``.
        """
        return await _observe.capture(self)

    async def look(self) -> Capture | None:
        """The agent's own screenshot: the observed page's viewport as a PNG, with its size.

        Counted as one of the agent's tool calls (not an action, not an input), and
        refused past the tool-call limit, exactly as ``observe``; traced as a
        ``screenshot`` event (sizes and the PNG's SHA-256). None when the page cannot
        be captured (the call still counts: the agent spent it).

        Raises:
            LimitReached: when the attempt's tool-call limit is used up.
            BrowserFault: when the browser itself failed.
        """
        self.recorder.count_call()
        self.check_alive()
        shot = await _observe.capture(self)
        self.recorder.captured(shot)
        return shot

    # ----- acting -----------------------------------------------------------

    async def act(self, action: a.Action) -> Step:
        """Run one action and record it as a Step; a failed action is a Step with an error.

        Raises:
            LimitReached: when the attempt's tool-call or step limit is used up.
            BrowserFault: when the browser itself failed.
        """
        self.recorder.count_call(action.op)
        self.check_alive()
        step = await _act.act(self, action)
        told(self, self.user, action, step)
        return step

    async def marking(self, action: a.Action) -> str | None:
        """The site's ``data-proctor-sensitive`` marking of the control an action targets."""
        return await _act.marking(self, action)

    def trace(self, kind: str, **data: Any) -> None:
        """Add a raw event to the attempt's trace."""
        self.recorder.event(kind, **data)
