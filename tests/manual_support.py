"""What the manual tests share: the case's server run in the test's own loop."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from proctor.manual import Served, serve


@contextlib.asynccontextmanager
async def serving(folder: Path, *, revoke_after_first: bool = False) -> AsyncIterator[Served]:
    """``serve`` in this loop for the body of the block; stopped, and its state saved, after."""
    stop = asyncio.Event()
    got: asyncio.Future[Served] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(
        serve(folder, revoke_after_first=revoke_after_first, ready=got.set_result, stop=stop)
    )
    done, _ = await asyncio.wait({got, task}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    if got not in done:
        if task.done():
            task.result()  # serve refused: its error is the test's to see
        task.cancel()
        raise AssertionError("serve did not start within 30 s")
    try:
        yield got.result()
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)
