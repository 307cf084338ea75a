"""An attempt's screenshots in report.html: a small embedded thumbnail linking the full PNG.

Embedding before.png and after.png whole made report.html ~180 KB per attempt (9 MB for
50). The page embeds a JPEG thumbnail of each, at most ``THUMB_BYTES``, and links the
full PNG by its path relative to the run folder (``attempts/<scenario>/<arm>-<n>/after.png``),
so the report stays small and offline, and the full image opens beside it.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from PIL import Image, UnidentifiedImageError

SHOTS = ("before", "after")
THUMB_WIDTH = 320
"""The widest a thumbnail is drawn (CSS pixels of the page's figure)."""
THUMB_BYTES = 10_000
"""The most one thumbnail's JPEG may weigh (its data URI is a third more)."""
QUALITIES = (60, 45, 30)
"""JPEG qualities tried in turn, before the thumbnail is made narrower."""
NARROWEST = 80


@dataclass(frozen=True)
class Shot:
    """One screenshot as the page shows it."""

    name: str
    """``before`` or ``after``."""
    href: str
    """The full PNG, relative to the run folder (report.html's folder), URL-quoted."""
    thumb: str | None
    """The thumbnail as a data URI; None when the PNG could not be read as an image."""


def _jpeg(image: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality, optimize=True)
    return out.getvalue()


def thumbnail(png: bytes, width: int = THUMB_WIDTH, limit: int = THUMB_BYTES) -> bytes | None:
    """A JPEG at most ``width`` wide and ``limit`` bytes; None when ``png`` is no image.

    Lower qualities are tried first, then narrower sizes, so the bound always holds.
    """
    try:
        with Image.open(io.BytesIO(png)) as opened:
            source = opened.convert("RGB")
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError):
        return None
    while True:
        image = source.copy()
        image.thumbnail((width, max(1, width * source.height // max(source.width, 1))))
        for quality in QUALITIES:
            data = _jpeg(image, quality)
            if len(data) <= limit:
                return data
        if width <= NARROWEST:
            return data
        width = max(NARROWEST, width * 3 // 4)


def shots(run_dir: Path, attempt_id: str) -> list[Shot]:
    """The attempt's screenshots that were taken, in ``SHOTS`` order."""
    found = []
    for name in SHOTS:
        path = run_dir / "attempts" / attempt_id / f"{name}.png"
        if not path.is_file():
            continue
        thumb = thumbnail(path.read_bytes())
        uri = (
            None if thumb is None else "data:image/jpeg;base64," + base64.b64encode(thumb).decode()
        )
        found.append(Shot(name, quote(f"attempts/{attempt_id}/{name}.png"), uri))
    return found
