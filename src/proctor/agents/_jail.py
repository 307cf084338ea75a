"""An external agent's view of the machine: the answer key hidden, and no way to unhide it.

A ``command:`` agent is a process on the harness's machine, so without a jail it
could simply read the scenario file (solution, checks, vault values), the results
tree (other attempts, run.json) or the control token. Where Linux allows it
(root or CAP_SYS_ADMIN), its command runs under ``unshare`` in:

- its own mount namespace, where an empty tmpfs covers each hidden folder (the
  results root, the scenario folders, every copy of the suite, the checkout's git
  folders, Ray's files: ``_view``), ``/tmp`` is a private one, the interpreter is
  shown again where a cover hid it, the attempt's scratch folder is moved back
  into place, and every other mount is made read-only;
- its own PID namespace with a fresh ``/proc``: the harness's processes, their
  environment and their ``/proc/<pid>/root`` view of the real disk are not there;
  and when the jail's first process ends, the kernel ends every process left in it,
  so nothing an agent starts outlives its attempt;
- as ``AGENT_UID`` (``_confine``), with every capability dropped and
  ``no_new_privs`` set, so it cannot unmount the covers, mount anything, regain
  privileges through a setuid program, or open root's 0600 files.

Its network is its own (``_net``, entered with ``nsenter`` before ``unshare``): a
namespace with only loopback, where this process serves the attempt's MCP lane and
a proxy that refuses every address of the machine (loopback, link-local and the
host's own), so the agent reaches its lane and its model provider and none of the
harness's listeners (fixture server, control endpoint, Ray, other lanes). Where the
machine refuses a network namespace, the jail shares the host's network and the
trace says ``net_sealed: false``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from proctor._confine import AGENT_UID, JAIL_GID, UMASK
from proctor.agents import _view
from proctor.errors import AgentError

PRELUDE = r"""
set -eu
hold=$1; uid=$2; gid=$3; mask=$4; shift 4
# 1. What is shown again inside a cover is held aside before any cover goes on.
i=0
for spec in "$@"; do
  case $spec in
    show:*|keep:*) i=$((i+1)); mkdir -p "$hold/$i"; mount --bind "${spec#*:}" "$hold/$i" ;;
  esac
done
cover() {
  if [ -d "$1" ]; then mount -t tmpfs -o size=64k,mode=0755,nosuid,nodev proctor-hidden "$1"
  elif [ -e "$1" ]; then mount --bind /dev/null "$1"; fi
}
# 2. The covers: empty and read-only (hide), or private and writable (tmp).
for spec in "$@"; do
  case $spec in
    hide:*) cover "${spec#*:}" ;;
    tmp:*) mount -t tmpfs -o size=256m,mode=1777,nosuid,nodev proctor-tmp "${spec#*:}" ;;
  esac
done
# 3. Back into place; then the covers again, over what a shown folder brought back.
i=0
for spec in "$@"; do
  case $spec in
    show:*|keep:*) i=$((i+1)); mkdir -p "${spec#*:}"; mount --move "$hold/$i" "${spec#*:}" ;;
  esac
done
for spec in "$@"; do
  case $spec in again:*) cover "${spec#*:}" ;; esac
done
# 4. Every other mount read-only: the kept folders and the private tmp are the writable ones.
ro=$(cut -d' ' -f5 /proc/self/mountinfo)
for target in $ro; do
  case $target in /proc|/proc/*|/dev|/dev/pts|/dev/pts/*|/dev/mqueue) continue ;; esac
  skip=
  for spec in "$@"; do
    case $spec in keep:*|tmp:*) [ "${spec#*:}" = "$target" ] && skip=1 ;; esac
  done
  [ -n "$skip" ] && continue
  [ -e "$target" ] || continue  # under a later cover: out of reach
  mount -o remount,bind,ro "$target" 2>/dev/null || :  # not a mount point at that path
done
[ -n "${PROCTOR_JAIL_HOME:-}" ] && export HOME="$PROCTOR_JAIL_HOME"
cd "$PWD" 2>/dev/null || cd /
umask "$mask"
# This shell is the PID namespace's init: it forwards TERM to the agent, and when
# it exits the kernel kills whatever the agent left behind.
# (stdin is passed on explicitly: a background command would get /dev/null.)
exec 3<&0
setpriv --reuid="$uid" --regid="$gid" --clear-groups \
  --bounding-set=-all --inh-caps=-all --ambient-caps=-all --no-new-privs \
  -- sh -c "$PROCTOR_JAIL_COMMAND" <&3 3<&- &
exec 3<&-
agent=$!
trap 'kill -TERM "$agent" 2>/dev/null' TERM INT HUP
code=0
wait "$agent" || code=$?
while kill -0 "$agent" 2>/dev/null; do wait "$agent" || code=$?; done
exit "$code"
"""


@functools.cache
def available() -> str | None:
    """None when the jail works on this machine, else why not (probed once)."""
    for tool in ("unshare", "setpriv", "mount"):
        if shutil.which(tool) is None:
            return f"{tool} (util-linux) is not installed"
    try:
        probe = subprocess.run(
            ["unshare", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc", "true"],
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


def _outermost(paths: Sequence[Path]) -> list[str]:
    """The folders not inside another one (a cover over a parent hides its children)."""
    kept: list[Path] = []
    for path in sorted(set(paths), key=lambda p: len(p.parts)):
        if not any(path.is_relative_to(k) for k in kept):
            kept.append(path)
    return [str(p) for p in kept]


def hold_folder(hide: Sequence[Path]) -> Path:
    """A new empty folder outside every hidden one (carries the kept folders in)."""
    hidden = [p.resolve() for p in hide]
    for base in (Path(tempfile.gettempdir()), Path("/dev/shm"), Path("/run"), Path("/var/tmp")):
        base = base.resolve()
        if base.is_dir() and not any(base.is_relative_to(h) for h in hidden):
            return Path(tempfile.mkdtemp(prefix="proctor-hold-", dir=base))
    raise AgentError("no folder outside the hidden ones to carry the scratch folder in")


class View(NamedTuple):
    """What a jailed agent sees.

    Attributes:
        hide: Folders (or files) under empty read-only covers.
        tmp: Folders under a private, writable, in-memory cover (``/tmp``): nothing
            outside the jail sees what is written there, and it ends with the jail.
        show: Folders inside a cover shown again, read-only (the interpreter).
        keep: Folders shown again writable (the scratch folder).
    """

    hide: tuple[Path, ...]
    tmp: tuple[Path, ...] = ()
    show: tuple[Path, ...] = ()
    keep: tuple[Path, ...] = ()


def jail_argv(view: View, hold: Path) -> list[str]:
    """The argv that runs ``$PROCTOR_JAIL_COMMAND`` in the jail, as ``AGENT_UID``.

    Args:
        view: What to cover and what to show again (missing paths are skipped,
            nested covers made once).
        hold: An empty folder outside every hidden one (``hold_folder``).
    """
    hide = _outermost([p.resolve() for p in view.hide if os.path.lexists(p)])
    tmp = _outermost([p.resolve() for p in view.tmp if p.is_dir()])
    # Shown again: only what lies strictly inside a cover, an empty one or the private
    # tmp (a checkout cloned under /tmp has its interpreter and sources there). Never a
    # cover itself, nor a folder holding the private tmp; a hidden folder inside a shown
    # one is covered again below (``again``).
    covers = [Path(c) for c in (*hide, *tmp)]
    shown = _outermost(
        [
            p
            for p in (q.resolve() for q in view.show if q.is_dir())
            if any(p != c and p.is_relative_to(c) for c in covers)
            and not any(Path(t).is_relative_to(p) for t in tmp)
        ]
    )
    shown_paths = [Path(p) for p in shown]
    # A hidden folder inside a shown one is covered again once that is back in place.
    again = [
        p.resolve()
        for p in view.hide
        if os.path.lexists(p) and any(p.resolve().is_relative_to(s) for s in shown_paths)
    ]
    keep = [p.resolve() for p in view.keep if p.is_dir()]
    specs = [
        *[f"hide:{p}" for p in hide],
        *[f"tmp:{p}" for p in tmp],
        *[f"show:{p}" for p in shown],
        *[f"keep:{p}" for p in keep],
        *[f"again:{p}" for p in again],
    ]
    return [
        "unshare",
        "--mount",
        "--pid",
        "--fork",
        "--kill-child",
        "--mount-proc",
        "--propagation",
        "private",
        "sh",
        "-c",
        PRELUDE,
        "proctor-jail",
        str(hold),
        str(AGENT_UID),
        str(JAIL_GID),
        f"{UMASK:04o}",
        *specs,
    ]


def agent_view(private: Sequence[Path], scratch: Path) -> View:
    """A ``command:`` agent's view: the attempt's ``private`` folders, every copy of the
    suite, the checkout's git history and Ray's files hidden; a private ``/tmp``;
    the interpreter shown again where a cover hid it; the scratch folder kept."""
    hide = (*private, *_view.answer_keys(), *_view.ray_files(), *_view.hidden_homes())
    secret = [p.resolve() for p in hide if p not in _view.hidden_homes()]
    show = tuple(p for p in _view.interpreter() if not any(p.is_relative_to(s) for s in secret))
    tmp = tuple(p for p in (Path("/tmp"), Path("/dev/shm")) if p.is_dir())
    return View(hide=hide, tmp=tmp, show=show, keep=(scratch,))


def release_hold(hold: Path) -> None:
    """Remove a hold folder and the empty folders the jail made in it."""
    with contextlib.suppress(OSError):
        for child in hold.iterdir():
            child.rmdir()
        hold.rmdir()
