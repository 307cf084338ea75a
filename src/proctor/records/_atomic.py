"""Atomic writes: a reader sees the old file or the new one, never half of one.

Every text written here goes through ``redact_secrets`` first, so no record,
event, report or history line holds a secret of the environment. A failing
write raises ``StorageError`` naming the path, the reason and what to do.
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from collections.abc import Iterable
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

    Raises:
        StorageError: naming the path, the reason and what to do.
    """
    line = row.model_dump_json() if isinstance(row, BaseModel) else json.dumps(row, default=str)
    encoded = (redact_secrets(line) + "\n").encode("utf-8")
    data = memoryview(encoded)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
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
