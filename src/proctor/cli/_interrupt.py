"""Ctrl-C and SIGTERM during a run: the attempts in flight are cancelled, never half
written, and the user is told the exact command that continues the run.

Ctrl-C reaches the run as asyncio's cancellation of the main task. SIGTERM (a CI
runner's timeout, ``kill``) is made the same cancellation, so both leave the same
tree: done attempts written, the legs closed, temp files dropped; without this a
SIGTERM ended the process where it stood.
"""

from __future__ import annotations

import asyncio
import shlex
import signal
import sys
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from rich.console import Console

from proctor._text import markup

T = TypeVar("T")

EXIT_SIGINT = 130
EXIT_SIGTERM = 143


@dataclass
class Stop:
    """Which signal stopped the run, if any."""

    terminated: bool = field(default=False)

    @property
    def exit_code(self) -> int:
        return EXIT_SIGTERM if self.terminated else EXIT_SIGINT

    @property
    def name(self) -> str:
        return "SIGTERM" if self.terminated else "Ctrl-C"


async def stoppable(work: Coroutine[Any, Any, T], stop: Stop) -> T:
    """Await ``work``; a SIGTERM meanwhile cancels it as Ctrl-C would."""
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()

    def on_term() -> None:
        stop.terminated = True
        task.cancel()

    try:
        loop.add_signal_handler(signal.SIGTERM, on_term)
    except (NotImplementedError, RuntimeError):  # not the main thread: leave SIGTERM be
        return await work
    try:
        return await work
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def resume_command(argv: Sequence[str], label: str) -> str:
    """``argv`` (``proctor run ...`` as typed) with ``--label LABEL`` and ``--resume``."""
    args = list(argv)
    words = ["proctor", *args]
    if not any(a == "--label" or a.startswith("--label=") for a in args):
        words += ["--label", label]
    if "--resume" not in args:
        words.append("--resume")
    return shlex.join(words)


def say_interrupted(
    stop: Stop, label: str, console: Console, argv: Sequence[str] | None = None
) -> None:
    """Tell the user the run stopped, what is kept, and the command that continues it."""
    command = resume_command(sys.argv[1:] if argv is None else argv, label)
    console.print(
        f"[yellow]interrupted ({stop.name}):[/] the attempts that finished are kept in run "
        f"{markup(label)}; the ones in flight were not written. Continue with:\n"
        f"  {markup(command)}",
        highlight=False,
        soft_wrap=True,
    )


__all__ = ["EXIT_SIGINT", "EXIT_SIGTERM", "Stop", "resume_command", "say_interrupted", "stoppable"]
