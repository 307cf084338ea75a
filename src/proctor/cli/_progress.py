"""The progress bar of the commands that run attempts: the attempt starting, how many of
the plan are done, the time elapsed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from proctor.records import AttemptRecord
from proctor.runner import PlanItem


class AttemptBar:
    """A ``ProgressHook``: an attempt starting names the bar, one ending advances it."""

    def __init__(self, progress: Progress, task: TaskID) -> None:
        self._progress = progress
        self._task = task

    def __call__(self, item: PlanItem, record: AttemptRecord | None) -> None:
        if record is None:
            self._progress.update(self._task, description=item.attempt_id)
            return
        self._progress.advance(self._task)
        done = self._progress.tasks[0].completed
        if done > (self._progress.tasks[0].total or 0):  # a gate's top-ups and canary retry
            self._progress.update(self._task, total=done)

    def stop(self) -> None:
        """Take the bar off the terminal now (before an interrupted run says so)."""
        self._progress.stop()


@contextmanager
def attempt_bar(console: Console, total: int) -> Iterator[AttemptBar]:
    """A transient bar over ``total`` attempts, gone from the terminal when the block ends."""
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as progress:
        yield AttemptBar(progress, progress.add_task("starting", total=total))
