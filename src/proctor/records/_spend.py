"""The spend ledger, results/<label>/spend.jsonl: a model call's spend on disk before the call.

A model agent of a run appends an ``admit`` line (the call's estimate) and only
then sends the call; once its reply is priced, a ``settle`` line (the cost; 0
when no reply came). Each line is one write under an exclusive lock on the file,
fsynced before the agent goes on, so after a kill -9 at any moment every call
that may have been billed is on disk. A line holds a try's tag, a call id and
dollars: never a request, a reply or a key.

``read_spend`` reads lines back under a shared lock, so never half of a line a
writer is writing. A line that is not a ledger line (a kill cut its write short)
is skipped and its number returned, never an error: an admission cut short is a
call that was never sent, and a settlement cut short leaves its admission counted
at the estimate. A writer that finds the file ending mid-line starts its own line
on a new one, so a cut line never swallows the next.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from proctor.errors import StorageError
from proctor.records._atomic import storage_error
from proctor.records._try_id import TryId
from proctor.vocab import SpendKind

SPEND_LEDGER = "spend.jsonl"
"""The ledger's name in the run folder."""
LOCK_SECONDS = 30.0
"""How long a writer or reader waits for another to let go of the ledger."""


class SpendLine(BaseModel):
    """One line of the spend ledger."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: SpendKind = Field(description="admit: before the call, its estimate; settle: after.")
    attempt: str = Field(min_length=1, description="The try's tag: <scenario>/<arm>-<n>#<try>.")
    call: str = Field(min_length=1, description="The call's id, unique in the run.")
    usd: float = Field(ge=0, description="Dollars: the estimate, or the priced reply.")

    @property
    def attempt_id(self) -> str:
        """The attempt's id, without the try."""
        return TryId.attempt_of(self.attempt)


@dataclass(frozen=True)
class SpendRead:
    """What one read of the ledger found.

    Attributes:
        lines: The ledger lines, in file order.
        bad: 1-based numbers of lines that were not ledger lines (cut short by a kill).
        offset: Bytes read: the next read starts there.
        next_line: The number the line at ``offset`` has.
    """

    lines: tuple[SpendLine, ...]
    bad: tuple[int, ...]
    offset: int
    next_line: int


@contextmanager
def _locked(fd: int, path: Path, kind: int) -> Iterator[None]:
    """Hold ``kind`` (LOCK_EX or LOCK_SH) on ``fd``, waited for at most ``LOCK_SECONDS``."""
    deadline = time.monotonic() + LOCK_SECONDS
    while True:
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise StorageError(
                    f"cannot use {path}: another process held it locked for {LOCK_SECONDS:g} s; "
                    "run again once it has finished"
                ) from None
            time.sleep(0.01)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


def append_spend(path: Path, line: SpendLine) -> None:
    """Append ``line`` to the ledger at ``path`` and fsync it (a new file is 0600).

    Raises:
        StorageError: naming the path, the reason and what to do.
    """
    data = line.model_dump_json().encode() + b"\n"
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        raise storage_error(exc, path, "append to") from exc
    try:
        with _locked(fd, path, fcntl.LOCK_EX):
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data  # a kill cut the last line: this one starts afresh
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        if size == 0:  # a new file: its name must survive a crash too
            _sync_folder(path.parent)
    except OSError as exc:
        raise storage_error(exc, path, "append to") from exc
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_spend(path: Path, offset: int = 0, next_line: int = 1, *, tail: bool = False) -> SpendRead:
    """The ledger's lines from byte ``offset`` on (numbered from ``next_line``).

    A last line without its newline is left for the next read (a writer may still
    be adding to it), unless ``tail``: no writer is up, so it is read now.

    Raises:
        StorageError: the ledger exists but cannot be read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return SpendRead((), (), offset, next_line)
    except OSError as exc:
        raise storage_error(exc, path, "read") from exc
    try:
        with _locked(fd, path, fcntl.LOCK_SH):
            size = os.fstat(fd).st_size
            chunks = []
            at = offset
            while at < size:
                chunk = os.pread(fd, size - at, at)
                if not chunk:
                    break
                chunks.append(chunk)
                at += len(chunk)
    except OSError as exc:
        raise storage_error(exc, path, "read") from exc
    finally:
        os.close(fd)
    data = b"".join(chunks)
    end = len(data) if tail else data.rfind(b"\n") + 1
    lines: list[SpendLine] = []
    bad: list[int] = []
    number = next_line
    for raw in data[:end].split(b"\n"):
        if not raw.strip():
            continue  # the end of a cut line read before, or the file's last newline
        try:
            lines.append(SpendLine.model_validate_json(raw))
        except ValidationError:
            bad.append(number)
        number += 1
    return SpendRead(tuple(lines), tuple(bad), offset + end, number)
