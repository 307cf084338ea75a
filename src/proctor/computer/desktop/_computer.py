"""The desktop an agent drives during one attempt, behind the same ``Computer`` contract.

``DesktopComputer.open`` launches the attempt's apps (each in fresh HOME and XDG
folders), gives the start app's window the keyboard and runs the scenario's
set-up steps unrecorded. Every ``act`` is counted and becomes a recorded Step
(``tool="desktop"``); ``observe`` fills the browser's ``Observation`` with the
observed window's outline. The observed app is the one the agent drives: the
start app, until it activates another. An app that exits during the attempt is
a ``DesktopFault`` (infra: retried, never scored).

``DesktopComputer`` is the attempt's apps (``_attempt_apps.AttemptApps``) with the
agent's contract on top; the jobs it delegates each have a module: ``_observing``
(the outline shown, the control a target names), ``_acting`` (one case per op)
and ``_end_state`` (what grading reads). Every AT-SPI call runs on the host's one
thread (``DesktopHost.call``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any

from proctor.computer import actions as a
from proctor.computer._lease import Lease, refused_step
from proctor.computer._recorder import Recorder
from proctor.computer._told import told, user_notes
from proctor.computer.attempt import AttemptInfo, CallCounter
from proctor.computer.desktop import _act, _acting, _end_state, _observing, _screen
from proctor.computer.desktop._app import App
from proctor.computer.desktop._attempt_apps import AppSpec, AttemptApps, FocusSteal, Running
from proctor.computer.desktop._host import DesktopHost
from proctor.computer.observation import Capture, Observation, png_size
from proctor.computer.user import UserChannel
from proctor.errors import ComputerError, DesktopError, InfraFault, SetupFault
from proctor.records import Step
from proctor.vocab import StepStatus, Surface


class DesktopComputer(AttemptApps):
    """The apps of one attempt on the worker's desktop; ``await open(...)``, always ``close``."""

    # ----- life cycle ------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        host: DesktopHost,
        info: AttemptInfo,
        recorder: Recorder,
        apps: Sequence[AppSpec],
        *,
        start: str | None = None,
        lease: Lease | None = None,
        user: UserChannel | None = None,
        steal: FocusSteal | None = None,
    ) -> DesktopComputer:
        """Launch ``apps`` in order, activate ``start`` (default: the first), run set-ups.

        Raises:
            DesktopFault: an app would not start or show a window (``WindowUnavailable``).
        """
        computer = cls(host, info, recorder, lease=lease, user=user, steal=steal)
        try:
            await computer._launch(apps, start)
        except BaseException:
            await computer.close()
            raise
        return computer

    async def _launch(self, apps: Sequence[AppSpec], start: str | None) -> None:
        session = self.host.session
        for spec in apps:
            app = App(
                session,
                spec.argv,
                self.info.scratch / ".apps" / spec.name,
                env=dict(spec.env),
                writable=self.info.scratch,
            )
            self.apps.append(Running(spec, app))
            timings = await self.host.call(app.launch)
            self.recorder.event(
                "app_launched",
                app=spec.name,
                argv=list(spec.argv),
                pid=app.pid,
                jailed=app.jailed,
                window_ready=round(timings.window_ready, 4),
                launches=timings.launches,
            )
        names = [r.spec.name for r in self.apps]
        self.current = names.index(start) if start is not None else 0
        for index, running in enumerate(self.apps):
            if running.spec.setup:
                self.current = index
                await self._activate_current()
                for number, action in enumerate(running.spec.setup, 1):
                    output = await self._set_up(running.spec.name, number, action)
                    self.recorder.event("setup", app=running.spec.name, op=action.op, output=output)
        self.current = names.index(start) if start is not None else 0
        await self._activate_current()

    async def _set_up(self, app: str, number: int, action: a.Action) -> str | tuple[str, Any]:
        """One set-up step; one that fails leaves the attempt short of its starting state.

        Raises:
            SetupFault: the step failed (no such control, a refused verb): the try is a
                ``setup`` infra fault, retried and never scored, and the run goes on.
        """
        try:
            return await _acting.dispatch(self, action)
        except InfraFault:
            raise  # the desktop or the app failed: the try's fault under its own kind
        except (ComputerError, ValueError) as exc:
            raise SetupFault(
                f"attempt {self.info.attempt}: set-up step {number} ({action.op}) of app "
                f"{app!r} failed, so the scenario's starting state was not reached: {exc}"
            ) from exc

    async def _activate_current(self) -> None:
        window = await self.window(self.apps[self.current])
        await self.host.call(_act.activate, self.host.session, window)

    async def close(self) -> None:
        """End every app of the attempt and reap it (idempotent)."""
        for running in self.apps[::-1]:
            await self.host.call(running.app.close)

    def kill_app(self, name: str) -> None:
        """SIGKILL an app at once, as a crash would (the fault injector; tests)."""
        for running in self.apps:
            if running.spec.name == name:
                running.app.kill()

    # ----- the agent's contract (``proctor.agents.Computer``) ----------------------

    @property
    def surface(self) -> Surface:
        """A desktop: the desktop's tools are offered."""
        return "desktop"

    @property
    def attempt(self) -> AttemptInfo:
        return self.info

    @property
    def has_user(self) -> bool:
        return self.user is not None

    @property
    def has_timeline(self) -> bool:
        """Whether the scenario has a timeline (``schedule`` is offered)."""
        return self.user is not None and self.user.has_timeline

    @property
    def calls(self) -> CallCounter:
        return self.recorder

    def trace(self, kind: str, **data: Any) -> None:
        self.recorder.event(kind, **data)

    async def marking(self, action: a.Action) -> str | None:
        """Desktop apps carry no site markings."""
        return None

    async def screenshot_bytes(self) -> bytes | None:
        """A PNG of the Xvfb screen; None when it cannot be read."""
        try:
            return await self.host.call(_screen.screenshot, self.host.session.display)
        except DesktopError:
            return None

    async def look(self) -> Capture | None:
        """The agent's own screenshot: the whole Xvfb screen as a PNG, with its size.

        Counted and traced as the browser's ``look`` is: one tool call, like ``observe``,
        and a ``screenshot`` event. None when the screen cannot be read.

        Raises:
            LimitReached: when the attempt's tool-call limit is used up.
            DesktopFault: when an app of the attempt exited.
        """
        self.recorder.count_call()
        self.ensure_alive()
        data = await self.screenshot_bytes()
        shot = None
        if data is not None:
            try:
                width, height = png_size(data)
            except ValueError:
                pass
            else:
                shot = Capture(data, width, height, width, height, surface="desktop")
        self.recorder.captured(shot)
        return shot

    async def observe(self, *, auto: bool = False) -> Observation:
        """The observed app's window: its outline with refs, the windows, the last error."""
        if auto:
            self.recorder.count_observation()
        else:
            self.recorder.count_call()
        self.ensure_alive()
        seen = await self.host.call(_observing.observe, self)
        notes = user_notes(self.user, self.recorder)
        return dataclasses.replace(seen, notes=(*seen.notes, *notes)) if notes else seen

    async def act(self, action: a.Action) -> Step:
        """Run one action and record it as a Step; a failed action is a Step with an error.

        Raises:
            LimitReached: when the attempt's tool-call or step limit is used up.
            DesktopFault: when an app of the attempt exited or the desktop failed.
        """
        self.recorder.count_call(action.op)
        self.ensure_alive()
        if self.lease is not None and self.lease.revoked and action.takes_lease():
            return self._refused(action, self.lease)
        started = time.time()
        t0 = time.perf_counter()
        status: StepStatus = "ok"
        error: str | None = None
        data: Any = None
        self.facts = {"ignored": list(action.ignored())} if action.ignored() else {}
        try:
            output, data = await _acting.dispatch(self, action), None
            if isinstance(output, tuple):
                output, data = output
        except (DesktopError, ValueError) as exc:
            status, error, output = "error", str(exc), "failed"
        self.ensure_alive()  # a step that killed the app is a fault, not the agent's error
        self.last_error = error
        step = Step(
            index=self.recorder.next_index(),
            tool="user" if action.user_op else "desktop",
            op=action.op,
            target=_acting.describe(action),
            input=action.model_dump(exclude_none=True, exclude_defaults=False),
            output=output,
            data=data,
            facts=self.facts,
            status=status,
            error=error,
            started_at=started,
            latency_ms=round((time.perf_counter() - t0) * 1000, 2),
        )
        self.recorder.record(step)
        await self._maybe_steal()
        told(self, self.user, action, step)
        return step

    def _refused(self, action: a.Action, lease: Lease) -> Step:
        step = refused_step(
            lease, action, _acting.describe(action), self.recorder.next_index(), tool="desktop"
        )
        self.last_error = step.error
        self.recorder.record(step)
        return step

    async def _maybe_steal(self) -> None:
        steal = self.steal
        if steal is None or self.recorder.actions != steal.after:
            return
        running = self.app_named(steal.app)
        window = await self.window(running)
        await self.host.call(_act.activate, self.host.session, window)
        self.recorder.event("focus_stolen", app=steal.app, window=window.title)

    # ----- the end state -----------------------------------------------------------

    async def end_state(self) -> dict[str, Any]:
        """What the apps show now, for grading: each app's windows and controls, and
        which app has the keyboard (uncounted)."""
        return await self.host.call(_end_state.end_state, self)
