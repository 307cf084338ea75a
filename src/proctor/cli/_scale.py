"""Options that say where and how fast attempts run: executor, workers, retries, budget."""

from __future__ import annotations

import math
import os
from typing import Annotated

import typer

from proctor.errors import RunError
from proctor.vocab import EXECUTORS, ExecutorKind

ExecutorOpt = Annotated[
    str,
    typer.Option(
        "--executor",
        help="Where attempts run: inline (this process), pool (--workers processes) "
        "or ray (Ray actors; --ray-address joins a cluster). The results tree is the same.",
    ),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        help="Concurrent workers, each with its own browser and fixture server "
        "(default 1; more than 1 implies --executor pool).",
    ),
]
RayAddressOpt = Annotated[
    str | None,
    typer.Option("--ray-address", help="A Ray cluster to join (ray start --head prints it)."),
]
BudgetOpt = Annotated[
    float | None,
    typer.Option(
        "--budget",
        help="USD cap: no attempt starts once spent $ plus the in-flight estimate would pass "
        "it; those not run are recorded not_run: budget (missing, never failed).",
    ),
]
RetryDelaysOpt = Annotated[
    str,
    typer.Option(
        "--retry-delays",
        envvar="PROCTOR_RETRY_DELAYS",
        help="Seconds before each infra-fault retry, comma-separated (the last repeats).",
    ),
]


def executor_kind(executor: str, workers: int | None) -> tuple[ExecutorKind, int]:
    """The executor and worker count the options mean (``--workers 2`` alone is a pool).

    Raises:
        RunError: an executor name that is not one of ``EXECUTORS``.
    """
    name = executor.strip().lower()
    for kind in EXECUTORS:
        if kind == name:
            if kind == "inline" and workers not in (None, 1):
                return "pool", workers or 1
            return kind, workers or 1
    raise RunError(f"--executor {executor!r}: use one of {', '.join(EXECUTORS)}")


def retry_delays(text: str) -> tuple[float, ...]:
    """``30,90`` -> (30.0, 90.0).

    Raises:
        RunError: naming the part that is not a number of seconds at least 0.
    """
    delays: list[float] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            value = float(part)
        except ValueError:
            value = math.nan
        if not value >= 0 or math.isinf(value):
            raise RunError(
                f"--retry-delays {text!r}: {part!r} is not a number of seconds (>= 0); "
                "e.g. --retry-delays 30,90"
            )
        delays.append(value)
    return tuple(delays)


def default_retry_delays() -> tuple[float, ...]:
    """The retry delays of commands without ``--retry-delays``: $PROCTOR_RETRY_DELAYS or 30,90."""
    return retry_delays(os.environ.get("PROCTOR_RETRY_DELAYS", "30,90"))
