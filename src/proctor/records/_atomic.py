"""Atomic writes: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from proctor.errors import RunError


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temp file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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
        raise RunError(f"could not write {path}: {exc}") from exc


def write_text_atomic(path: Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))


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


def append_jsonl(path: Path, row: Any) -> None:
    """Append one JSON line with a single write, so concurrent appends never interleave."""
    line = row.model_dump_json() if isinstance(row, BaseModel) else json.dumps(row, default=str)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            data = memoryview((line + "\n").encode("utf-8"))
            # os.write may write less than asked; finish the line rather than leave half of it
            while data:
                data = data[os.write(fd, data) :]
        finally:
            os.close(fd)
    except OSError as exc:
        raise RunError(f"could not append to {path}: {exc}") from exc
