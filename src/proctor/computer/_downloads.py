"""Where a download is saved: its suggested name in the downloads folder, kept apart as Chromium
keeps it.

A second download of a name already taken does not overwrite the first: it is
saved as ``name (1).pdf``, then ``name (2).pdf``, and so on, the number before
the extension (before both of a double one such as ``.tar.gz``). A name is
taken when a file of that name is in the folder or a download still being
saved was given it.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import NamedTuple

DOUBLE_SUFFIXES = frozenset({".gz", ".xz", ".bz2", ".bz", ".z", ".zst"})
"""Compression suffixes that keep the suffix before them as part of the extension, as
Chromium's ``FilePath::Extension`` does (``logs.tar.gz`` -> ``logs (1).tar.gz``)."""


class SavedDownload(NamedTuple):
    """A download saved in the scratch folder."""

    path: str
    """Where it was saved, relative to the scratch folder: ``output/statement (1).pdf``."""
    suggested: str
    """The name the site suggested: ``statement.pdf``."""

    @property
    def renamed(self) -> bool:
        """Whether it was saved under another name than the one suggested (that one was taken)."""
        return Path(self.path).name != (Path(self.suggested).name or "download")


def split_extension(name: str) -> tuple[str, str]:
    """``name`` as (stem, extension): ``a.pdf`` -> (a, .pdf); ``a.tar.gz`` -> (a, .tar.gz)."""
    suffixes = Path(name).suffixes  # none for a dotfile: .env stays whole
    if not suffixes:
        return name, ""
    ext = suffixes[-1]
    if ext.lower() in DOUBLE_SUFFIXES and len(suffixes) >= 2 and 2 <= len(suffixes[-2]) <= 5:
        ext = suffixes[-2] + ext
    stem = name[: len(name) - len(ext)]
    return (stem, ext) if stem else (name, "")


def numbered(name: str, n: int) -> str:
    """The ``n``-th other name for ``name``: ``statement (1).pdf``."""
    stem, ext = split_extension(name)
    return f"{stem} ({n}){ext}"


def free_name(folder: Path, suggested: str, reserved: set[str]) -> str:
    """The name to save a download as: ``suggested`` (its last path part; ``download`` when it
    is empty), or the first numbered name that is neither a file in ``folder`` nor reserved."""
    name = Path(suggested).name or "download"
    for candidate in itertools.chain([name], (numbered(name, n) for n in itertools.count(1))):
        if candidate not in reserved and not (folder / candidate).exists():
            return candidate
    raise AssertionError("unreachable: itertools.count never ends")
