"""The desktop tests' session: this process's shared desktop (libatspi binds one per process)."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator

import pytest

from proctor.computer.desktop import DesktopHost, DesktopSession, missing_stack

# Under CI (`make test` on a fresh machine) bootstrap installs the stack, so its absence
# is a failure there, never a quiet skip.
STRICT = os.environ.get("CI", "").lower() in ("1", "true", "yes")
if STRICT:
    import gi  # noqa: F401  (fails the collection: bootstrap did not install proctor[desktop])
pytest.importorskip("gi", reason="the desktop tier needs PyGObject ('PyGObject<3.50')")

APPS = ("galculator", "mousepad")


def stack_missing() -> list[str]:
    return missing_stack() + [app for app in APPS if shutil.which(app) is None]


@pytest.fixture(scope="session")
def session() -> Iterator[DesktopSession]:
    """The desktop of this test process, shared with any worker the process runs."""
    missing = stack_missing()
    if missing and STRICT:
        pytest.fail("bootstrap did not install the desktop stack: " + ", ".join(missing))
    if missing:
        pytest.skip("the desktop stack is missing: " + ", ".join(missing))
    host = asyncio.run(DesktopHost.acquire())
    try:
        yield host.session
    finally:
        asyncio.run(DesktopHost.release())
