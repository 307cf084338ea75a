"""A desktop app's view of the machine: a fresh root that holds only what the app needs.

An app is as dangerous as an agent: its file dialogs list, open and save
anywhere its process can, and an agent drives those dialogs with the recorded
verbs. So every app (whatever the scenario names) starts through ``app_argv``:

- ``unshare --mount`` gives it a mount namespace of its own, in which a new,
  empty tmpfs becomes its root (``pivot_root``; the machine's root is then
  unmounted from its view, so no path leads back to it);
- into that root go, read-only, only the system folders a program needs
  (``/usr``, ``/etc``, the ``/lib`` links, the font cache) and a few device
  nodes; read-write, only the attempt's scratch folder (which holds the app's
  HOME); and, one file each, the sockets it talks on: its X display and the
  two D-Bus buses of the desktop session. Nothing else exists for it: no
  results root, no suite or scenario folder, no proctor checkout or ``.git``,
  no venv, no ``/proc``, no ``/tmp``;
- the root itself is then made read-only, and the app runs as ``APP_UID``
  (``nobody``, no capability, ``no_new_privs``), so the scratch folder and
  its HOME are the only places it can write, and root-owned files it could
  still name are closed to it by their modes.

There is no PID namespace: the app keeps its pid, which is how AT-SPI and
``_NET_WM_PID`` name it. With no ``/proc`` in its view, no other process is
visible to it. The X cookie is copied into its root (the session's copy is in a
0700 folder).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from proctor._confine import APP_UID, UMASK, drop_argv

SYSTEM = ("/usr", "/etc", "/var/cache/fontconfig", "/var/lib/dbus")
"""Folders every app may read (what is missing on a machine is skipped)."""
LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Top-level names that are links into /usr on a merged-/usr system (copied as links),
or read-only folders where they are real folders."""
DEVICES = ("null", "zero", "full", "random", "urandom")
"""Device nodes an app may use."""
COOKIE = "/run/proctor/xauthority"
"""Where the app finds its copy of the X cookie."""
RUNTIME = "/run/proctor/runtime"
"""Where the app finds its runtime folder (``XDG_RUNTIME_DIR``; see ``app_argv``)."""

PRELUDE = r"""
set -eu
new=$1; cookie=$2; shift 2
mount -t tmpfs -o mode=0755,size=4m,nosuid,nodev proctor-app-root "$new"
while [ "$1" != "--" ]; do
  kind=${1%%:*}; path=${1#*:}; shift
  case $kind in
    ro|rw)
      src=${path%%=*}; dst=${path#*=}
      mkdir -p "$new$dst"
      mount --bind "$src" "$new$dst"
      if [ "$kind" = ro ]; then flags=ro,nosuid,nodev; else flags=nosuid,nodev; fi
      mount -o "remount,bind,$flags" "$new$dst" ;;
    file)
      mkdir -p "$new${path%/*}"; : > "$new$path"
      mount --bind "$path" "$new$path" ;;
    link)
      ln -s "$(readlink "$path")" "$new$path" ;;
    dev)
      mkdir -p "$new/dev"; : > "$new/dev/$path"
      mount --bind "/dev/$path" "$new/dev/$path" ;;
  esac
done
shift
mkdir -p "$new${PROCTOR_COOKIE%/*}" "$new/.old" "$new/proc"
# umount reads the mount table from /proc: one is there until the old root is gone.
mount -t proc -o nosuid,nodev,noexec proc "$new/proc"
cp "$cookie" "$new$PROCTOR_COOKIE"
chown "$PROCTOR_UID" "$new$PROCTOR_COOKIE"; chmod 0400 "$new$PROCTOR_COOKIE"
cd "$new"
pivot_root . .old
cd /
umount -l /.old
umount /proc
mount -o remount,ro,nosuid,nodev /
umask "$PROCTOR_UMASK"
cd "${HOME:-/}" 2>/dev/null || cd /
exec "$@"
"""


@functools.cache
def available() -> str | None:
    """None when apps can be jailed on this machine, else why not (probed once)."""
    for tool in ("unshare", "setpriv", "mount", "pivot_root"):
        if shutil.which(tool) is None:
            return f"{tool} (util-linux) is not installed"
    try:
        probe = subprocess.run(
            ["unshare", "--mount", "--propagation", "private", "true"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare failed: {exc}"
    if probe.returncode != 0:
        return f"unshare refused: {probe.stderr.strip() or probe.returncode}"
    return None


def socket_path(address: str) -> str | None:
    """The socket file of a D-Bus address (``unix:path=...,guid=...``); None for another
    kind (an abstract socket needs no file)."""
    for part in address.split(";"):
        kind, _, rest = part.partition(":")
        if kind != "unix":
            continue
        for pair in rest.split(","):
            key, _, value = pair.partition("=")
            if key == "path":
                return value
    return None


def app_argv(
    argv: Sequence[str],
    *,
    root: Path,
    cookie: Path,
    writable: Sequence[Path],
    sockets: Sequence[str],
    runtime: Path,
) -> tuple[list[str], dict[str, str]]:
    """The command line that runs ``argv`` jailed, and the environment the prelude reads.

    Args:
        argv: The app's command.
        root: An empty folder to mount the new root on (the host's copy stays empty).
        cookie: The X cookie file to copy in.
        writable: Folders the app may write (the scratch folder); each must exist.
        sockets: Socket files the app may connect to (X display, buses).
        runtime: The app's runtime folder (inside ``writable``), seen by the app at
            ``RUNTIME`` too. The app's AT-SPI bridge offers a private socket there, which
            admits only the app's own uid; at a path that does not exist outside, the
            harness's offer to use it fails at once, and it speaks to the app through
            the accessibility bus instead.
    """
    specs: list[str] = []
    for name in LINKS:
        if os.path.islink(name):
            specs.append(f"link:{name}")
        elif os.path.isdir(name):
            specs.append(f"ro:{name}")
    specs += [f"ro:{p}" for p in SYSTEM if os.path.isdir(p)]
    specs += [f"dev:{d}" for d in DEVICES if os.path.exists(f"/dev/{d}")]
    specs += [f"file:{s}" for s in sockets if os.path.exists(s)]
    specs += [f"rw:{p.resolve()}" for p in writable]
    specs.append(f"rw:{runtime.resolve()}={RUNTIME}")
    env = {"PROCTOR_COOKIE": COOKIE, "PROCTOR_UID": str(APP_UID), "PROCTOR_UMASK": f"{UMASK:04o}"}
    jail = [
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        PRELUDE,
        "proctor-app-jail",
        str(root),
        str(cookie),
        *specs,
        "--",
        *drop_argv(APP_UID),
        *argv,
    ]
    return jail, env
