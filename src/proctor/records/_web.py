"""What the browser did and the world saw: the requests of an attempt, and its tabs."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from proctor.records._record import Record
from proctor.vocab import (
    Crossing,
    Refusal,
)


class WebRequest(Record):
    """One request seen by the fixture server, or blocked by the browser."""

    seq: int = Field(description="Order of arrival within the attempt's try (from 1).")
    time: float = Field(description="Unix time of arrival.")
    attempt: str | None = Field(description="Attempt id the request belongs to.")
    method: str
    host: str = Field(description="Host header without port, e.g. forms.proctor.test.")
    path: str
    query: dict[str, list[str]] = Field(default_factory=dict)
    form: dict[str, list[str]] = Field(default_factory=dict, description="Form fields, by name.")
    files: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="Uploaded files by field: filename, size, sha256."
    )
    json_body: Any = Field(default=None, description="Parsed JSON body, if any.")
    cookies: list[str] = Field(default_factory=list, description="Names of cookies sent.")
    status: int = Field(description="Response status; 0 when the request was blocked.")
    blocked: bool = Field(default=False, description="Aborted before leaving the browser.")
    refused: Refusal | None = Field(
        default=None,
        description="Why the seal refused it: offworld (a host outside the world), scheme "
        "(file:, javascript:, data:, ...), websocket, host_lane (the world reached from "
        "outside the attempt's browser), body (a body that could not be read in time), "
        "unattributed (a request of the world without the tag of an active attempt: "
        "answered 403 and kept out of every attempt's log).",
    )
    url: str | None = Field(default=None, description="The refused URL, for refusals.")
    fault: str | None = Field(default=None, description="Server-side exception, if any.")
    crossing: Crossing | None = Field(
        default=None,
        description="Kind of sensitive control activated: payment, signin, destructive.",
    )


class Tab(Record):
    """One browser tab at the end of an attempt."""

    index: int
    url: str
    title: str
    active: bool
