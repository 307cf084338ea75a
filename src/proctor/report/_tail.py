"""Following a run as it runs: events.jsonl lines as they are appended, and which attempts are live.

A worker appends an attempt's events.jsonl one flushed line per event; each try
starts the file afresh, and the record phase rewrites the same lines atomically
before attempt.json, the completion marker, lands. ``Follower`` reads only
whole lines, notices a restarted file (shorter than what was read) and says
so, and keeps its place across the atomic rewrite (same lines, new inode).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from proctor.errors import RunError
from proctor.records import AttemptRecord, Leg
from proctor.vocab import RunState

EVENTS = "events.jsonl"
RECORD = "attempt.json"
SKIPPED_FIELDS = frozenset({"time", "kind"})
LINE_LIMIT = 300


@dataclass(frozen=True)
class Restarted:
    """The file started afresh: a retry of the attempt began."""


@dataclass
class Follower:
    """Whole new lines of one events.jsonl, read from where the last call stopped."""

    path: Path
    offset: int = 0
    partial: bytes = b""
    _inode: int | None = field(default=None, repr=False)
    _head: bytes = field(default=b"", repr=False)

    def read(self) -> Iterator[dict[str, Any] | Restarted]:
        """Every whole line appended since the last read (parsed), after a ``Restarted``
        when the file was started afresh. A line that is not JSON is yielded as
        ``{"kind": "unreadable", "line": ...}``."""
        try:
            with self.path.open("rb") as fh:
                stat = os.fstat(fh.fileno())
                if self._inode is not None and stat.st_ino != self._inode:
                    # A new file: the record phase's rewrite (the same lines) or a new try.
                    head = fh.readline()
                    if stat.st_size < self.offset or (self._head and head != self._head):
                        self.offset, self.partial, self._head = 0, b"", b""
                        yield Restarted()
                elif stat.st_size < self.offset + len(self.partial):
                    self.offset, self.partial, self._head = 0, b"", b""
                    yield Restarted()
                self._inode = stat.st_ino
                fh.seek(self.offset + len(self.partial))
                data = self.partial + fh.read()
        except FileNotFoundError:
            return
        lines = data.split(b"\n")
        self.partial = lines.pop()
        for raw in lines:
            if self.offset == 0:
                self._head = raw + b"\n"
            self.offset += len(raw) + 1
            if raw.strip():
                yield _parse(raw)


def _parse(raw: bytes) -> dict[str, Any]:
    text = raw.decode("utf-8", errors="replace")
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"kind": "unreadable", "line": text}
    return value if isinstance(value, dict) else {"kind": "unreadable", "line": text}


def event_line(event: dict[str, Any], start: float | None) -> str:
    """One event for people: seconds since the attempt began, the kind, then its fields."""
    when = event.get("time")
    stamp = f"{when - start:+8.2f}s" if isinstance(when, int | float) and start else " " * 9
    fields = []
    for key, value in event.items():
        if key in SKIPPED_FIELDS or value is None or value == "":
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        fields.append(f"{key}={text}")
    line = f"{stamp} {event.get('kind', '?')} {' '.join(fields)}".rstrip()
    return line if len(line) <= LINE_LIMIT else line[: LINE_LIMIT - 1] + "…"


def attempt_dir(run_dir: Path, attempt: str) -> Path:
    """The folder of attempt ``scenario/arm-n`` in the run.

    Raises:
        RunError: naming the attempt and how to list a run's attempts.
    """
    parts = attempt.strip("/").split("/")
    folder = run_dir / "attempts" / Path(*parts) if len(parts) == 2 and all(parts) else None
    if folder is None or ".." in parts or not folder.is_dir():
        raise RunError(
            f"run {run_dir.name!r} has no attempt {attempt!r}; attempt ids read "
            f"SCENARIO/ARM-N, the folders under {run_dir / 'attempts'} "
            f"(`proctor tail {run_dir.name}` follows the attempts in flight)"
        )
    return folder


def attempt_id(run_dir: Path, folder: Path) -> str:
    return folder.relative_to(run_dir / "attempts").as_posix()


def live_attempts(run_dir: Path) -> list[Path]:
    """Attempt folders with a trace and no attempt.json yet: in flight (or cut by a kill)."""
    root = run_dir / "attempts"
    if not root.is_dir():
        return []
    found = [
        folder
        for folder in root.glob("*/*")
        if (folder / EVENTS).is_file() and not (folder / RECORD).is_file()
    ]
    return sorted(found, key=lambda f: ((f / EVENTS).stat().st_mtime, f.as_posix()))


def finished_record(folder: Path) -> AttemptRecord | None:
    """The attempt's record once it is written; None while it runs."""
    path = folder / RECORD
    try:
        return AttemptRecord.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        return None
    except (OSError, ValidationError) as exc:
        raise RunError(f"cannot read {path}: {exc}") from exc


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def run_state(run_dir: Path) -> RunState:
    """Whether the run's driver is still at work, from run.json's legs.

    Only the legs are read, so a run.json of any version answers. No run.json
    (a run folder made by hand) is ended.

    Raises:
        RunError: when run.json is there but is not JSON with a list of legs.
    """
    path = run_dir / "run.json"
    try:
        data = json.loads(path.read_bytes())
        legs = [Leg.model_validate(leg) for leg in data.get("legs", [])]
    except FileNotFoundError:
        return "ended"
    except (OSError, ValueError, AttributeError, TypeError, ValidationError) as exc:
        raise RunError(f"cannot read the legs of {path}: {exc}") from exc
    if not legs or legs[-1].ended_at is not None:
        return "ended"
    pid = legs[-1].pid
    return "running" if pid is None or _alive(pid) else "gone"
