"""One attempt's apps on the worker's desktop: what each is, which the agent observes.

``AttemptApps`` is the state the jobs of the desktop computer share: observing
(``_observing``), acting (``_acting``) and the end state (``_end_state``) take it,
and ``DesktopComputer`` (``_computer``) is it with the agent's contract on top, so
every dependency points down to this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from proctor.computer import actions as a
from proctor.computer._lease import Lease
from proctor.computer._recorder import Recorder
from proctor.computer._told import user_notes
from proctor.computer.attempt import AttemptInfo
from proctor.computer.desktop._app import App, Window
from proctor.computer.desktop._host import DesktopHost
from proctor.computer.desktop._tree import Outline
from proctor.computer.user import UserChannel
from proctor.errors import DesktopFault


@dataclass(frozen=True)
class AppSpec:
    """One app of an attempt's desktop.

    Attributes:
        name: How scenarios, actions and checks name it (``calc``, ``editor``).
        argv: The command, placeholders resolved.
        env: Extra environment for it.
        setup: Actions run on it before the agent starts, unrecorded (a prior state).
    """

    name: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    setup: tuple[a.Action, ...] = ()


@dataclass(frozen=True)
class FocusSteal:
    """Another app takes the keyboard after the agent's ``after``-th action (a person's click)."""

    app: str
    after: int


@dataclass
class Running:
    """An app of the attempt: its spec and its process."""

    spec: AppSpec
    app: App


class AttemptApps:
    """The apps of one attempt and what the agent did to them; made by ``DesktopComputer``."""

    def __init__(
        self,
        host: DesktopHost,
        info: AttemptInfo,
        recorder: Recorder,
        *,
        lease: Lease | None = None,
        user: UserChannel | None = None,
        steal: FocusSteal | None = None,
    ) -> None:
        self.host = host
        self.info = info
        self.recorder = recorder
        self.lease = lease
        self.user = user
        self.steal = steal
        self.apps: list[Running] = []
        self.current = 0
        """Index in ``apps`` of the app the agent drives (observes)."""
        self.finished = False
        self.answer: str | None = None
        self.last_error: str | None = None
        self.outline: Outline | None = None
        """The observed window's outline as last read: what a ref (``dN``) names."""
        self.pressed: dict[tuple[str, str, str], float] = {}
        """When each control (app, role, name) was last pressed (``_acting.pace``)."""
        self.facts: dict[str, Any] = {}
        """The current step's trace facts."""

    def ensure_alive(self) -> None:
        """Raise ``DesktopFault`` unless every app of the attempt still runs.

        Raises:
            DesktopFault: an app exited or was killed during the attempt.
        """
        for running in self.apps:
            if not running.app.alive():
                raise DesktopFault(
                    f"the app {running.spec.name} ({running.app.name}) exited during the attempt"
                )

    def app_named(self, name: str) -> Running:
        """The attempt's app of that name; a ValueError (a failed step) when there is none."""
        for running in self.apps:
            if running.spec.name == name:
                return running
        names = ", ".join(r.spec.name for r in self.apps)
        raise ValueError(f"no app is named {name!r} in this attempt; the apps: {names}")

    async def window(self, running: Running) -> Window:
        """The app's active window (read on the AT-SPI thread)."""
        return await self.host.call(running.app.active_window)

    def user_channel(self) -> UserChannel:
        """The attempt's user; a ValueError (a failed step) when there is none."""
        if self.user is None:
            raise ValueError("no user is reachable in this attempt; the task must be done alone")
        return self.user

    def user_messages(self) -> list[str]:
        """Messages from the user due now, each shown once and traced."""
        return user_notes(self.user, self.recorder)
