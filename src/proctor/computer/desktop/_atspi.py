"""The one door to ``gi``'s Atspi: imported lazily, initialised once per process.

libatspi keeps its connection to the accessibility bus in process globals, and
``Atspi.init`` takes effect once: a process drives one desktop session. The bus
address is put in ``AT_SPI_BUS_ADDRESS`` before the first ``init``, which
libatspi reads before it asks the session bus or the X root window.
"""

from __future__ import annotations

import os
from typing import Any

from proctor.computer.desktop._errors import DesktopUnavailable

CALL_TIMEOUT_MS = 1500
"""The deadline of one D-Bus call to an app (libatspi's method timeout)."""

_bound: str | None = None


def gi_module() -> Any:
    """The ``gi.repository.Atspi`` module (Atspi 2.0); raises DesktopUnavailable without it."""
    try:
        import gi

        gi.require_version("Atspi", "2.0")
        from gi.repository import Atspi
    except (ImportError, ValueError) as exc:
        raise DesktopUnavailable(
            f"the desktop tier needs PyGObject and the Atspi typelib ({exc}); install "
            "'PyGObject<3.50' and the apt package gir1.2-atspi-2.0"
        ) from exc
    return Atspi


def bind(a11y_address: str) -> Any:
    """Point this process's Atspi at ``a11y_address`` and initialise it (once per process).

    Raises:
        DesktopUnavailable: gi or Atspi is missing, or this process is already bound
            to another session's bus.
    """
    global _bound
    atspi = gi_module()
    if _bound is not None:
        if _bound != a11y_address:
            raise DesktopUnavailable(
                f"this process already drives the desktop on {_bound}; libatspi binds one "
                "accessibility bus per process: start one DesktopSession per worker process"
            )
        return atspi
    os.environ["AT_SPI_BUS_ADDRESS"] = a11y_address
    _quiet_refused_direct()
    atspi.init()
    atspi.set_timeout(CALL_TIMEOUT_MS, CALL_TIMEOUT_MS * 2)
    _bound = a11y_address
    return atspi


def _quiet_refused_direct() -> None:
    """Drop libatspi's warning that an app's private socket can't be opened.

    A jailed app offers a private socket at a path that exists only in its own view
    (``_jail.RUNTIME``): libatspi's attempt to open it fails, as meant, and it speaks
    to the app through the accessibility bus. Any other warning still prints.
    """
    from gi.repository import GLib

    def handler(domain: str, level: Any, message: str, _data: Any = None) -> None:
        if message.startswith(DIRECT_REFUSED):
            return
        GLib.log_default_handler(domain, level, message, None)

    GLib.log_set_handler("dbind", GLib.LogLevelFlags.LEVEL_WARNING, handler, None)


DIRECT_REFUSED = "AT-SPI: Unable to open bus connection"
"""The start of libatspi's warning that an app's private socket could not be opened."""


def bound() -> str | None:
    """The accessibility bus this process is bound to, if any."""
    return _bound


def gio_modules() -> tuple[Any, Any]:
    """``gi.repository.Gio`` and ``GLib``, for the one D-Bus call the session makes itself."""
    gi_module()
    import gi

    gi.require_version("Gio", "2.0")
    from gi.repository import Gio, GLib

    return Gio, GLib


def glib_error() -> type[Exception]:
    """``GLib.Error``, the type every failed Atspi call raises."""
    from gi.repository import GLib

    return GLib.Error  # type: ignore[no-any-return]
