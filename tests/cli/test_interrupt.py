"""SIGTERM stops a run as Ctrl-C does (cancelled, closed, resumable), and both print the
exact command that continues it. The Ctrl-C end to end is in runner/test_kill_resume."""

from __future__ import annotations

import asyncio
import os
import shlex
import signal

import pytest
from rich.console import Console

from proctor.cli._interrupt import EXIT_SIGTERM, Stop, resume_command, say_interrupted, stoppable


async def _wait_forever(started: asyncio.Event, cleaned: list[str]) -> None:
    started.set()
    try:
        await asyncio.Event().wait()
    finally:
        cleaned.append("finally ran")


def test_sigterm_cancels_the_run_as_ctrl_c_does_and_its_finally_blocks_run() -> None:
    stop = Stop()
    cleaned: list[str] = []

    async def main() -> None:
        started = asyncio.Event()
        work = asyncio.ensure_future(stoppable(_wait_forever(started, cleaned), stop))
        await started.wait()
        os.kill(os.getpid(), signal.SIGTERM)
        await work

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(main())
    assert stop.terminated and stop.exit_code == EXIT_SIGTERM
    assert cleaned == ["finally ran"]
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is gone again


def test_the_resume_command_is_what_was_typed_with_the_label_and_resume() -> None:
    typed = ["run", "--tier", "local", "--arm", "mine=command:python my agent.py"]
    assert resume_command(typed, "20261204-1") == shlex.join(
        ["proctor", *typed, "--label", "20261204-1", "--resume"]
    )
    labelled = ["run", "--label", "r1", "--only", "a,b"]
    assert resume_command(labelled, "r1") == "proctor run --label r1 --only a,b --resume"
    again = ["run", "--label=r1", "--resume"]
    assert resume_command(again, "r1") == "proctor run --label=r1 --resume"


def test_the_message_names_the_signal_the_run_and_the_command() -> None:
    console = Console(width=60, record=True, color_system=None)
    say_interrupted(Stop(terminated=True), "r1", console, ["run", "--tier", "local"])
    text = console.export_text()
    assert "interrupted (SIGTERM)" in text and "run r1" in text
    assert "\n  proctor run --tier local --label r1 --resume\n" in text
