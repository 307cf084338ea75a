"""Scratch folders: the files an attempt starts with, and what they hold at the end."""

from __future__ import annotations

import base64
import binascii
import hashlib
import shutil
from collections.abc import Iterable
from pathlib import Path

from proctor.errors import WorldError
from proctor.records import FileFact
from proctor.scenario import FileSeed

TEXT_LIMIT = 64 * 1024
SKIP_DIRS = frozenset({"profile"})


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def seed_scratch(
    scratch: Path, files: Iterable[FileSeed], dirs: Iterable[str] = ()
) -> dict[str, str]:
    """Create the scratch folder with its seeded files; return each file's SHA-256.

    Raises:
        WorldError: when the folder already exists or a file cannot be written.
    """
    try:
        scratch.mkdir(parents=True, exist_ok=False)
    except FileExistsError as exc:
        raise WorldError(f"scratch folder {scratch} already exists; refusing to reuse it") from exc
    originals: dict[str, str] = {}
    try:
        (scratch / "output").mkdir()
        for folder in dirs:
            (scratch / folder).mkdir(parents=True, exist_ok=True)
        for seed in files:
            target = scratch / seed.path
            target.parent.mkdir(parents=True, exist_ok=True)
            if seed.text is not None:
                data = seed.text.encode("utf-8")
            else:
                try:
                    data = base64.b64decode(seed.base64 or "", validate=True)
                except binascii.Error as exc:
                    raise WorldError(f"file {seed.path}: base64 content is invalid") from exc
            target.write_bytes(data)
            originals[seed.path] = hashlib.sha256(data).hexdigest()
    except OSError as exc:
        raise WorldError(f"could not seed scratch folder {scratch}: {exc}") from exc
    return originals


def snapshot_files(scratch: Path) -> dict[str, FileFact]:
    """Every regular file under the scratch folder (but the browser profile)."""
    facts: dict[str, FileFact] = {}
    if not scratch.is_dir():
        return facts
    for path in sorted(scratch.rglob("*")):
        rel = path.relative_to(scratch)
        if rel.parts[0] in SKIP_DIRS or not path.is_file() or path.is_symlink():
            continue
        size = path.stat().st_size
        text: str | None = None
        if size <= TEXT_LIMIT:
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                text = None
        facts[rel.as_posix()] = FileFact(sha256=sha256_of(path), size=size, text=text)
    return facts


def remove_scratch(scratch: Path) -> None:
    """Delete a scratch folder; a missing one is fine."""
    shutil.rmtree(scratch, ignore_errors=True)
