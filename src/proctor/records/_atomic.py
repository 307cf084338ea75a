"""Atomic writes: a reader sees the old file or the new one, never half of one.

Every text written here goes through ``redact_secrets`` first, so no record,
event, report or history line holds a secret of the environment. A failing
write raises ``StorageError`` naming the path, the reason and what to do.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from proctor.errors import StorageError
from proctor.records._redact import redact_secrets

NAME_MAX = 255
"""The longest file name most file systems take."""


def _blocker(path: Path) -> Path | None:
    """The nearest existing ancestor of ``path`` (or ``path``) that is not a folder."""
    for candidate in (path, *path.parents):
        if candidate.exists() or candidate.is_symlink():
            return None if candidate.is_dir() else candidate
    return None


def storage_error(exc: OSError, path: Path, doing: str = "write") -> StorageError:
    """A one-line ``StorageError`` for ``exc``, raised while trying to ``doing`` ``path``.

    The message names the path, says what went wrong in words and what to do.
    """
    code = exc.errno
    parent = path.parent
    if code in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full" if code == errno.ENOSPC else "the disk quota is used up"
        fix = "free disk space or pass --results on another disk, then run again"
    elif code == errno.EROFS:
        why, fix = "the file system is read-only", "pass --results a writable folder"
    elif code in (errno.EACCES, errno.EPERM):
        why, fix = "permission denied", f"make {parent} writable or pass --results another folder"
    elif code in (errno.ENOTDIR, errno.EEXIST) and (blocker := _blocker(parent)) is not None:
        why, fix = f"{blocker} is a file, not a folder", "move it or pass --results another folder"
    elif code == errno.ENAMETOOLONG:
        longest = max((len(part) for part in path.parts), default=0)
        why = f"a name in the path is too long ({longest} characters; most disks allow {NAME_MAX})"
        fix = "use a shorter --label, arm name or --results path"
    elif code == errno.EISDIR:
        why, fix = f"{path} is a folder", "move it away"
    else:
        why = (exc.strerror or str(exc)).lower()
        fix = "check the results folder; `proctor doctor` looks at it"
    return StorageError(f"cannot {doing} {path}: {why}; {fix}", code)


def make_dirs(folder: Path) -> None:
    """``mkdir -p folder``.

    Raises:
        StorageError: naming the folder, when it cannot be made.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise storage_error(exc, folder, "create the folder") from exc


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``: a temp file in the same folder, fsync, then a rename.

    On any failure (a full disk, an interrupt) the temp file is removed and
    ``path`` keeps its old content, so a truncated file never lands there.
    Bytes are written as given (no redaction): this is for images.

    Raises:
        StorageError: naming the path, the reason and what to do.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:64]}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise storage_error(exc, path) from exc


def write_text_atomic(path: Path, text: str) -> None:
    """Write UTF-8 text atomically, with the environment's secrets redacted."""
    write_bytes_atomic(path, redact_secrets(text).encode("utf-8"))


def write_model_atomic(path: Path, model: BaseModel) -> None:
    """Write a pydantic model as indented JSON, atomically."""
    write_text_atomic(path, model.model_dump_json(indent=2) + "\n")


def write_jsonl_atomic(path: Path, rows: Iterable[Any]) -> None:
    """Write rows (models or JSON-able values) as JSON lines, atomically."""
    lines = []
    for row in rows:
        if isinstance(row, BaseModel):
            lines.append(row.model_dump_json())
        else:
            lines.append(json.dumps(row, default=str, ensure_ascii=False))
    write_text_atomic(path, "".join(line + "\n" for line in lines))


def _cut_partial_line(fd: int, start: int, written: int) -> None:
    """After a failed append, remove the part of the line that landed (a full disk cuts lines).

    Only when the file grew by exactly that part since ``start``: nobody else appended.
    """
    try:
        if written and os.fstat(fd).st_size == start + written:
            os.ftruncate(fd, start)
    except OSError:
        pass


def append_jsonl(path: Path, row: Any) -> None:
    """Append one JSON line with a single write, so concurrent appends never interleave.

    A file it creates is the owner's alone (0600), as the atomic writes' files are.

    Raises:
        StorageError: naming the path, the reason and what to do.
    """
    line = row.model_dump_json() if isinstance(row, BaseModel) else json.dumps(row, default=str)
    encoded = (redact_secrets(line) + "\n").encode("utf-8")
    data = memoryview(encoded)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            start = os.fstat(fd).st_size
            try:
                # os.write may write less than asked; finish the line rather than leave half of it
                while data:
                    data = data[os.write(fd, data) :]
            except OSError:
                _cut_partial_line(fd, start, len(encoded) - len(data))
                raise
        finally:
            os.close(fd)
    except OSError as exc:
        raise storage_error(exc, path, "append to") from exc


LOCK_SECONDS = 30.0
"""How long a writer waits for another to finish rewriting a shared JSON lines file."""


@contextlib.contextmanager
def _folder_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path``'s folder (flock, so a killed holder lets go), waited for
    at most ``LOCK_SECONDS``.

    Raises:
        StorageError: the folder cannot be opened, or another writer held it too long.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise storage_error(exc, path) from exc
    try:
        deadline = time.monotonic() + LOCK_SECONDS
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StorageError(
                        f"cannot write {path}: another proctor held its folder locked for "
                        f"{LOCK_SECONDS:g} s; run again once it has finished"
                    ) from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def put_jsonl_row(path: Path, key: str, row: dict[str, Any]) -> None:
    """Make ``row`` the one line of the JSON lines file ``path`` whose ``key`` is ``row[key]``.

    The first line with that value is replaced in place and any later one dropped;
    a row no line has is appended. Other lines are kept byte for byte (one that is
    not JSON too). The file is rewritten atomically, under a lock on its folder, so
    two runs finishing at once never lose each other's line.

    Raises:
        StorageError: naming the path, the reason and what to do.
    """
    line = redact_secrets(json.dumps(row, default=str))
    with _folder_lock(path):
        try:
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
        except FileNotFoundError:
            text = ""
        except OSError as exc:
            raise storage_error(exc, path, "read") from exc
        lines: list[str] = []
        placed = False
        for old in text.splitlines():
            try:
                found = json.loads(old)
            except ValueError:
                found = None
            if isinstance(found, dict) and key in found and found[key] == row[key]:
                if not placed:
                    lines.append(line)
                    placed = True
                continue
            lines.append(old)
        if not placed:
            lines.append(line)
        data = "".join(f"{one}\n" for one in lines)
        write_bytes_atomic(path, data.encode("utf-8", errors="surrogateescape"))
