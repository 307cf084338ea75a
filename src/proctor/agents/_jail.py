"""An external agent's view of the machine: the answer key hidden, and no way to unhide it.

A ``command:`` agent is a process on the harness's machine, so without a jail it
could simply read the scenario file (solution, checks, vault values), the results
tree (other attempts, run.json) or the control token. Where Linux allows it
(root or CAP_SYS_ADMIN), its command runs under ``unshare`` in:

- its own mount namespace, where an empty tmpfs covers each hidden folder (the
  results root, the scenario folders) and the attempt's scratch folder is moved
  back into place, so the one folder it is given is the one it sees;
- its own PID namespace with a fresh ``/proc``: the harness's processes, their
  environment and their ``/proc/<pid>/root`` view of the real disk are not there;
  and when the jail's first process ends, the kernel ends every process left in it,
  so nothing an agent starts outlives its attempt;
- with every capability dropped and ``no_new_privs`` set, so it cannot unmount the
  covers, mount anything, or regain privileges through a setuid program.

Its network is the harness's: it needs the MCP endpoint on loopback (and, for a
model agent, its provider). The fixture world is not reachable from there: in a
sealed run the world answers only inside the browser's network (see
``world/_server.py``, lanes), so the agent can change the world only through the
recorded toolset.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from proctor.errors import AgentError

PRELUDE = r"""
set -eu
keep=$1; hold=$2; shift 2
if [ -n "$keep" ]; then mount --bind "$keep" "$hold"; fi
for dir in "$@"; do
  mount -t tmpfs -o size=64k,mode=0755 proctor-hidden "$dir"
done
if [ -n "$keep" ]; then mkdir -p "$keep"; mount --move "$hold" "$keep"; fi
# This shell is the PID namespace's init: it forwards TERM to the agent, and when
# it exits the kernel kills whatever the agent left behind.
# (stdin is passed on explicitly: a background command would get /dev/null.)
exec 3<&0
setpriv --bounding-set=-all --inh-caps=-all --ambient-caps=-all --no-new-privs \
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
    """A new empty folder outside every hidden one (carries the scratch folder in)."""
    hidden = [p.resolve() for p in hide]
    for base in (Path(tempfile.gettempdir()), Path("/dev/shm"), Path("/run")):
        base = base.resolve()
        if base.is_dir() and not any(base.is_relative_to(h) for h in hidden):
            return Path(tempfile.mkdtemp(prefix="proctor-hold-", dir=base))
    raise AgentError("no folder outside the hidden ones to carry the scratch folder in")


def jail_argv(hide: Sequence[Path], keep: Path | None, hold: Path) -> list[str]:
    """The argv that runs ``$PROCTOR_JAIL_COMMAND`` in the jail.

    Args:
        hide: Folders to cover (missing ones are skipped, nested ones covered once).
        keep: The scratch folder, moved back into place after the covers.
        hold: An empty folder outside every hidden one (``hold_folder``).
    """
    folders = _outermost([p.resolve() for p in hide if p.is_dir()])
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
        str(keep) if keep is not None else "",
        str(hold),
        *folders,
    ]
