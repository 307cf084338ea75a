"""What a jailed agent must not see of the harness itself, and what it needs to run.

The answer key is not only in the results tree and the scenario's folder: the
shipped suite is in the package (and in every other copy of it, e.g. an
installed one in site-packages), and the whole history of the suite is in the
checkout's git folder (``git show HEAD:src/proctor/suite/...``). Ray keeps its
session (ports, logs) in ``/tmp/ray`` and its token in ``~/.ray``. All of those
are hidden.

The agent still needs an interpreter and its packages: the harness's own
(``sys.prefix``, ``sys.base_prefix``, ``sys.path``), read-only. Where they lie
inside a hidden folder (pyenv under root's 0700 HOME), they are shown again.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

import proctor

RAY_DIRS = ("ray",)
"""Ray's session folder names under the temp folder."""


def _existing(paths: Iterable[Path]) -> list[Path]:
    seen: list[Path] = []
    for path in paths:
        if os.path.lexists(path):
            resolved = path.resolve()
            if resolved not in seen:
                seen.append(resolved)
    return seen


def package_dirs() -> list[Path]:
    """Every folder the ``proctor`` package is, or could be imported, from."""
    found = [Path(proctor.__file__).resolve().parent]
    for entry in sys.path:
        if entry:
            found.append(Path(entry) / "proctor")
    return [p for p in _existing(found) if (p / "__init__.py").is_file()]


def git_dirs(start: Path) -> list[Path]:
    """The git folders of the checkout ``start`` is in: its ``.git`` (a folder, or a
    worktree's file), the folder that file points to, and the common folder."""
    found: list[Path] = []
    for folder in (start, *start.parents):
        dot = folder / ".git"
        if dot.is_dir():
            found.append(dot)
        elif dot.is_file():
            found.append(dot)
            text = dot.read_text(errors="replace").strip()
            if text.startswith("gitdir:"):
                gitdir = (folder / text.removeprefix("gitdir:").strip()).resolve()
                found.append(gitdir)
                common = gitdir / "commondir"
                if common.is_file():
                    found.append((gitdir / common.read_text().strip()).resolve())
                elif gitdir.parent.name == "worktrees":
                    found.append(gitdir.parent.parent)
        if found:
            break
    return _existing(found)


def answer_keys() -> list[Path]:
    """The suite in every copy of the package, and the git history of its checkout."""
    keys: list[Path] = []
    for package in package_dirs():
        keys.append(package / "suite")
        keys += git_dirs(package)
    return _existing(keys)


def ray_files() -> list[Path]:
    """Ray's session folders and its token folder, where they exist."""
    temps = {Path(tempfile.gettempdir()), Path("/tmp")}
    if os.environ.get("RAY_TMPDIR"):
        temps.add(Path(os.environ["RAY_TMPDIR"]))
    paths = [t / name for t in temps for name in RAY_DIRS]
    paths += [Path.home() / ".ray", Path("/root/.ray")]
    return _existing(paths)


def interpreter() -> list[Path]:
    """The folders the agent's Python needs: the prefixes and every folder on sys.path."""
    paths = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)]
    paths += [Path(e) for e in sys.path if e and Path(e).is_dir()]
    return _existing(paths)


def hidden_homes() -> list[Path]:
    """Root's HOME (0700 already: no jailed uid could enter it) is covered whole, so that
    an interpreter inside it (pyenv) can be shown again on its own."""
    return _existing([Path("/root")])
