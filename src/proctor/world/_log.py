"""The fixture server's request log: every request, tagged by attempt."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping
from typing import Any

from proctor.records import WebRequest
from proctor.vocab import Crossing, Refusal

MAX_STORED_VALUE = 64 * 1024
"""Longest form value or JSON body kept in the log; longer ones are cut and marked."""


class RequestLog:
    """A thread-safe, append-only log of requests, read back per attempt.

    The server thread appends; the harness reads. Entries are never changed
    after they are appended.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: list[WebRequest] = []
        self._seq: dict[str | None, int] = {}
        """The last seq of each attempt: numbered within the attempt, so a record
        does not depend on which worker ran it or what it ran before."""

    def append(
        self,
        *,
        attempt: str | None,
        method: str,
        host: str,
        path: str,
        query: Mapping[str, list[str]] | None = None,
        form: Mapping[str, list[str]] | None = None,
        files: Mapping[str, list[dict[str, Any]]] | None = None,
        json_body: Any = None,
        cookies: list[str] | None = None,
        status: int,
        blocked: bool = False,
        fault: str | None = None,
        crossing: Crossing | None = None,
        refused: Refusal | None = None,
        url: str | None = None,
    ) -> WebRequest:
        """Append one entry and return it; long values are cut to bound the log's memory."""
        with self._lock:
            seq = self._seq[attempt] = self._seq.get(attempt, 0) + 1
            entry = WebRequest(
                seq=seq,
                time=time.time(),
                attempt=attempt,
                method=method,
                host=host,
                path=path,
                query=dict(query or {}),
                form=_bounded_form(form or {}),
                files=dict(files or {}),
                json_body=_bounded_json(json_body),
                cookies=sorted(cookies or []),
                status=status,
                blocked=blocked,
                fault=fault,
                crossing=crossing,
                refused=refused,
                url=url[:2048] if url is not None else None,
            )
            self._entries.append(entry)
            return entry

    def for_attempt(self, attempt: str) -> list[WebRequest]:
        """The entries of one attempt, in arrival order."""
        with self._lock:
            return [e for e in self._entries if e.attempt == attempt]

    def unattributed(self) -> list[WebRequest]:
        """The entries of no attempt (untagged, or tagged with an attempt not active)."""
        with self._lock:
            return [e for e in self._entries if e.attempt is None]

    def drop_attempt(self, attempt: str) -> None:
        """Forget an attempt's entries once its end state is taken, to bound memory.

        Entries that belong to no attempt (untagged, or tagged with an attempt that
        had already ended) go too: nothing grades them, and kept they would grow the
        server without bound.
        """
        with self._lock:
            self._entries = [
                e for e in self._entries if e.attempt is not None and e.attempt != attempt
            ]
            self._seq.pop(attempt, None)
            self._seq.pop(None, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


def _cut(value: str) -> str:
    if len(value) <= MAX_STORED_VALUE:
        return value
    return value[:MAX_STORED_VALUE] + f"...[cut: {len(value)} characters]"


def _bounded_form(form: Mapping[str, list[str]]) -> dict[str, list[str]]:
    return {_cut(k): [_cut(v) for v in values] for k, values in form.items()}


def _bounded_json(body: Any) -> Any:
    """The JSON body, or a marker when its text is over the bound."""
    if body is None:
        return None
    try:
        text = json.dumps(body)
    except (ValueError, RecursionError):
        return {"proctor_unloggable": "the JSON body is too deep to keep"}
    if len(text) > MAX_STORED_VALUE:
        return {"proctor_cut": f"a JSON body of {len(text)} characters"}
    return body
