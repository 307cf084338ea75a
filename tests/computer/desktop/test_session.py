"""The session's processes: every one ended and reaped, on stop and on a failed start.

Each case runs in a child Python process (libatspi binds one session per
process). This test process becomes a child subreaper first, so whatever the
child leaves behind, alive or a zombie, is re-parented here (not to PID 1,
which does not reap) and shows up as a child of this process. Counting by
parent, not by name, holds while other test workers run desktops of their own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from proctor.computer.desktop import _proc, missing_stack

pytestmark = pytest.mark.desktop

NAMES = (
    "Xvfb",
    "dbus-daemon",
    "at-spi-bus-laun",
    "at-spi2-registr",
    "galculator",
    "mousepad",
    "dconf-service",
    "sleep",
)
"""Process names (as /proc/<pid>/comm cuts them) of everything a session starts."""

SCRIPT = textwrap.dedent(
    """
    import json, sys, tempfile, time
    from pathlib import Path
    from proctor.computer.desktop import App, DesktopSession, SessionStartFailed

    out = {}
    if sys.argv[1] == "run":
        began = time.monotonic()
        session = DesktopSession()
        session.start()
        out["start"] = time.monotonic() - began
        out["mark"] = session.mark
        scratch = Path(tempfile.mkdtemp())
        calc = App(session, ["galculator"], scratch / "a")
        calc.launch()
        out["window_ready"] = calc.timings.window_ready
        calc.kill()
        out["killed_alive"] = calc.alive()
        editor = App(session, ["mousepad"], scratch / "b")
        editor.launch()
        out["mousepad_ready"] = editor.timings.window_ready
        # Left running on purpose: stop() must end it too.
        began = time.monotonic()
        session.stop()
        out["stop"] = time.monotonic() - began
        session.stop()  # idempotent
    else:
        session = DesktopSession(screen=(1280, 800, 7))  # no such depth: Xvfb fails
        try:
            session.start()
        except SessionStartFailed as exc:
            out["step"] = exc.step
            out["message"] = str(exc)
    print(json.dumps(out))
    """
)


def desktop_children() -> set[tuple[int, str, str]]:
    """(pid, name, state) of this process's children named like one of the desktop's."""
    me = os.getpid()
    found = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            name = Path(entry.path, "comm").read_text().strip()
            fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if name in NAMES and int(fields[1]) == me:
            found.add((int(entry.name), name, fields[0]))
    return found


def run_child(mode: str) -> dict[str, object]:
    missing = missing_stack() + [a for a in ("galculator", "mousepad") if not shutil.which(a)]
    if missing:
        pytest.skip("the desktop stack is missing: " + ", ".join(missing))
    assert _proc.become_subreaper()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_stop_ends_and_reaps_every_process_even_a_left_app() -> None:
    before = desktop_children()
    result = run_child("run")
    left = desktop_children() - before
    # A daemon the bus started as the session stopped can end after the child script
    # exited: it then dies as this (subreaper) process's child. Ended, so reaped here;
    # only a live one is a leftover.
    for pid, _name, state in left:
        if state == "Z":
            os.waitpid(pid, os.WNOHANG)
    assert {p for p in left if p[2] != "Z"} == set()
    assert result["killed_alive"] is False
    marked = [
        pid
        for pid in os.listdir("/proc")
        if pid.isdigit() and f"PROCTOR_DESKTOP_MARK={result['mark']}".encode() in _environ(pid)
    ]
    assert marked == []
    print(
        f"\nsession start {result['start']:.3f} s,"
        f" galculator window {result['window_ready']:.3f} s,"
        f" mousepad window {result['mousepad_ready']:.3f} s, stop {result['stop']:.3f} s"
    )


def test_a_failed_start_names_the_step_and_leaves_nothing() -> None:
    before = desktop_children()
    result = run_child("fail")
    after = desktop_children()
    assert after - before == set()
    assert result["step"] == "xvfb"
    message = str(result["message"])
    assert message.startswith("xvfb failed to start (exited 1); its stderr (")
    assert "Couldn't add screen" in message


def _environ(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return b""
