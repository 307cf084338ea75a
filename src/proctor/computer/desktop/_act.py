"""The low-level desktop verbs: press, set_value, read on a node; type, key, activate.

``press``, ``set_value`` and ``read`` go through AT-SPI (the node's action, its
EditableText or Value, its Text). Keyboard input goes through XTest with
``xdotool`` into the X input focus; ``activate`` raises a window and gives it the
X input focus (there is no window manager), checked against the toolkit's
active state. ``keysyms`` puts a key combination in xdotool's words.
"""

from __future__ import annotations

import re
import subprocess
import time
from typing import Any

from proctor.computer.desktop import _atspi, _keymap, _tree
from proctor.computer.desktop._app import Window
from proctor.computer.desktop._errors import ActionFailed, DesktopFault
from proctor.computer.desktop._session import DesktopSession
from proctor.computer.desktop._tree import Node

PRESS_ACTIONS = ("click", "press", "activate", "toggle", "jump", "open")
"""Action names ``press`` uses, in order of preference."""
XDOTOOL_TIMEOUT = 10.0
"""Seconds one xdotool call may take."""
ACTIVATE_TIMEOUT = 2.0
"""Seconds a window gets to become active after ``activate``."""
_COMBO = re.compile(r"^[A-Za-z0-9_+\-]+$")


def press(node: Node) -> str:
    """Do the node's press action (click, press, activate...); the action's name.

    Raises:
        ActionFailed: the node has no such action, or the app refused it.
    """
    atspi = _atspi.gi_module()
    for wanted in PRESS_ACTIONS:
        if wanted in node.actions:
            index = node.actions.index(wanted)
            try:
                done = atspi.Action.do_action(node.acc, index)
            except _atspi.glib_error() as exc:
                raise ActionFailed(f"pressing {node.describe()} failed: {exc}") from exc
            if not done:
                raise ActionFailed(f"{node.describe()} refused its {wanted!r} action")
            return str(wanted)
    offered = ", ".join(node.actions) or "none"
    raise ActionFailed(
        f"{node.describe()} cannot be pressed: its actions are {offered}; "
        "press a button, menu item or other control"
    )


def set_value(node: Node, value: str | float) -> None:
    """Set the node's text (EditableText) or its number (Value).

    Raises:
        ActionFailed: the node has neither interface, the value does not fit it, or the
            app refused it.
    """
    atspi = _atspi.gi_module()
    ifaces = _tree._safe(node.acc.get_interfaces, []) or []
    try:
        if "EditableText" in ifaces:
            if not atspi.EditableText.set_text_contents(node.acc, str(value)):
                raise ActionFailed(f"{node.describe()} refused the text (it may be read-only)")
            return
        if "Value" in ifaces:
            try:
                number = float(value)
            except ValueError as exc:
                raise ActionFailed(f"{node.describe()} takes a number, not {value!r}") from exc
            if not atspi.Value.set_current_value(node.acc, number):
                raise ActionFailed(f"{node.describe()} refused the value {number:g}")
            return
    except _atspi.glib_error() as exc:
        raise ActionFailed(f"setting the value of {node.describe()} failed: {exc}") from exc
    raise ActionFailed(
        f"{node.describe()} has no value to set (neither editable text nor a value); "
        "use type on the focused widget, or pick a text or slider node"
    )


def read(node: Node) -> str:
    """The node's text: its Text contents, else its Value, else its name.

    Raises:
        ActionFailed: the node is gone (the app closed it or exited).
    """
    atspi = _atspi.gi_module()
    try:
        ifaces = node.acc.get_interfaces()
        if "Text" in ifaces:
            return str(atspi.Text.get_text(node.acc, 0, -1))
        if "Value" in ifaces:
            return f"{atspi.Value.get_current_value(node.acc):g}"
        return str(node.acc.get_name() or "")
    except _atspi.glib_error() as exc:
        raise ActionFailed(f"reading {node.describe()} failed: {exc}") from exc


def type_text(session: DesktopSession, text: str) -> None:
    """Type ``text`` into the focused widget (XTest, through xdotool).

    Raises:
        ActionFailed: xdotool failed.
    """
    if text:
        _keymap.ensure_keys(session.display, text)
        _xdotool(session, ["type", "--delay", "1", "--", text], f"typing {text[:40]!r}")


def key(session: DesktopSession, combo: str) -> None:
    """Press a key combination into the focused widget: ``Return``, ``ctrl+s``, ``ctrl+shift+z``.

    Key names are X keysyms (``Return``, ``Tab``, ``Escape``, ``BackSpace``, ``a``...),
    modifiers ``ctrl``, ``shift``, ``alt``, ``super``, joined by ``+``.

    Raises:
        ActionFailed: the combination is malformed, or xdotool failed.
    """
    if not _COMBO.match(combo) or combo.startswith("+") or combo.endswith("+") or "++" in combo:
        raise ActionFailed(
            f"{combo!r} is not a key combination; write keysyms joined by '+', e.g. ctrl+s, Return"
        )
    _xdotool(session, ["key", "--clearmodifiers", "--", combo], f"the key {combo!r}")


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
        return combo  # malformed: ``key`` names the problem
    return "+".join(_KEY_NAMES.get(p.lower(), p.lower() if len(p) == 1 else p) for p in parts)


def activate(session: DesktopSession, window: Window) -> None:
    """Bring ``window`` to the front and give it the keyboard focus.

    There is no window manager: the X window of the app's pid with the window's
    title is raised and given the input focus (``xdotool windowraise windowfocus``),
    as a window manager would; the toolkit then puts the keyboard back on the
    widget that had it. A window xdotool cannot find gets AT-SPI's ``grab_focus``
    on its first focusable widget instead.

    Raises:
        ActionFailed: the window is gone, or did not become active in time.
    """
    xid = _x_window(session, window)
    if xid is not None:
        _xdotool(
            session,
            ["windowraise", xid, "windowfocus", "--sync", xid],
            f"activating the window {window.title!r}",
        )
    else:
        target = _focus_target(window.acc)
        try:
            if target is None or not _grab(target):
                raise ActionFailed(
                    f"the window {window.title!r} has nothing that takes the focus, or refused it"
                )
        except _atspi.glib_error() as exc:
            raise ActionFailed(f"activating the window {window.title!r} failed: {exc}") from exc
    deadline = time.monotonic() + ACTIVATE_TIMEOUT
    while time.monotonic() < deadline:
        _role, _name, states, _ifaces = _tree.info(window.acc)
        if "active" in states:
            return
        time.sleep(0.02)
    raise ActionFailed(
        f"the window {window.title!r} did not become active within {ACTIVATE_TIMEOUT:g} s"
    )


def _x_window(session: DesktopSession, window: Window) -> str | None:
    """The X window id of ``window``: a mapped window of its pid with its title."""
    found = _xdotool(
        session,
        ["search", "--onlyvisible", "--pid", str(window.pid)],
        "finding the X window",
        allow_fail=True,
    )
    ids = found.split()
    for xid in ids:
        name = _xdotool(session, ["getwindowname", xid], "reading a window's name", allow_fail=True)
        if name.strip() == window.title.strip():
            return xid
    return ids[0] if len(ids) == 1 else None


def _grab(acc: Any) -> bool:
    atspi = _atspi.gi_module()
    return bool(atspi.Component.grab_focus(acc))


def _focus_target(window: Any) -> Any:
    """The focused node of the window, else its first focusable showing node (breadth first)."""
    todo = [window]
    first = None
    seen = 0
    while todo and seen < 400:
        acc = todo.pop(0)
        seen += 1
        _role, _name, states, ifaces = _tree.info(acc)
        if acc is not window and "showing" not in states:
            continue
        if "Component" in ifaces and "focusable" in states and "sensitive" in states:
            if "focused" in states:
                return acc
            if first is None:
                first = acc
        for i in range(_tree._safe(acc.get_child_count, 0)):
            child = _tree._safe(lambda a=acc, i=i: a.get_child_at_index(i), None)
            if child is not None:
                todo.append(child)
    return first


def _xdotool(
    session: DesktopSession, args: list[str], what: str, *, allow_fail: bool = False
) -> str:
    try:
        done = subprocess.run(
            ["xdotool", *args],
            env=session.env(),
            capture_output=True,
            timeout=XDOTOOL_TIMEOUT,
            check=False,
        )
    except FileNotFoundError as exc:
        raise DesktopFault("xdotool is not installed (apt-get install xdotool)") from exc
    except subprocess.TimeoutExpired as exc:
        raise ActionFailed(f"{what} did not finish within {XDOTOOL_TIMEOUT:g} s") from exc
    if done.returncode != 0 and not allow_fail:
        err = done.stderr.decode(errors="replace").strip()[-300:]
        raise ActionFailed(f"{what} failed (xdotool exited {done.returncode}): {err}")
    return done.stdout.decode(errors="replace") if done.returncode == 0 else ""
