"""A desktop app sees its HOME, the scratch folder and the system, as nobody, and writes only there.

Watched from outside the app: its uid in /proc/<pid>/status, its view of the disk
through /proc/<pid>/root and /proc/<pid>/mountinfo, and a write tried with its
very identity (its mount namespace, its uid and group), as its Save As would.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import proctor
from proctor._confine import APP_UID, JAIL_GID
from proctor.computer.desktop import DesktopSession
from proctor.computer.desktop._app import App
from proctor.computer.desktop._jail import available
from proctor.scenario import SUITE_ROOT

pytestmark = pytest.mark.desktop

SYSTEM = {"usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "var", "dev", "run"}
"""What an app's root may hold besides the paths to its scratch folder and sockets."""


@pytest.fixture
def editor(session: DesktopSession, tmp_path: Path) -> Iterator[App]:
    if available() is not None:
        pytest.skip(f"no app jail on this machine: {available()}")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "notes.txt").write_text("mine")
    app = App(session, ["mousepad"], scratch / ".apps" / "editor", writable=scratch)
    app.launch()
    yield app
    app.close()


def as_app(app: App, script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` where the app runs: in its mount namespace, as its uid and group."""
    return subprocess.run(
        [
            *("nsenter", f"--target={app.pid}", "--mount", "--"),
            *("setpriv", f"--reuid={APP_UID}", f"--regid={JAIL_GID}", "--clear-groups"),
            *("sh", "-c", script),
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_the_app_runs_unprivileged_and_sees_only_its_folders(editor: App, tmp_path: Path) -> None:
    status = Path(f"/proc/{editor.pid}/status").read_text()
    uids = next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1:]
    assert uids == [str(APP_UID)] * 4
    assert "CapEff:\t0000000000000000" in status
    root = Path(f"/proc/{editor.pid}/root")
    scratch = (tmp_path / "scratch").resolve()
    assert (root / scratch.relative_to("/") / "notes.txt").read_text() == "mine"
    top = {p.name for p in root.iterdir()} - {".old", "proc"}
    ways_in = {scratch.parts[1]} | {Path(s).parts[1] for s in editor.session.sockets()}
    assert top <= SYSTEM | ways_in, top
    package = Path(proctor.__file__).resolve().parent
    checkout = package.parent.parent
    hidden = [
        SUITE_ROOT,
        package,
        checkout / ".git",
        tmp_path / "results",
        Path("/root"),
        Path("/tmp/ray"),
        editor.session.root / "xauthority",
    ]
    seen = [str(p) for p in hidden if os.path.lexists(root / p.resolve().relative_to("/"))]
    assert seen == []
    assert not list((root / "proc").iterdir())  # no process of the machine is visible


def test_only_the_scratch_folder_is_writable(editor: App, tmp_path: Path) -> None:
    scratch = (tmp_path / "scratch").resolve()
    writable = []
    for line in Path(f"/proc/{editor.pid}/mountinfo").read_text().splitlines():
        fields = line.split()
        target, options = fields[4], fields[5].split(",")
        if "rw" in options and not target.startswith("/dev/"):
            writable.append(target)
    sockets = set(editor.session.sockets())
    assert [t for t in writable if t not in sockets] == [str(scratch), "/run/proctor/runtime"]
    # Save As, tried with the app's own identity: inside the scratch folder, and outside it.
    inside = as_app(editor, f"echo saved > {scratch}/saved.txt")
    assert inside.returncode == 0, inside.stderr
    assert (scratch / "saved.txt").read_text() == "saved\n"
    assert (scratch / "saved.txt").stat().st_uid == APP_UID
    for target in ("/tmp/escaped.txt", "/escaped.txt", "/etc/escaped.txt", "/usr/escaped.txt"):
        outside = as_app(editor, f"echo saved > {target}")
        assert outside.returncode != 0, target
        assert not Path(target).exists(), target
    listing = as_app(editor, f"ls -a / /tmp {tmp_path}")
    assert "results" not in listing.stdout and "ray" not in listing.stdout
