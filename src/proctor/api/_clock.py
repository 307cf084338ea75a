"""The run clock: one time every worker and every leg of a run reads dates from."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from pathlib import Path

from proctor.api._folder import stored_info
from proctor.errors import RunError
from proctor.runner import RunOptions

CLOCK_ENV = "PROCTOR_CLOCK"
"""An ISO 8601 time with its zone: the run clock of new runs (reproducible dated pages)."""


def run_clock(options: RunOptions, results: Path, label: str | None, resume: bool) -> dt.datetime:
    """The run's clock: a resumed run's own, else the options', $PROCTOR_CLOCK, or now.

    Every worker and every leg of a run reads dates from this one clock.

    Raises:
        RunError: $PROCTOR_CLOCK is not an ISO 8601 time with a zone.
    """
    if resume and label:
        stored = stored_info(results / label)
        text = stored.config.get("clock") if stored is not None else None
        if isinstance(text, str):
            with contextlib.suppress(ValueError):
                return dt.datetime.fromisoformat(text)
    if options.clock is not None:
        return options.clock
    text = os.environ.get(CLOCK_ENV, "").strip()
    if text:
        try:
            clock = dt.datetime.fromisoformat(text)
        except ValueError:
            clock = None
        if clock is None or clock.tzinfo is None:
            raise RunError(
                f"{CLOCK_ENV}={text!r} is not an ISO 8601 time with its zone, "
                "e.g. 2026-11-02T09:30:00+00:00"
            )
        return clock
    return dt.datetime.now(dt.UTC).replace(microsecond=0)
