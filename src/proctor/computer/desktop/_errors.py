"""The desktop tier's errors, as this package uses them: they live in ``proctor.errors``."""

from __future__ import annotations

from proctor.errors import (
    ActionFailed,
    AppLaunchFailed,
    DesktopError,
    DesktopFault,
    DesktopUnavailable,
    NodeNotFound,
    SessionStartFailed,
    WindowUnavailable,
)

__all__ = [
    "ActionFailed",
    "AppLaunchFailed",
    "DesktopError",
    "DesktopFault",
    "DesktopUnavailable",
    "NodeNotFound",
    "SessionStartFailed",
    "WindowUnavailable",
]
