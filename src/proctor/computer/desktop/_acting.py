"""Acting on the desktop: one case per op, and what a desktop Step's target says.

Each verb runs on the host's AT-SPI thread (``DesktopHost.call``); a browser verb
is refused with the desktop's own. ``DesktopComputer.act`` records the Step.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from proctor.computer import actions as a
from proctor.computer.desktop import _act, _observing, _stall
from proctor.computer.desktop._attempt_apps import AttemptApps
from proctor.computer.desktop._tree import Node
from proctor.errors import DesktopFault

WAIT_TEXT_TIMEOUT = 10.0
"""Seconds ``wait text=`` looks for the text in the observed window."""
REPRESS_GAP = 0.15
"""Seconds between two presses of one control: GTK buttons drop a second click that comes
sooner (the action still reports success), so a quicker repeat waits out the rest."""


async def dispatch(c: AttemptApps, action: a.Action) -> str | tuple[str, Any]:
    """Run ``action``; what the Step's output says (and its data)."""
    session = c.host.session
    call = c.host.call
    match action:
        case a.Press():
            target = action.target()
            if action.key is not None:
                if target is not None:
                    await call(focus, c, target)
                await call(_act.key, session, _act.keysyms(action.key))
                return f"pressed {action.key}"
            assert target is not None  # the model's validator: a key or a control
            node = await call(_observing.node, c, target)
            await pace(c, node)
            done = await call(_act.press, node)
            c.pressed[identity(c, node)] = time.monotonic()
            return f"{done} on {node.describe()}"
        case a.Key():
            await call(_act.key, session, _act.keysyms(action.key))
            return f"pressed {action.key}"
        case a.Type():
            target = action.target()
            if target is not None:
                await call(focus, c, target)
            await call(_act.type_text, session, action.text)
            return f"typed {len(action.text)} characters"
        case a.SetValue():
            node = await call(_observing.node, c, action.target())
            await call(_act.set_value, node, action.value)
            return f"set the value of {node.describe()}"
        case a.Read():
            node = await call(_observing.node, c, action.target())
            text = await call(_act.read, node)
            return f"read {len(text)} characters of {node.describe()}", text
        case a.Activate():
            return await activate(c, action)
        case a.Wait():
            return await wait(c, action)
        case a.AskUser():
            reply = await c.user_channel().ask(action, step=c.recorder.next_index())
            return reply.text, reply.data
        case a.RequestApproval():
            reply = await c.user_channel().request_approval(action, step=c.recorder.next_index())
            return reply.text, reply.data
        case a.Schedule():
            reply = c.user_channel().schedule(action, step=c.recorder.next_index())
            return reply.text, reply.data
        case a.Done():
            c.answer = action.answer
            c.finished = True
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


def identity(c: AttemptApps, node: Node) -> tuple[str, str, str]:
    """A control as ``pace`` remembers it: its app, role and name."""
    return (c.apps[c.current].spec.name, node.role, node.name)


async def pace(c: AttemptApps, node: Node) -> None:
    """Wait out ``REPRESS_GAP`` since the last press of the same control, if need be."""
    last = c.pressed.get(identity(c, node))
    if last is None:
        return
    wait = REPRESS_GAP - (time.monotonic() - last)
    if wait > 0:
        c.facts["paced_ms"] = round(wait * 1000, 1)
        await asyncio.sleep(wait)


def focus(c: AttemptApps, target: a.Target) -> None:
    """Give the control a target names the keyboard focus (on the AT-SPI thread)."""
    node = _observing.node(c, target)
    if not _act._grab(node.acc):
        raise ValueError(f"{node.describe()} does not take the keyboard focus")


async def activate(c: AttemptApps, action: a.Activate) -> str:
    """Give an app's window (by app name, or by window index) the keyboard; observe it."""
    windows = await c.host.call(_observing.all_windows, c)
    if action.app is not None:
        running = c.app_named(action.app)
        window = await c.window(running)
    else:
        index = action.window if action.window is not None else 0
        if index >= len(windows):
            raise ValueError(f"no window {index}: the windows are 0 to {len(windows) - 1}")
        name, window = windows[index]
        running = c.app_named(name)
    await c.host.call(_act.activate, c.host.session, window)
    c.current = c.apps.index(running)
    c.outline = None
    return f"activated {running.spec.name}: {window.title}"


async def wait(c: AttemptApps, action: a.Wait) -> str:
    """The agent's own pause, or a bounded wait for text in the observed window."""
    if action.ms is not None:
        await asyncio.sleep(action.ms / 1000)  # the agent's own pause, bounded by the model
        return f"waited {action.ms} ms"
    text = action.text or ""
    deadline = time.monotonic() + WAIT_TEXT_TIMEOUT
    running = c.apps[c.current]
    stalls = _stall.Watch()
    while True:
        outline, watch = await c.host.call(_observing.read_outline, running)
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


def describe(action: a.Action) -> str | None:
    """The Step's target: what the action addresses, in a few words."""
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
