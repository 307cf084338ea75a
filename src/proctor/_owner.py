"""The owner mark: how every process a run starts can be found after ``kill -9``.

A run's processes put ``PROCTOR_OWNER=<pid>:<start>`` in their environment when
they claim the run (``runner._leftovers.claim``); everything started afterwards
inherits it, so ``proctor cleanup`` finds the orphans of a dead owner. A process
started with an environment built from scratch (the desktop session's Xvfb,
buses and apps) must copy the mark in itself: ``owner_env``.
"""

from __future__ import annotations

import os

OWNER_ENV = "PROCTOR_OWNER"
"""The environment variable that marks every process a run started: ``<pid>:<start>``."""


def owner_env() -> dict[str, str]:
    """This process's owner mark as an environment entry (empty when it claimed no run)."""
    mark = os.environ.get(OWNER_ENV)
    return {OWNER_ENV: mark} if mark else {}
