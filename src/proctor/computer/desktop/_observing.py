"""Observing the desktop, on the AT-SPI thread: what the agent is shown, and the control
a target names.

A starved app answers AT-SPI late or not at all, and its tree then lacks controls
it has (``_stall``): a read that saw the machine stall is read again, and a
control still missing after such a read is the machine's fault, not the agent's.
"""

from __future__ import annotations

import time

from proctor.computer import actions as a
from proctor.computer.desktop import _stall
from proctor.computer.desktop._app import Window
from proctor.computer.desktop._attempt_apps import AttemptApps, Running
from proctor.computer.desktop._errors import AppLaunchFailed
from proctor.computer.desktop._tree import Node, Outline
from proctor.computer.observation import Observation, TabInfo
from proctor.errors import DesktopFault

END_READS = 3
"""Reads of the end state, or of the window an agent observes, at most, while each one
sees the machine stall."""


def observe(c: AttemptApps) -> Observation:
    """What the agent is shown, read again while a read sees the machine stall
    (``_stall``): a starved app's outline lacks controls it has, and an agent that
    acts on it is misled by the machine.

    Raises:
        DesktopFault: every read of ``END_READS`` stalled (infra: the try is retried).
    """
    running = c.apps[c.current]
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
    c.outline = outline
    windows = all_windows(c)
    tabs = tuple(TabInfo(index=i, url=name, title=w.title) for i, (name, w) in enumerate(windows))
    active = next(
        (
            i
            for i, (name, w) in enumerate(windows)
            if name == running.spec.name and w.acc == window.acc
        ),
        0,
    )
    front = frontmost(windows)
    shown_front = None
    if front is not None and front != active:
        shown_front = f"{windows[front][0]}: {windows[front][1].title}"
    return Observation(
        url=f"app:{running.spec.name}",
        title=window.title,
        tabs=tabs,
        active=active,
        snapshot=outline.text,
        focused=outline.focused,
        error=c.last_error,
        surface="desktop",
        frontmost=shown_front,
    )


def all_windows(c: AttemptApps) -> list[tuple[str, Window]]:
    """Every window of the attempt's apps, with its app's name, in launch order."""
    return [(r.spec.name, w) for r in c.apps for w in r.app.windows()]


def frontmost(windows: list[tuple[str, Window]]) -> int | None:
    """The index of the window that has the keyboard, if one has."""
    for i, (_name, window) in enumerate(windows):
        if window.active:
            return i
    return None


def node(c: AttemptApps, target: a.Target) -> Node:
    """The node a target names, in the observed window (on the AT-SPI thread)."""
    if target.selector is not None:
        raise ValueError(
            "a desktop has no CSS selectors: address a control by ref, or role and name"
        )
    if target.is_point:
        raise ValueError("address a desktop control by ref, or role and name, not x and y")
    running = c.apps[c.current]
    if target.ref is not None:
        outline = c.outline if c.outline is not None else running.app.observe()
        return outline.by_ref(target.ref)
    if target.role is None:
        raise ValueError("name a control by ref, or role and name")
    return find(c, running, target.role, target.name or "")


def find(c: AttemptApps, running: Running, role: str, name: str) -> Node:
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
                c.outline = outline
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


def read_outline(running: Running) -> tuple[Outline, _stall.Watch]:
    """The observed window's outline, and what its read saw (on the AT-SPI thread)."""
    with _stall.watching() as watch:
        return running.app.observe(), watch
