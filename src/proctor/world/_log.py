"""The fixture server's request log: every request, tagged by attempt."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

from proctor.records import WebRequest


class RequestLog:
    """A thread-safe, append-only log of requests, read back per attempt.

    The server thread appends; the harness reads. Entries are never changed
    after they are appended.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: list[WebRequest] = []
        self._seq = 0

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
        crossing: str | None = None,
    ) -> WebRequest:
        """Append one entry and return it."""
        with self._lock:
            self._seq += 1
            entry = WebRequest(
                seq=self._seq,
                time=time.time(),
                attempt=attempt,
                method=method,
                host=host,
                path=path,
                query=dict(query or {}),
                form=dict(form or {}),
                files=dict(files or {}),
                json_body=json_body,
                cookies=sorted(cookies or []),
                status=status,
                blocked=blocked,
                fault=fault,
                crossing=crossing,
            )
            self._entries.append(entry)
            return entry

    def for_attempt(self, attempt: str) -> list[WebRequest]:
        """The entries of one attempt, in arrival order."""
        with self._lock:
            return [e for e in self._entries if e.attempt == attempt]

    def drop_attempt(self, attempt: str) -> None:
        """Forget an attempt's entries once they are recorded, to bound memory."""
        with self._lock:
            self._entries = [e for e in self._entries if e.attempt != attempt]

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
