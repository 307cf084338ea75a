"""Paths as files people share show them: never an absolute path of this machine.

report.md, report.html, summary.json and gate-verdict.json travel (attached to a PR,
mailed, kept beside a release); an absolute path there names one machine's folders
(a home directory, a temp folder) and means nothing anywhere else.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_PARENT = Path(__file__).resolve().parent.parent.parent
"""The folder that holds the ``proctor`` package (``src/`` or site-packages): a shipped
file is shown from there, e.g. ``proctor/report/targets.toml``."""


def shared_path(path: Path, *roots: Path) -> str:
    """``path`` relative to the first of ``roots``, the current folder or the proctor
    package's parent that holds it (POSIX separators); else its name alone.

    A shipped file reads ``proctor/report/targets.toml`` wherever proctor is installed.
    """
    resolved = path.resolve()
    for root in (*roots, PACKAGE_PARENT, Path.cwd()):
        try:
            return resolved.relative_to(root.resolve()).as_posix()
        except ValueError:
            continue
    return path.name
