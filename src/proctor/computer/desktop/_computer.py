"""The desktop an agent drives during one attempt, behind the same ``Computer`` contract.

``DesktopComputer.open`` launches the attempt's apps (each in fresh HOME and XDG
folders), gives the start app's window the keyboard and runs the scenario's
set-up steps unrecorded. Every ``act`` is counted and becomes a recorded Step
(``tool="desktop"``); ``observe`` fills the browser's ``Observation`` with the
observed window's outline. The observed app is the one the agent drives: the
start app, until it activates another. An app that exits during the attempt is
a ``DesktopFault`` (infra: retried, never scored).

Every AT-SPI call runs on the host's one thread (``DesktopHost.call``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from proctor.computer import actions as a
from proctor.computer._lease import Lease, refused_step
from proctor.computer._recorder import Recorder
from proctor.computer._told import told, user_notes
from proctor.computer.attempt import AttemptInfo, CallCounter
from proctor.computer.desktop import _act, _screen, _stall, _tree
from proctor.computer.desktop._app import App, Window
from proctor.computer.desktop._errors import AppLaunchFailed
from proctor.computer.desktop._host import DesktopHost
from proctor.computer.desktop._tree import Node, Outline
from proctor.computer.observation import Capture, Observation, TabInfo, png_size
from proctor.computer.user import UserChannel
from proctor.errors import ComputerError, DesktopError, DesktopFault, InfraFault, SetupFault
from proctor.records import Step
from proctor.vocab import StepStatus, Surface

WAIT_TEXT_TIMEOUT = 10.0
"""Seconds ``wait text=`` looks for the text in the observed window."""
END_NODES = 400
"""Controls of each window kept in the end state."""
END_READS = 3
"""Reads of the end state, or of the window an agent observes, at most, while each one
sees the machine stall."""
REPRESS_GAP = 0.15
"""Seconds between two presses of one control: GTK buttons drop a second click that comes
sooner (the action still reports success), so a quicker repeat waits out the rest."""

_KEY_NAMES = {
    "enter": "Return",
    "return": "Return",
    "escape": "Escape",
    "esc": "Escape",
    "backspace": "BackSpace",
    "delete": "Delete",
    "tab": "Tab",
    "space": "space",
    "arrowleft": "Left",
    "arrowright": "Right",
    "arrowup": "Up",
    "arrowdown": "Down",
    "pageup": "Page_Up",
    "pagedown": "Page_Down",
    "home": "Home",
    "end": "End",
    "control": "ctrl",
    "ctrl": "ctrl",
    "shift": "shift",
    "alt": "alt",
    "meta": "super",
    "super": "super",
}


def keysyms(combo: str) -> str:
    """A key combination in xdotool's words: Playwright's names (Control+S, Enter) accepted."""
    parts = combo.split("+")
    if any(not p for p in parts):
        return combo  # malformed: ``_act.key`` names the problem
    return "+".join(_KEY_NAMES.get(p.lower(), p.lower() if len(p) == 1 else p) for p in parts)


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
class _Running:
    spec: AppSpec
    app: App


class DesktopComputer:
    """The apps of one attempt on the worker's desktop; ``await open(...)``, always ``close``."""

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
        self.apps: list[_Running] = []
        self.current = 0
        """Index in ``apps`` of the app the agent drives (observes)."""
        self.finished = False
        self.answer: str | None = None
        self.last_error: str | None = None
        self._outline: Outline | None = None
        self._pressed: dict[tuple[str, str, str], float] = {}
        self._facts: dict[str, Any] = {}

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
            self.apps.append(_Running(spec, app))
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
            return await self._dispatch(action)
        except InfraFault:
            raise  # the desktop or the app failed: the try's fault under its own kind
        except (ComputerError, ValueError) as exc:
            raise SetupFault(
                f"attempt {self.info.attempt}: set-up step {number} ({action.op}) of app "
                f"{app!r} failed, so the scenario's starting state was not reached: {exc}"
            ) from exc

    async def _activate_current(self) -> None:
        window = await self._window(self.apps[self.current])
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
        seen = await self.host.call(self._observe)
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
        self._facts = {"ignored": list(action.ignored())} if action.ignored() else {}
        try:
            output, data = await self._dispatch(action), None
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
            target=_describe(action),
            input=action.model_dump(exclude_none=True, exclude_defaults=False),
            output=output,
            data=data,
            facts=self._facts,
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
            lease, action, _describe(action), self.recorder.next_index(), tool="desktop"
        )
        self.last_error = step.error
        self.recorder.record(step)
        return step

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

    async def _maybe_steal(self) -> None:
        steal = self.steal
        if steal is None or self.recorder.actions != steal.after:
            return
        running = self._app(steal.app)
        window = await self._window(running)
        await self.host.call(_act.activate, self.host.session, window)
        self.recorder.event("focus_stolen", app=steal.app, window=window.title)

    # ----- observing (on the AT-SPI thread) -------------------------------------------

    def _observe(self) -> Observation:
        """What the agent is shown, read again while a read sees the machine stall
        (``_stall``): a starved app's outline lacks controls it has, and an agent that
        acts on it is misled by the machine.

        Raises:
            DesktopFault: every read of ``END_READS`` stalled (infra: the try is retried).
        """
        running = self.apps[self.current]
        for read in range(END_READS):
            if read:
                time.sleep(_stall.REREAD_S)
            with _stall.watching() as watch:
                try:
                    window = running.app.active_window()
                    outline = running.app.observe()
                except AppLaunchFailed:
                    if not watch.stalled:
                        raise  # a window the app closed, not one the machine hid
                    continue
            if not watch.stalled:
                break
        else:
            raise DesktopFault(
                f"machine stalled while {running.spec.name}'s window was read for the agent, "
                f"{END_READS} times: {watch.describe()}"
            )
        self._outline = outline
        windows = self._all_windows()
        tabs = tuple(
            TabInfo(index=i, url=name, title=w.title) for i, (name, w) in enumerate(windows)
        )
        active = next(
            (
                i
                for i, (name, w) in enumerate(windows)
                if name == running.spec.name and w.acc == window.acc
            ),
            0,
        )
        front = self._frontmost(windows)
        frontmost = None
        if front is not None and front != active:
            frontmost = f"{windows[front][0]}: {windows[front][1].title}"
        return Observation(
            url=f"app:{running.spec.name}",
            title=window.title,
            tabs=tabs,
            active=active,
            snapshot=outline.text,
            focused=outline.focused,
            error=self.last_error,
            surface="desktop",
            frontmost=frontmost,
        )

    def _all_windows(self) -> list[tuple[str, Window]]:
        return [(r.spec.name, w) for r in self.apps for w in r.app.windows()]

    @staticmethod
    def _frontmost(windows: list[tuple[str, Window]]) -> int | None:
        for i, (_name, window) in enumerate(windows):
            if window.active:
                return i
        return None

    async def _window(self, running: _Running) -> Window:
        return await self.host.call(running.app.active_window)

    def _app(self, name: str) -> _Running:
        for running in self.apps:
            if running.spec.name == name:
                return running
        names = ", ".join(r.spec.name for r in self.apps)
        raise ValueError(f"no app is named {name!r} in this attempt; the apps: {names}")

    def _node(self, target: a.Target) -> Node:
        """The node a target names, in the observed window (on the AT-SPI thread)."""
        if target.selector is not None:
            raise ValueError(
                "a desktop has no CSS selectors: address a control by ref, or role and name"
            )
        if target.is_point:
            raise ValueError("address a desktop control by ref, or role and name, not x and y")
        running = self.apps[self.current]
        if target.ref is not None:
            outline = self._outline if self._outline is not None else running.app.observe()
            return outline.by_ref(target.ref)
        if target.role is None:
            raise ValueError("name a control by ref, or role and name")
        return self._find(running, target.role, target.name or "")

    def _find(self, running: _Running, role: str, name: str) -> Node:
        """The control ``role`` ``name`` of the observed window, re-read until ``FIND_WAIT_S``.

        Raises:
            NodeNotFound: the app's tree, read while the machine ran, has no such control
                (or several): the agent's error.
            DesktopFault: the control is missing, and a read saw the machine stall (``_stall``).
        """
        outline: Outline | None = None
        gone: AppLaunchFailed | None = None
        with _stall.watching() as watch:
            deadline = time.monotonic() + _stall.FIND_WAIT_S
            while True:
                try:
                    outline = running.app.observe()
                except AppLaunchFailed as exc:  # no window: a starved app, or one that exited
                    if not running.app.alive():
                        raise
                    gone, outline = exc, None
                if outline is not None:
                    self._outline = outline
                    if outline.matching(role, name):
                        return outline.find(role, name)
                if time.monotonic() >= deadline:
                    break
                watch.pause(_stall.REREAD_S)
        if watch.stalled:
            raise DesktopFault(
                f"machine stalled while looking for {role} {name!r} in {running.spec.name}: "
                f"{watch.describe()}, so the tree it gave lacks controls it may have"
            )
        if outline is None:
            assert gone is not None
            raise gone
        return outline.find(role, name)

    # ----- acting -------------------------------------------------------------------

    async def _dispatch(self, action: a.Action) -> str | tuple[str, Any]:
        """Run ``action``; what the Step's output says (and its data)."""
        session = self.host.session
        call = self.host.call
        match action:
            case a.Press():
                target = action.target()
                if action.key is not None:
                    if target is not None:
                        await call(self._focus, target)
                    await call(_act.key, session, keysyms(action.key))
                    return f"pressed {action.key}"
                assert target is not None  # the model's validator: a key or a control
                node = await call(self._node, target)
                await self._pace(node)
                done = await call(_act.press, node)
                self._pressed[self._identity(node)] = time.monotonic()
                return f"{done} on {node.describe()}"
            case a.Key():
                await call(_act.key, session, keysyms(action.key))
                return f"pressed {action.key}"
            case a.Type():
                target = action.target()
                if target is not None:
                    await call(self._focus, target)
                await call(_act.type_text, session, action.text)
                return f"typed {len(action.text)} characters"
            case a.SetValue():
                node = await call(self._node, action.target())
                await call(_act.set_value, node, action.value)
                return f"set the value of {node.describe()}"
            case a.Read():
                node = await call(self._node, action.target())
                text = await call(_act.read, node)
                return f"read {len(text)} characters of {node.describe()}", text
            case a.Activate():
                return await self._activate(action)
            case a.Wait():
                return await self._wait(action)
            case a.AskUser():
                reply = await self._user().ask(action, step=self.recorder.next_index())
                return reply.text, reply.data
            case a.RequestApproval():
                reply = await self._user().request_approval(action, step=self.recorder.next_index())
                return reply.text, reply.data
            case a.Schedule():
                reply = self._user().schedule(action, step=self.recorder.next_index())
                return reply.text, reply.data
            case a.Done():
                self.answer = action.answer
                self.finished = True
                return "done", action.answer
            case (
                a.Navigate() | a.Back() | a.Click() | a.Fill() | a.Select() | a.Tick()
                | a.Scroll() | a.Hover() | a.Drag() | a.Upload() | a.Tabs() | a.Extract()
                | a.Restart()
            ):  # fmt: skip
                raise ValueError(
                    f"{action.op} is a browser verb; on a desktop use press (a control), "
                    "set_value, type, key, activate (a window) or read"
                )

    def _identity(self, node: Node) -> tuple[str, str, str]:
        return (self.apps[self.current].spec.name, node.role, node.name)

    async def _pace(self, node: Node) -> None:
        """Wait out ``REPRESS_GAP`` since the last press of the same control, if need be."""
        last = self._pressed.get(self._identity(node))
        if last is None:
            return
        wait = REPRESS_GAP - (time.monotonic() - last)
        if wait > 0:
            self._facts["paced_ms"] = round(wait * 1000, 1)
            await asyncio.sleep(wait)

    def _focus(self, target: a.Target) -> None:
        node = self._node(target)
        if not _act._grab(node.acc):
            raise ValueError(f"{node.describe()} does not take the keyboard focus")

    async def _activate(self, action: a.Activate) -> str:
        windows = await self.host.call(self._all_windows)
        if action.app is not None:
            running = self._app(action.app)
            window = await self._window(running)
        else:
            index = action.window if action.window is not None else 0
            if index >= len(windows):
                raise ValueError(f"no window {index}: the windows are 0 to {len(windows) - 1}")
            name, window = windows[index]
            running = self._app(name)
        await self.host.call(_act.activate, self.host.session, window)
        self.current = self.apps.index(running)
        self._outline = None
        return f"activated {running.spec.name}: {window.title}"

    async def _wait(self, action: a.Wait) -> str:
        if action.ms is not None:
            await asyncio.sleep(action.ms / 1000)  # the agent's own pause, bounded by the model
            return f"waited {action.ms} ms"
        text = action.text or ""
        deadline = time.monotonic() + WAIT_TEXT_TIMEOUT
        running = self.apps[self.current]
        stalls = _stall.Watch()
        while True:
            outline, watch = await self.host.call(self._read, running)
            stalls.worst, stalls.cut = max(stalls.worst, watch.worst), stalls.cut or watch.cut
            if text in outline.text:
                return f"saw {text!r}"
            if time.monotonic() >= deadline:
                if stalls.stalled:
                    raise DesktopFault(
                        f"machine stalled while waiting for {text!r} in {running.spec.name}: "
                        f"{stalls.describe()}"
                    )
                raise ValueError(f"{text!r} did not appear within {WAIT_TEXT_TIMEOUT:g} s")
            await asyncio.sleep(0.1)

    @staticmethod
    def _read(running: _Running) -> tuple[Outline, _stall.Watch]:
        """The observed window's outline, and what its read saw (on the AT-SPI thread)."""
        with _stall.watching() as watch:
            return running.app.observe(), watch

    def user_messages(self) -> list[str]:
        """Messages from the user due now, each shown once and traced."""
        return user_notes(self.user, self.recorder)

    def _user(self) -> UserChannel:
        if self.user is None:
            raise ValueError("no user is reachable in this attempt; the task must be done alone")
        return self.user

    # ----- the end state -----------------------------------------------------------

    async def end_state(self) -> dict[str, Any]:
        """What the apps show now, for grading: each app's windows and controls, and
        which app has the keyboard (uncounted)."""
        return await self.host.call(self._end_state)

    def _end_state(self) -> dict[str, Any]:
        """The end state, read again while a read sees the machine stall (``_stall``).

        Raises:
            DesktopFault: every read of ``END_READS`` stalled: what they saw may lack
                controls and values the apps have, and grading it would score the machine.
        """
        for read in range(END_READS):
            if read:
                time.sleep(_stall.REREAD_S)
            with _stall.watching() as watch:
                state = self._read_end_state()
            if not watch.stalled:
                return state
        raise DesktopFault(
            f"machine stalled while the end state was read, {END_READS} times: {watch.describe()}"
        )

    def _read_end_state(self) -> dict[str, Any]:
        apps = []
        frontmost: str | None = None
        for running in self.apps:
            alive = running.app.alive()
            windows = running.app.windows() if alive else []
            controls: list[dict[str, Any]] = []
            for window in windows:
                if window.active:
                    frontmost = running.spec.name
                outline = _tree_outline(window)
                for node in outline.nodes[:END_NODES]:
                    controls.append(
                        {
                            "window": window.title,
                            "role": node.role,
                            "name": node.name,
                            "value": _full_value(node),
                            "states": list(node.states),
                        }
                    )
            apps.append(
                {
                    "name": running.spec.name,
                    "command": list(running.spec.argv),
                    "alive": alive,
                    "windows": [w.title for w in windows],
                    "controls": controls,
                }
            )
        return {"apps": apps, "frontmost": frontmost}


def _tree_outline(window: Window) -> Outline:
    return _tree.outline(window.acc)


def _full_value(node: Node) -> str | None:
    """The node's whole text (the outline shortens it), for editable and value nodes."""
    if node.value is None:
        return None
    try:
        return _act.read(node)
    except DesktopError:
        return node.value


def _describe(action: a.Action) -> str | None:
    aimed = action.aimed_at()
    if aimed is not None:
        return aimed.describe()
    match action:
        case a.Activate():
            return action.app if action.app is not None else f"window {action.window}"
        case a.Key():
            return action.key
        case a.AskUser():
            return action.key or action.question[:60]
        case a.RequestApproval():
            return action.action
        case a.Schedule():
            return action.at
        case _:
            return None
