"""One app for one attempt: a fresh HOME and XDG folders, its window awaited, ended and reaped.

Every launch gets folders of its own under the attempt's scratch
(``<scratch>/.desktop/launch-N/{home,config,data,cache,state,runtime}``), so no
configuration, recent-files list or restored session leaks between attempts.
GSettings is kept in a key file inside them (``GSETTINGS_BACKEND=keyfile``), not
in the session's dconf, and GIO uses the local file system only, so the app
starts no daemon on the session bus that would outlive it.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from proctor._confine import APP_UID, private_folder, share
from proctor.computer.desktop import _jail, _proc, _tree
from proctor.computer.desktop._errors import AppLaunchFailed, WindowUnavailable
from proctor.computer.desktop._session import DesktopSession

WINDOW_TIMEOUT = 10.0
"""Seconds an app gets to show its window in the accessibility tree, per launch."""
POLL = 0.02
"""Seconds between two looks at the accessibility tree while a window is awaited."""


class Window(NamedTuple):
    """A top-level window of the app.

    Attributes:
        title: The window's accessible name.
        role: ``frame``, ``dialog``...
        active: Whether it has the toolkit's active state (it has the keyboard).
        pid: The app's process id.
        acc: The ``Atspi.Accessible``.
    """

    title: str
    role: str
    active: bool
    pid: int
    acc: Any


class LaunchTimings(NamedTuple):
    """Seconds from spawn to the window in the tree, and how many launches it took."""

    window_ready: float
    launches: int


def _private_path(top: Path, folder: Path) -> None:
    """Make every folder below ``top`` down to ``folder`` root's, 0711: an app passes
    through them to its own folders, and nobody else lists them."""
    if not folder.is_relative_to(top):
        private_folder(folder)
        return
    current = top
    for name in folder.relative_to(top).parts:
        current = current / name
        private_folder(current)


class App:
    """An app on a desktop session, launched by ``launch``.

    Attributes:
        argv: The command.
        name: A short name for messages (the program's base name).
        home: The HOME of the current launch.
        timings: How long the window took.
    """

    def __init__(
        self,
        session: DesktopSession,
        argv: Sequence[str],
        scratch: Path,
        *,
        env: Mapping[str, str] | None = None,
        window_timeout: float = WINDOW_TIMEOUT,
        writable: Path | None = None,
    ) -> None:
        if not argv:
            raise AppLaunchFailed("an app needs a command (argv is empty)")
        self.session = session
        self.argv = list(argv)
        self.name = Path(argv[0]).name
        self.scratch = scratch
        self.writable = (writable if writable is not None else scratch).resolve()
        self.jailed = False
        """Whether the current launch runs in the app jail (``_jail``)."""
        self.extra_env = dict(env or {})
        self.window_timeout = window_timeout
        self.home = Path()
        self.timings: LaunchTimings | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._mark = ""
        self._known: set[int] = set()
        self._launches = 0
        self._ended = True
        self._log = Path()
        self.pids: list[int] = []
        """The pid of every launch, in order (a relaunch adds one)."""

    @property
    def pid(self) -> int:
        if self._proc is None:
            raise AppLaunchFailed(f"{self.name} is not running")
        return self._proc.pid

    @property
    def mark(self) -> str:
        """The ``PROCTOR_DESKTOP_APP`` value every process of the current launch carries."""
        return self._mark

    def launch(self) -> LaunchTimings:
        """Start the app and wait for its window; relaunch once if none comes.

        Raises:
            WindowUnavailable: the app ran twice without a window (cause ``window_unavailable``).
            AppLaunchFailed: the app could not be started, or exited before its window, twice.
        """
        self.close()  # a second launch replaces the first
        began = time.monotonic()
        last: AppLaunchFailed | WindowUnavailable | None = None
        for attempt in (1, 2):
            self._spawn()
            try:
                self._wait_window()
            except (AppLaunchFailed, WindowUnavailable) as exc:
                last = exc
                self.close()
                if attempt == 1:
                    continue
                if isinstance(exc, WindowUnavailable):
                    raise WindowUnavailable(
                        f"{self.name} ran without a window twice (launched, then relaunched, "
                        f"{self.window_timeout:g} s each): window_unavailable"
                    ) from exc
                raise
            self.timings = LaunchTimings(time.monotonic() - began, attempt)
            return self.timings
        assert last is not None
        raise last

    def _spawn(self) -> None:
        self._launches += 1
        root = self.scratch / ".desktop" / f"launch-{self._launches}"
        self.jailed = _jail.available() is None
        dirs = {k: root / k for k in ("home", "config", "data", "cache", "state", "runtime")}
        if self.jailed:
            self.writable.mkdir(parents=True, exist_ok=True)
            share(self.writable)
            _private_path(self.writable, root)
            for path in dirs.values():
                private_folder(path, APP_UID)
        else:
            for path in dirs.values():
                path.mkdir(parents=True, mode=0o700)
        self.home = dirs["home"]
        self._mark = _proc.new_mark(f"app-{self.name}")
        env = self.session.env(
            {
                "HOME": str(dirs["home"]),
                "XDG_CONFIG_HOME": str(dirs["config"]),
                "XDG_DATA_HOME": str(dirs["data"]),
                "XDG_CACHE_HOME": str(dirs["cache"]),
                "XDG_STATE_HOME": str(dirs["state"]),
                "XDG_RUNTIME_DIR": str(dirs["runtime"]),
                "GSETTINGS_BACKEND": "keyfile",
                "GIO_USE_VFS": "local",
                "GTK_CSD": "0",
                "TMPDIR": str(dirs["runtime"]),
                **self.extra_env,
                _proc.APP_MARK_ENV: self._mark,
            }
        )
        self._log = root / "stderr.log"
        argv = self.argv
        if self.jailed:
            argv, jail_env = _jail.app_argv(
                self.argv,
                root=self.session.jail_root,
                cookie=self.session.xauthority,
                writable=[self.writable],
                sockets=self.session.sockets(),
                runtime=dirs["runtime"],
            )
            env |= jail_env | {
                "XAUTHORITY": _jail.COOKIE,
                "XDG_RUNTIME_DIR": _jail.RUNTIME,
                "TMPDIR": _jail.RUNTIME,
            }
        try:
            self._proc = _proc.spawn(argv, env, stderr=self._log, cwd=dirs["home"])
            self._ended = False
            self.pids.append(self._proc.pid)
            self.session.note([self._proc.pid])
        except OSError as exc:
            raise AppLaunchFailed(f"could not start {self.argv[0]}: {exc}") from exc

    def _wait_window(self) -> None:
        deadline = time.monotonic() + self.window_timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise AppLaunchFailed(
                    f"{self.name} exited with {self._returncode()} before its window appeared; "
                    f"its stderr ({self._log}):\n{_proc.tail(self._log)}"
                )
            if self.windows():
                self._known = set(_proc.marked(self._mark, _proc.APP_MARK_ENV))
                self.session.note(self._known)
                return
            time.sleep(POLL)
        raise WindowUnavailable(
            f"{self.name} (pid {self.pid}) showed no window in the accessibility tree within "
            f"{self.window_timeout:g} s: window_unavailable"
        )

    def _returncode(self) -> int | None:
        return None if self._proc is None else self._proc.poll()

    def application(self) -> Any:
        """The app's ``Atspi.Accessible`` of role application, matched by pid; None if absent."""
        if self._proc is None:
            return None
        desktop = self.session.atspi.get_desktop(0)
        pid = self._proc.pid
        for i in range(_tree._safe(desktop.get_child_count, 0)):
            app = _tree._safe(lambda i=i: desktop.get_child_at_index(i), None)
            if app is not None and _tree._safe(app.get_process_id, -1) == pid:
                return app
        return None

    def windows(self) -> list[Window]:
        """The app's showing top-level windows (empty when it has none, or is gone)."""
        app = self.application()
        if app is None:
            return []
        found = []
        for i in range(_tree._safe(app.get_child_count, 0)):
            acc = _tree._safe(lambda i=i: app.get_child_at_index(i), None)
            if acc is None:
                continue
            role, name, states, _ifaces = _tree.info(acc)
            if role in _tree.WINDOW_ROLES and "showing" in states:
                found.append(Window(name, role, "active" in states, self.pid, acc))
        return found

    def active_window(self) -> Window:
        """The window with the keyboard (toolkit active state), else the newest showing one.

        Raises:
            AppLaunchFailed: the app has no window (it exited or closed them all).
        """
        windows = self.windows()
        if not windows:
            state = "running" if self.alive() else f"exited ({self._returncode()})"
            raise AppLaunchFailed(f"{self.name} has no window ({state})")
        for window in windows:
            if window.active:
                return window
        return windows[-1]

    def observe(self, **limits: Any) -> _tree.Outline:
        """The outline of the active window (see ``_tree.outline`` for ``limits``)."""
        return _tree.outline(self.active_window().acc, **limits)

    def alive(self) -> bool:
        """Whether the app's process is running."""
        return self._proc is not None and self._proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the app at once, as a crash would; reaped (for tests and the fault injector)."""
        import signal

        self._end(sig=signal.SIGKILL)

    def close(self) -> None:
        """End the app (SIGTERM, then SIGKILL after a grace) and reap it (idempotent)."""
        import signal

        self._end(sig=signal.SIGTERM)

    def _end(self, sig: Any) -> None:
        if self._ended:
            return
        self._ended = True
        procs = [self._proc] if self._proc is not None else []
        groups = [self._proc.pid] if self._proc is not None else []
        ours = set(self._known) | {p.pid for p in procs}
        left = _proc.end_tree(
            procs,
            mark=self._mark,
            var=_proc.APP_MARK_ENV,
            groups=groups,
            known=self._known,
            sig=sig,
        )
        self.session.forget(ours - set(left))
        self._known = set()
        # The handle stays (alive() is then False); a later launch replaces it.
