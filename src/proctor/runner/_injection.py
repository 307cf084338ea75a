"""The try's injection points: the faults ``PROCTOR_INJECT`` asks for (tests only)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from typing import Literal

from proctor._inject import due, injections
from proctor.runner._worker import Worker


def inject_at(worker: Worker, tag: str, at: int | Literal["done"]) -> None:
    """Cause the faults ``PROCTOR_INJECT`` asks for at this point of the try ``tag``."""
    if not injections():
        return
    if due("worker", at, tag):
        os.kill(os.getpid(), signal.SIGKILL)
    if due("hang", at, tag):
        time.sleep(24 * 3600)  # a stalled call that blocks the loop: only a kill ends it
    for kind in ("browser", "driver"):
        if due(kind, at, tag):
            browser, driver = worker.host.process_ids()
            victim = browser if kind == "browser" else driver
            if victim is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(victim, signal.SIGKILL)
