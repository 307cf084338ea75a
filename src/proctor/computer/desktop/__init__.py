"""The desktop tier's foundation: real Linux apps under Xvfb, driven through AT-SPI.

``DesktopSession`` starts Xvfb, a private session bus and the AT-SPI bus once
per worker process (libatspi binds one accessibility bus per process) and
reaps them all on ``stop``. ``App`` launches one app for one attempt in fresh
HOME and XDG folders and waits for its window. ``outline`` (or ``App.observe``)
gives the window's accessibility tree as text with refs; the verbs ``press``,
``set_value``, ``read``, ``type_text``, ``key`` and ``activate`` drive it, and
``screenshot`` returns a PNG of the screen. ``DesktopHost`` is a worker's session and
the one thread its AT-SPI calls run on; ``DesktopComputer`` is one attempt's apps
behind the agent's ``Computer`` contract.

This package is the only one that imports ``gi``; it does so lazily, when a
session starts, so importing it needs no PyGObject.
"""

from proctor.computer.desktop._act import activate, key, keysyms, press, read, set_value, type_text
from proctor.computer.desktop._app import App, LaunchTimings, Window
from proctor.computer.desktop._attempt_apps import AppSpec, FocusSteal
from proctor.computer.desktop._computer import DesktopComputer
from proctor.computer.desktop._errors import (
    ActionFailed,
    AppLaunchFailed,
    DesktopError,
    DesktopFault,
    DesktopUnavailable,
    NodeNotFound,
    SessionStartFailed,
    WindowUnavailable,
)
from proctor.computer.desktop._host import DesktopHost
from proctor.computer.desktop._proc import MARK_ENV as DESKTOP_MARK_ENV
from proctor.computer.desktop._screen import screenshot
from proctor.computer.desktop._session import DesktopSession, StartTimings, missing_stack
from proctor.computer.desktop._tree import Node, Outline, outline

__all__ = [
    "DESKTOP_MARK_ENV",
    "ActionFailed",
    "App",
    "AppLaunchFailed",
    "AppSpec",
    "DesktopComputer",
    "DesktopError",
    "DesktopFault",
    "DesktopHost",
    "DesktopSession",
    "DesktopUnavailable",
    "FocusSteal",
    "LaunchTimings",
    "Node",
    "NodeNotFound",
    "Outline",
    "SessionStartFailed",
    "StartTimings",
    "Window",
    "WindowUnavailable",
    "activate",
    "key",
    "keysyms",
    "missing_stack",
    "outline",
    "press",
    "read",
    "screenshot",
    "set_value",
    "type_text",
]
