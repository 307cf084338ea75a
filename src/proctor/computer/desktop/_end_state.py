"""The desktop's end state, for grading: each app's windows and controls with their whole
values, and which app has the keyboard. Read on the AT-SPI thread, uncounted.
"""

from __future__ import annotations

import time
from typing import Any

from proctor.computer.desktop import _act, _stall, _tree
from proctor.computer.desktop._app import Window
from proctor.computer.desktop._attempt_apps import AttemptApps
from proctor.computer.desktop._observing import END_READS
from proctor.computer.desktop._tree import Node, Outline
from proctor.errors import DesktopError, DesktopFault

END_NODES = 400
"""Controls of each window kept in the end state."""


def end_state(c: AttemptApps) -> dict[str, Any]:
    """The end state, read again while a read sees the machine stall (``_stall``).

    Raises:
        DesktopFault: every read of ``END_READS`` stalled: what they saw may lack
            controls and values the apps have, and grading it would score the machine.
    """
    for read in range(END_READS):
        if read:
            time.sleep(_stall.REREAD_S)
        with _stall.watching() as watch:
            state = read_end_state(c)
        if not watch.stalled:
            return state
    raise DesktopFault(
        f"machine stalled while the end state was read, {END_READS} times: {watch.describe()}"
    )


def read_end_state(c: AttemptApps) -> dict[str, Any]:
    """One read of every app's windows and controls (``END_NODES`` per window at most)."""
    apps = []
    frontmost: str | None = None
    for running in c.apps:
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
