"""The session's two buses: their configurations, the AT-SPI launcher's command, its address.

Both buses' sockets are in the session's 0700 folder, and each bus admits the
apps' uid (``APP_UID``) besides its owner's, so a jailed app, given those socket
files alone, can reach them and nothing else.
"""

from __future__ import annotations

import pwd
import subprocess
import time
from pathlib import Path

from proctor._confine import APP_UID
from proctor.computer.desktop import _atspi, _jail

BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
A11Y_CONFS = (
    Path("/etc/at-spi2/accessibility.conf"),
    Path("/usr/share/defaults/at-spi2/accessibility.conf"),
)
"""Where the launcher looks for its bus's configuration, in its order."""
SESSION_CONF = "/usr/share/dbus-1/session.conf"


def _allow_apps() -> str:
    """The bus policy rule that admits the apps' uid: by name, since a bus admits a uid
    only through its passwd entry."""
    try:
        name = pwd.getpwuid(APP_UID).pw_name
    except KeyError:
        name = str(APP_UID)
    return f'<allow user="{name}"/>'


def bus_config(root: Path) -> Path:
    """The session bus's configuration, written in the session's folder ``root``: the
    standard one, also admitting ``APP_UID`` (by default a bus admits only its owner's
    uid). Its socket is in the session's 0700 folder: only a jailed app, which is given
    that one file, can reach it."""
    path = root / "session-bus.conf"
    path.write_text(
        f"<busconfig><include>{SESSION_CONF}</include>"
        f'<policy context="default">{_allow_apps()}</policy></busconfig>\n'
    )
    return path


def a11y_launcher(root: Path) -> list[str]:
    """The AT-SPI bus launcher's command line, with ``APP_UID`` admitted to its bus.

    The launcher starts its bus with a configuration at a fixed path that admits
    root alone. It runs in a mount namespace of its own, where a copy (in the
    session's folder ``root``) that also admits ``APP_UID`` is mounted over that
    path. Its socket is in the session's 0700 folder: only a jailed app, given that
    one file, can reach it.
    """
    argv = [BUS_LAUNCHER, "--launch-immediately", "--a11y=1"]
    original = next((p for p in A11Y_CONFS if p.is_file()), None)
    if original is None or _jail.available() is not None:
        return argv
    text = original.read_text()
    allow = _allow_apps()
    if '<allow user="root"/>' in text:
        text = text.replace('<allow user="root"/>', '<allow user="root"/>' + allow, 1)
    else:
        text = text.replace(
            "</busconfig>", f'<policy context="default">{allow}</policy></busconfig>'
        )
    copy = root / "a11y-bus.conf"
    copy.write_text(text)
    return [
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        'mount --bind "$0" "$1" && shift && exec "$@"',
        str(copy),
        str(original),
        *argv,
    ]


def a11y_address(bus_address: str, launcher: subprocess.Popen[bytes], deadline: float) -> str:
    """Ask the session bus for ``org.a11y.Bus``'s address once the launcher owns the name.

    The name is asked for with ``NameHasOwner`` first: a ``GetAddress`` sent before
    the launcher owns it would make the bus activate a second launcher.
    """
    gio, glib = _atspi.gio_modules()

    flags = (
        gio.DBusConnectionFlags.AUTHENTICATION_CLIENT
        | gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    )
    conn = gio.DBusConnection.new_for_address_sync(bus_address, flags, None, None)
    try:
        while time.monotonic() < deadline and launcher.poll() is None:
            owned = conn.call_sync(
                "org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus",
                "NameHasOwner",
                glib.Variant("(s)", ("org.a11y.Bus",)),
                None,
                gio.DBusCallFlags.NO_AUTO_START,
                1000,
                None,
            ).unpack()[0]
            if owned:
                reply = conn.call_sync(
                    "org.a11y.Bus",
                    "/org/a11y/bus",
                    "org.a11y.Bus",
                    "GetAddress",
                    None,
                    None,
                    gio.DBusCallFlags.NO_AUTO_START,
                    2000,
                    None,
                )
                return str(reply.unpack()[0])
            time.sleep(0.02)
    finally:
        conn.close_sync(None)
    return ""
