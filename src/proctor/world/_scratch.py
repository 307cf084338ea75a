"""Scratch folders: the files an attempt starts with, and what they hold at the end."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable
from pathlib import Path

from proctor.errors import WorldError
from proctor.records import FileFact, storage_error
from proctor.scenario import FileSeed
from proctor.world.files import content_bytes, csv_rows, pdf_pages, rich_outline

TEXT_LIMIT = 64 * 1024
"""Files up to this size keep their UTF-8 text in the end state."""
DOCUMENT_LIMIT = 16 * 1024 * 1024
"""PDFs and rich-text files up to this size are read for their checks."""
ROWS_LIMIT = 2 * 1024 * 1024
"""CSV files up to this size keep their rows in the end state."""
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

    Generated files (``generate:``) and trees are built here, so the recorded
    SHA-256 is that of the exact bytes written.

    Raises:
        WorldError: when the folder already exists or a file cannot be written.
    """
    try:
        scratch.mkdir(parents=True, exist_ok=False)
    except FileExistsError as exc:
        raise WorldError(f"scratch folder {scratch} already exists; refusing to reuse it") from exc
    except OSError as exc:  # a full or read-only disk stops the run; it is no infra fault
        raise storage_error(exc, scratch, "create the folder") from exc
    originals: dict[str, str] = {}
    try:
        (scratch / "output").mkdir()
        for folder in dirs:
            (scratch / folder).mkdir(parents=True, exist_ok=True)
        for seed in files:
            for rel, content in seed.entries():
                target = scratch / rel
                if content is None:
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                data = content_bytes(content, rel)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                originals[rel] = hashlib.sha256(data).hexdigest()
    except OSError as exc:
        raise WorldError(f"could not seed scratch folder {scratch}: {exc}") from exc
    return originals


def snapshot_files(scratch: Path) -> dict[str, FileFact]:
    """Every regular file under the scratch folder (but the browser profile).

    Small UTF-8 files keep their text; PDFs their pages' text, CSVs their rows,
    HTML and RTF documents their headings and list items, so that the checks
    never need the disk.
    """
    facts: dict[str, FileFact] = {}
    if not scratch.is_dir():
        return facts
    for path in sorted(scratch.rglob("*")):
        rel = path.relative_to(scratch)
        if rel.parts[0] in SKIP_DIRS or not path.is_file() or path.is_symlink():
            continue
        facts[rel.as_posix()] = _fact(path)
    return facts


def snapshot_dirs(scratch: Path) -> list[str]:
    """Every folder under the scratch folder (but the browser profile), relative, sorted."""
    if not scratch.is_dir():
        return []
    return sorted(
        rel.as_posix()
        for rel in (p.relative_to(scratch) for p in scratch.rglob("*") if p.is_dir())
        if rel.parts[0] not in SKIP_DIRS and not (scratch / rel).is_symlink()
    )


def _fact(path: Path) -> FileFact:
    size = path.stat().st_size
    name = path.name.lower()
    data = path.read_bytes() if size <= DOCUMENT_LIMIT else None
    text: str | None = None
    if data is not None and size <= TEXT_LIMIT:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
    digest = hashlib.sha256(data).hexdigest() if data is not None else sha256_of(path)
    fact = FileFact(sha256=digest, size=size, text=text)
    if data is None:
        return fact
    updates: dict[str, object] = {}
    if name.endswith(".pdf") or data.startswith(b"%PDF-"):
        updates["pages"] = pdf_pages(data)
    elif name.endswith((".csv", ".tsv")) and size <= ROWS_LIMIT:
        try:
            decoded = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            decoded = None
        if decoded is not None:
            updates["rows"] = csv_rows(decoded, "\t" if name.endswith(".tsv") else None)
    else:
        outline = rich_outline(data, name)
        if outline is not None:
            updates["headings"] = outline.headings
            updates["list_items"] = outline.list_items
    return fact.model_copy(update=updates) if updates else fact


def remove_scratch(scratch: Path) -> None:
    """Delete a scratch folder; a missing one is fine."""
    shutil.rmtree(scratch, ignore_errors=True)
