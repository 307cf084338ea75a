"""The files of a run that are not attempts: run.json, events.jsonl lines, the control file."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from proctor.records._models import SCHEMA_VERSION, _Record


class RunInfo(_Record):
    """run.json: how a run was made."""

    version: int = SCHEMA_VERSION
    label: str
    started_at: float
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


class TraceEvent(BaseModel):
    """One line of events.jsonl: when, what kind, and the kind's own fields.

    The fields beside ``time`` and ``kind`` depend on the kind (``step``: index, op,
    status, error; ``stdout``: line; ``blocked``: method, url, refused; ...), so
    they are kept as given, flat, as the trace has always been written.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    time: float = Field(description="Unix time of the event.")
    kind: str = Field(min_length=1, description="What happened, e.g. step, stdout, blocked.")


class ControlFile(_Record):
    """results/<label>/control-<pid>.json: where ``proctor lease revoke`` reaches a worker.

    Mode 0600, removed when the worker stops; the token never reaches a browser.
    """

    url: str = Field(description="The worker's lease-revocation endpoint on loopback.")
    token: str = Field(min_length=16, description="The worker's control secret.")
    pid: int = Field(description="The worker's process id.")
