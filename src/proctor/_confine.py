"""Who a jailed process is: an unprivileged uid of its own, and the scratch folder it may write.

Both jails (a ``command:`` agent's, ``agents/_jail.py``; a desktop app's,
``computer/desktop/_jail.py``) end by running their program as an unprivileged
uid with no capability, so the kernel's own file permissions stand behind the
mount covers: a root-owned 0600 file (the control token, run.json) or a 0700
folder (``/root``, the desktop session's folder) is closed to it even where a
cover is missing. The agent's uid has no passwd entry; the apps' uid is
``nobody``, since a D-Bus bus admits a uid only through its passwd entry and an
app must join the session and AT-SPI buses. The agent and the apps have
different uids, so an agent can't reach into an app's private folders (its
AT-SPI socket, its HOME): it drives the app only through the toolset. They share
one group, which owns the attempt's scratch folder, so what one saves the other
can open.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

AGENT_UID = 64000
"""The uid a ``command:`` agent runs as (no passwd entry: it owns nothing on the machine)."""
APP_UID = 65534
"""The uid every desktop app runs as (``nobody``: the buses admit it by that name)."""
JAIL_GID = 64000
"""The group of both: it owns the scratch folder, so agent and apps share its files."""
UMASK = 0o007
"""Files made in the jail are the group's to change, and nobody else's to read."""


def drop_argv(uid: int) -> list[str]:
    """The ``setpriv`` words that run the rest of a command line as ``uid``, with no
    capability, no supplementary group and ``no_new_privs`` (a setuid program can't
    give any back)."""
    return [
        "setpriv",
        f"--reuid={uid}",
        f"--regid={JAIL_GID}",
        "--clear-groups",
        "--bounding-set=-all",
        "--inh-caps=-all",
        "--ambient-caps=-all",
        "--no-new-privs",
        "--",
    ]


def share(folder: Path) -> None:
    """Give ``folder`` and what is in it to the jail's group, group-writable.

    Only root-made entries change (what a jailed uid made is already its
    group's, by ``UMASK``). Folders get the setgid bit, so files made in them
    later keep the group. A folder with no group bits at all was made private
    on purpose (an app's HOME, ``private_folder``): it is left alone with all
    it holds. Symbolic links are never followed.
    """
    if not folder.is_dir() or folder.is_symlink():
        return
    _share_one(folder, top=True)
    for root, dirs, files in os.walk(folder):
        for name in files:
            _share_one(Path(root, name))
        kept = []
        for name in dirs:
            if _share_one(Path(root, name)):
                kept.append(name)
        dirs[:] = kept


def private_folder(path: Path, uid: int | None = None) -> Path:
    """Make (or keep) ``path`` a folder no group member can read.

    With ``uid``, it is that uid's own, 0700; without, root's, 0711: a jailed uid
    may pass through it to a folder inside whose path it knows, but not list it.
    """
    path.mkdir(parents=True, exist_ok=True)
    if uid is None:
        os.chown(path, 0, 0, follow_symlinks=False)
        os.chmod(path, 0o711)
    else:
        os.chown(path, uid, JAIL_GID, follow_symlinks=False)
        os.chmod(path, 0o700)
    return path


def _share_one(path: Path, *, top: bool = False) -> bool:
    """Share one entry; False for a folder not to walk into (private, or not root's)."""
    try:
        info = path.lstat()
    except OSError:
        return False
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISLNK(info.st_mode):
        return False
    if info.st_uid != 0:
        return False
    folder = stat.S_ISDIR(info.st_mode)
    if folder and not mode & 0o070 and not top:
        return False
    if info.st_gid != JAIL_GID:
        os.chown(path, 0, JAIL_GID, follow_symlinks=False)
    extra = stat.S_IRGRP | stat.S_IWGRP
    if folder:
        extra |= stat.S_IXGRP | stat.S_ISGID
    if (mode & extra) != extra:
        os.chmod(path, mode | extra)
    return True
