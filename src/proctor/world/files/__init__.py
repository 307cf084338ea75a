"""File fixtures: builders for the files an attempt starts with, and readers for its end state.

Builders (``generated_bytes`` and one per kind) turn a scenario's ``generate:``
spec into exact, deterministic bytes. Readers take out what the file checks
grade (PDF page text, CSV rows, rich-text headings and list items) when the
end state is captured, so grading never reads the disk.
"""

from proctor.world.files._build import (
    content_bytes,
    csv_bytes,
    generated_bytes,
    html_bytes,
    pdf_bytes,
    rtf_bytes,
    text_lines_bytes,
)
from proctor.world.files._read import (
    Outline,
    csv_rows,
    html_outline,
    pdf_pages,
    rich_outline,
    rtf_outline,
)

__all__ = [
    "Outline",
    "content_bytes",
    "csv_bytes",
    "csv_rows",
    "generated_bytes",
    "html_bytes",
    "html_outline",
    "pdf_bytes",
    "pdf_pages",
    "rich_outline",
    "rtf_bytes",
    "rtf_outline",
    "text_lines_bytes",
]
