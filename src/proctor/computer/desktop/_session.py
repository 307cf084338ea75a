"""The desktop session: Xvfb, a private session bus and the AT-SPI bus, once per worker.

All three run in one process group led by Xvfb, each marked (``_proc``), and
``stop`` ends the group and the marked, then reaps them, the bus launcher's
own ``dbus-daemon`` and ``at-spi2-registryd`` included. libatspi binds one
accessibility bus per process (``_atspi``), so a process runs one session in
its life: start it when the worker starts, stop it when the worker ends.

The buses' configurations and the AT-SPI bus's address are ``_buses``'s.

Nothing of it outlives this process: a watchdog (``_watchdog``), started first,
ends every marked process when this one dies, ``kill -9`` included. Every
process also carries the run's owner mark (``proctor._owner``), so ``proctor
cleanup`` finds whatever a dead run left.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import struct
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, NamedTuple, Self

from proctor._owner import owner_env
from proctor.computer.desktop import _atspi, _jail, _proc
from proctor.computer.desktop._buses import BUS_LAUNCHER, a11y_address, a11y_launcher, bus_config
from proctor.computer.desktop._errors import DesktopUnavailable, SessionStartFailed
from proctor.computer.desktop._watchdog import Watchdog

SCREEN = (1280, 800, 24)
"""Width, height and depth of the Xvfb screen."""
STEP_TIMEOUT = 10.0
"""Seconds each start step (X server, session bus, AT-SPI bus, registry) may take."""


class StartTimings(NamedTuple):
    """Seconds each start step took."""

    xvfb: float
    session_bus: float
    a11y_bus: float
    registry: float

    @property
    def total(self) -> float:
        return self.xvfb + self.session_bus + self.a11y_bus + self.registry


def missing_stack() -> list[str]:
    """What this machine lacks for the desktop tier (empty when all is there)."""
    missing = [name for name in ("Xvfb", "dbus-daemon", "xdotool") if shutil.which(name) is None]
    if not os.access(BUS_LAUNCHER, os.X_OK):
        missing.append(BUS_LAUNCHER)
    try:
        _atspi.gi_module()
    except DesktopUnavailable:
        missing.append("PyGObject with the Atspi typelib")
    return missing


class DesktopSession:
    """Xvfb + session bus + AT-SPI bus, with this process's Atspi bound to them.

    Use as a context manager, or call ``start`` and ``stop`` (idempotent).

    Attributes:
        display: The X display, e.g. ``":3"``.
        bus_address: The private session bus's address.
        a11y_address: The accessibility bus's address.
        timings: How long each start step took.
    """

    def __init__(self, *, screen: tuple[int, int, int] = SCREEN) -> None:
        self.screen = screen
        self.display = ""
        self.bus_address = ""
        self.a11y_address = ""
        self.timings: StartTimings | None = None
        self.mark = _proc.new_mark("desktop")
        self._root: Path | None = None
        self._procs: list[subprocess.Popen[bytes]] = []
        self._group = 0
        self._known: set[int] = set()
        self._atspi: Any = None
        self._watchdog: Watchdog | None = None

    # -- lifecycle ---------------------------------------------------------------

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return bool(self._procs)

    def private(self) -> tuple[Path, ...]:
        """What an agent must not reach: the session's folder (its buses, logs) and the X
        sockets' folder (an X client may read and drive every window)."""
        return (self.root, Path("/tmp/.X11-unix"))

    @property
    def root(self) -> Path:
        """The session's private folder (its HOME, runtime dir and logs)."""
        if self._root is None:
            raise SessionStartFailed("start", "the desktop session is not started")
        return self._root

    @property
    def jail_root(self) -> Path:
        """An empty folder that each jailed app mounts its own root on, in its own mount
        namespace (here it stays empty)."""
        path = self.root / "app-root"
        path.mkdir(mode=0o700, exist_ok=True)
        return path

    def sockets(self) -> list[str]:
        """The socket files an app talks on: its X display and the two buses."""
        found = [f"/tmp/.X11-unix/X{self.display.lstrip(':')}"] if self.display else []
        for address in (self.bus_address, self.a11y_address):
            path = _jail.socket_path(address)
            if path is not None:
                found.append(path)
        return found

    @property
    def atspi(self) -> Any:
        """The bound ``gi.repository.Atspi`` module."""
        if self._atspi is None:
            raise SessionStartFailed("start", "the desktop session is not started")
        return self._atspi

    def start(self) -> StartTimings:
        """Start Xvfb, the session bus and the AT-SPI bus; bind Atspi to them.

        Raises:
            DesktopUnavailable: a piece of the stack is not installed.
            SessionStartFailed: a step failed or missed its deadline (named, with stderr).
        """
        if self._procs:
            assert self.timings is not None
            return self.timings
        missing = missing_stack()
        if missing:
            raise DesktopUnavailable(
                "the desktop tier is not installed here: missing "
                + ", ".join(missing)
                + " (apt-get install xvfb dbus at-spi2-core xdotool gir1.2-atspi-2.0, "
                "pip install 'PyGObject<3.50')"
            )
        _proc.become_subreaper()
        self._root = Path(tempfile.mkdtemp(prefix="proctor-desktop-"))
        for sub in ("home", "runtime", "logs"):
            (self._root / sub).mkdir(mode=0o700)
        try:
            self._watchdog = Watchdog.start(
                var=_proc.MARK_ENV, mark=self.mark, root=self._root, env=self._watchdog_env()
            )
        except OSError as exc:
            self.stop()
            raise SessionStartFailed("watchdog", f"could not start the watchdog: {exc}") from exc
        try:
            t_x = self._timed(self._start_xvfb)
            t_bus = self._timed(self._start_session_bus)
            t_a11y = self._timed(self._start_a11y_bus)
            t_reg = self._timed(self._wait_registry)
        except BaseException:
            self.stop()
            raise
        self._known |= set(_proc.marked(self.mark))
        self.timings = StartTimings(t_x, t_bus, t_a11y, t_reg)
        return self.timings

    def stop(self) -> None:
        """End every process of the session and reap it; remove its folder (idempotent)."""
        procs, self._procs = self._procs, []
        if procs or self._known:
            groups = [self._group] if self._group else []
            _proc.end_tree(procs[::-1], mark=self.mark, groups=groups, known=self._known)
        self._known = set()
        self._group = 0
        watchdog, self._watchdog = self._watchdog, None
        if watchdog is not None:
            watchdog.stop()
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)
            self._root = None

    def note(self, pids: Iterable[int]) -> None:
        """Remember ``pids`` (an app's) so ``stop`` reaps them even once they are zombies."""
        self._known |= set(pids)

    def forget(self, pids: Iterable[int]) -> None:
        """Drop ``pids`` an app has ended and reaped itself."""
        self._known -= set(pids)

    # -- what apps get -----------------------------------------------------------

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of a process on this desktop: display, buses, accessibility on."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "HOME": str(self.root / "home"),
            "XDG_RUNTIME_DIR": str(self.root / "runtime"),
            "DISPLAY": self.display,
            "XAUTHORITY": str(self.xauthority),
            "DBUS_SESSION_BUS_ADDRESS": self.bus_address,
            "GDK_BACKEND": "x11",
            # GTK 3 loads the atk-bridge itself; these keep it on and never turn it off.
            "GNOME_ACCESSIBILITY": "1",
            "GTK_A11Y": "atspi",
            "QT_ACCESSIBILITY": "1",
            _proc.MARK_ENV: self.mark,
            **owner_env(),
        }
        if self.a11y_address:
            env["AT_SPI_BUS_ADDRESS"] = self.a11y_address
        env.update(extra or {})
        env.pop("NO_AT_BRIDGE", None)
        return env

    def log(self, name: str) -> Path:
        """The path of a log file in the session's folder."""
        return self.root / "logs" / name

    # -- start steps -------------------------------------------------------------

    @staticmethod
    def _timed(step: Callable[[], None]) -> float:
        began = time.monotonic()
        step()
        return time.monotonic() - began

    def _spawn_reporting(self, step: str, argv: list[str], env: Mapping[str, str]) -> str:
        """Spawn ``argv`` with a pipe on which it writes one line; that line."""
        read_fd, write_fd = os.pipe()
        log = self.log(f"{step}.log")
        argv = [a.replace("{fd}", str(write_fd)) for a in argv]
        try:
            proc = _proc.spawn(argv, env, group=self._group, pass_fds=[write_fd], stderr=log)
        except OSError as exc:
            os.close(read_fd)
            raise SessionStartFailed(step, f"{step}: could not run {argv[0]}: {exc}") from exc
        finally:
            os.close(write_fd)
        self._procs.append(proc)
        if not self._group:
            self._group = proc.pid
        try:
            line = _proc.read_line(read_fd, time.monotonic() + STEP_TIMEOUT, proc)
        finally:
            os.close(read_fd)
        if not line:
            # The pipe closes as the process exits: give the exit a moment to be seen.
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=1.0)
            if proc.returncode is not None:
                state = f"failed to start (exited {proc.returncode})"
            else:
                state = f"gave no answer within {STEP_TIMEOUT:.0f} s"
            raise SessionStartFailed(
                step, f"{step} {state}; its stderr ({log}):\n{_proc.tail(log)}"
            )
        return line

    @property
    def xauthority(self) -> Path:
        """The X cookie's file (0600, in the private folder): Xvfb admits only its holders."""
        return self.root / "xauthority"

    def _write_cookie(self) -> None:
        """A MIT-MAGIC-COOKIE-1 for any display (FamilyWild, no address, no number), in
        the Xauthority format: family, address, number, name, data, each length-prefixed."""
        cookie = secrets.token_bytes(16)
        fields = [b"", b"", b"MIT-MAGIC-COOKIE-1", cookie]
        data = struct.pack(">H", 0xFFFF) + b"".join(struct.pack(">H", len(f)) + f for f in fields)
        fd = os.open(self.xauthority, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        # libX11 in this process (the screenshots) reads it from the environment.
        os.environ["XAUTHORITY"] = str(self.xauthority)

    def _start_xvfb(self) -> None:
        self._write_cookie()
        width, height, depth = self.screen
        number = self._spawn_reporting(
            "xvfb",
            [
                "Xvfb",
                "-displayfd",
                "{fd}",
                "-nolisten",
                "tcp",
                "-auth",
                str(self.xauthority),  # a client needs the cookie, which no agent can read
                "-noreset",
                "-screen",
                "0",
                f"{width}x{height}x{depth}",
            ],
            self._base_env(),
        )
        self.display = f":{number}"

    def _start_session_bus(self) -> None:
        self.bus_address = self._spawn_reporting(
            "session_bus",
            [
                "dbus-daemon",
                f"--config-file={bus_config(self.root)}",
                "--nofork",
                "--nopidfile",
                f"--address=unix:dir={self.root / 'runtime'}",  # inside the private folder
                "--print-address={fd}",
            ],
            self._base_env(),
        )

    def _start_a11y_bus(self) -> None:
        log = self.log("a11y_bus.log")
        env = self.env()
        try:
            proc = _proc.spawn(
                a11y_launcher(self.root),
                env,
                group=self._group,
                stderr=log,
            )
        except OSError as exc:
            raise SessionStartFailed("a11y_bus", f"could not run {BUS_LAUNCHER}: {exc}") from exc
        self._procs.append(proc)
        address = a11y_address(self.bus_address, proc, time.monotonic() + STEP_TIMEOUT)
        if not address:
            raise SessionStartFailed(
                "a11y_bus",
                f"the AT-SPI bus launcher gave no address within {STEP_TIMEOUT:.0f} s "
                f"({'exited ' + str(proc.returncode) if proc.poll() is not None else 'running'}); "
                f"its stderr ({log}):\n{_proc.tail(log)}",
            )
        self.a11y_address = address

    def _wait_registry(self) -> None:
        self._atspi = _atspi.bind(self.a11y_address)
        error = _atspi.glib_error()
        deadline = time.monotonic() + STEP_TIMEOUT
        last = ""
        while time.monotonic() < deadline:
            try:
                self._atspi.get_desktop(0).get_child_count()
                return
            except error as exc:
                last = str(exc)
            time.sleep(0.05)
        raise SessionStartFailed(
            "registry",
            f"at-spi2-registryd did not answer within {STEP_TIMEOUT:.0f} s ({last}); "
            f"the bus launcher's stderr:\n{_proc.tail(self.log('a11y_bus.log'))}",
        )

    def _base_env(self) -> dict[str, str]:
        return {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "HOME": str(self.root / "home"),
            "XDG_RUNTIME_DIR": str(self.root / "runtime"),
            _proc.MARK_ENV: self.mark,
            **owner_env(),
        }

    @property
    def watchdog(self) -> int | None:
        """The watchdog's pid while the session runs."""
        return self._watchdog.pid if self._watchdog is not None else None

    @staticmethod
    def _watchdog_env() -> dict[str, str]:
        """The watchdog's environment: the owner mark, never the session's own mark."""
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", **owner_env()}
