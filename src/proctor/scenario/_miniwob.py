"""MiniWoB++ tasks as scenarios: the package found without importing it, and ``world.miniwob``.

The PyPI package ``miniwob`` (Farama, MIT) ships its task pages; proctor serves them
from the installed package and never vendors them. Importing the package pulls in
gymnasium, so it is found with ``importlib.util.find_spec`` only.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import importlib.util
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

MINIWOB_VERSION = "1.1.0"
"""The version the shipped peer scenarios were written against (``proctor[miniwob]`` pins it)."""
EXCLUDED = frozenset({"use-colorwheel", "use-colorwheel-2"})
"""Tasks never served: their bundled code (jscolor) is GPL only. ``flight/`` (copies of
airline sites) is outside the task folder and never served either."""


@functools.cache
def miniwob_root() -> Path | None:
    """The installed package's ``html/`` folder (``miniwob/``, ``core/``, ``common/``), or None."""
    try:
        spec = importlib.util.find_spec("miniwob")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    root = Path(spec.origin).parent / "html"
    return root if (root / "miniwob").is_dir() and (root / "core").is_dir() else None


def miniwob_version() -> str | None:
    try:
        return importlib.metadata.version("miniwob")
    except importlib.metadata.PackageNotFoundError:
        return None


@functools.cache
def miniwob_tasks() -> tuple[str, ...]:
    """The installed package's task names (excluded ones left out); empty without it.

    Read once a process: every peer scenario's ``task`` is checked against it.
    """
    root = miniwob_root()
    if root is None:
        return ()
    return tuple(
        sorted(p.stem for p in (root / "miniwob").glob("*.html") if p.stem not in EXCLUDED)
    )


def task_sha256(task: str) -> str | None:
    root = miniwob_root()
    if root is None:
        return None
    path = root / "miniwob" / f"{task}.html"
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


class MiniwobWorld(BaseModel):
    """One MiniWoB++ task at one seed: served by the ``miniwob`` site, graded by its reward."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="e.g. click-button.")
    seed: int = Field(ge=0, description="Math.seedrandom's seed for the episode.")
    mode: str = Field(default="default", pattern=r"^[a-z0-9_-]+$", description="core.setDataMode.")

    @field_validator("task")
    @classmethod
    def _known(cls, task: str) -> str:
        if task in EXCLUDED:
            raise ValueError(f"{task} is not served: its bundled code (jscolor) is GPL only")
        tasks = miniwob_tasks()
        if tasks and task not in tasks:
            import difflib

            near = difflib.get_close_matches(task, tasks, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise ValueError(f"the installed miniwob has no task {task!r}{hint}")
        return task
