"""The files of a run that are not attempts: run.json, events.jsonl lines, the control file."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from proctor.records._record import SCHEMA_VERSION, Record
from proctor.vocab import ExecutorKind


class Leg(Record):
    """One stretch of a run: the first start, or a ``--resume``, until it ended."""

    started_at: float
    ended_at: float | None = Field(default=None, description="None: killed, or still running.")
    executor: ExecutorKind | None = Field(default=None, description="inline, pool or ray.")
    workers: int | None = None
    pid: int | None = Field(default=None, description="The driver process of the leg.")


class RunInfo(Record):
    """run.json: how a run was made."""

    version: int = SCHEMA_VERSION
    label: str
    started_at: float = Field(description="When the first leg started (kept on --resume).")
    command: list[str]
    config: dict[str, Any]
    proctor_version: str
    python: str
    platform: str
    chromium: str | None
    playwright: str | None
    git_commit: str | None
    git_dirty: bool | None
    machine: dict[str, Any]
    seal: dict[str, str] | None = Field(
        default=None,
        description="How offline attempts were sealed: level (sealed: Chromium in a private "
        "network namespace; partial: driver-side locks only; online) and detail. Set once "
        "the worker started.",
    )
    legs: list[Leg] = Field(
        default_factory=list, description="Each leg: the first start, then every --resume."
    )
    budget_usd: float | None = Field(default=None, description="--budget, when one was set.")


class TraceEvent(BaseModel):
    """One line of events.jsonl: when, what kind, and the kind's own fields.

    The fields beside ``time`` and ``kind`` depend on the kind (``step``: index, op,
    status, error; ``stdout``: line; ``blocked``: method, url, refused; ...), so
    they are kept as given, flat, as the trace has always been written.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    time: float = Field(description="Unix time of the event.")
    kind: str = Field(min_length=1, description="What happened, e.g. step, stdout, blocked.")


class ControlFile(Record):
    """results/<label>/control-<pid>.json: where ``proctor lease revoke`` reaches a worker.

    Mode 0600, removed when the worker stops; the token never reaches a browser.
    """

    url: str = Field(description="The worker's lease-revocation endpoint on loopback.")
    token: str = Field(min_length=16, description="The worker's control secret.")
    pid: int = Field(description="The worker's process id.")
