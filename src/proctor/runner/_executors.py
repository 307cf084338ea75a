"""The executors by kind: ``make_executor`` gives the one ``--executor`` names."""

from __future__ import annotations

from proctor.errors import RunError
from proctor.runner._executor import Executor
from proctor.runner._inline import InlineExecutor
from proctor.runner._pool import PoolExecutor
from proctor.runner._ray import RayExecutor
from proctor.vocab import EXECUTORS, ExecutorKind


def make_executor(
    kind: ExecutorKind, *, workers: int = 1, ray_address: str | None = None
) -> Executor:
    """The executor ``--executor`` names, with ``--workers`` slots.

    Raises:
        RunError: an unknown kind, a bad worker count, or Ray missing for ``ray``.
    """
    if workers < 1:
        raise RunError(f"--workers must be at least 1, got {workers}")
    if kind == "inline":
        if workers != 1:
            raise RunError(
                f"--workers {workers} needs --executor pool or ray; inline runs one worker"
            )
        return InlineExecutor()
    if kind == "pool":
        return PoolExecutor(workers)
    if kind == "ray":
        return RayExecutor(workers, address=ray_address)
    raise RunError(f"--executor {kind!r}: use one of {', '.join(EXECUTORS)}")
