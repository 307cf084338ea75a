"""``python -m proctor.cli._reference [ROOT]``: write the reference pages under ROOT."""

from __future__ import annotations

import sys
from pathlib import Path

from proctor.cli._reference import write_pages

if __name__ == "__main__":
    repository = Path(sys.argv[1]) if len(sys.argv) > 1 else Path()
    for path in write_pages(repository):
        sys.stdout.write(f"wrote {path}\n")
