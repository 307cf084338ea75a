"""Deterministic PDFs: reportlab with ``invariant=True``, so the same content gives the same bytes.

Checks hash some of these files (``file_sha256`` with ``sha256_from``), so a
change to how a page is drawn changes every such hash: each builder keeps its
own drawing exactly; only the document around the pages is shared.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas
from starlette.responses import Response

PageDrawer = Callable[[Canvas], None]


def document(
    pages: Iterable[PageDrawer],
    *,
    setup: PageDrawer | None = None,
    compress: bool | None = None,
) -> bytes:
    """An A4 PDF: ``setup`` (title, author...) once, then each page drawer on its own page.

    Args:
        pages: One drawer per page.
        setup: Sets the document's metadata before the first page.
        compress: Page compression; None leaves reportlab's default.
    """
    buffer = io.BytesIO()
    if compress is None:
        doc = Canvas(buffer, pagesize=A4, invariant=True)
    else:
        doc = Canvas(buffer, pagesize=A4, invariant=True, pageCompression=int(compress))
    if setup is not None:
        setup(doc)
    for draw in pages:
        draw(doc)
        doc.showPage()
    doc.save()
    return buffer.getvalue()


@dataclass(frozen=True)
class Line:
    """One line of a PDF page: text at column ``x`` (points), or cells at given columns."""

    text: str = ""
    size: float = 10
    bold: bool = False
    x: float = 56
    cells: Sequence[tuple[float, str]] = ()
    gap: float = 0
    """Extra space before the line, in points."""


def pdf(pages: Sequence[Sequence[Line]], title: str = "") -> bytes:
    """A real A4 PDF of laid-out lines, one list per page.

    Text must be Windows-1252 (the standard fonts' encoding).
    """

    def setup(doc: Canvas) -> None:
        if title:
            doc.setTitle(title)

    def page(lines: Sequence[Line]) -> PageDrawer:
        def draw(doc: Canvas) -> None:
            y = A4[1] - 64
            for line in lines:
                y -= line.gap
                doc.setFont("Helvetica-Bold" if line.bold else "Helvetica", line.size)
                if line.cells:
                    for x, text in line.cells:
                        doc.drawString(x, y, text)
                elif line.text:
                    doc.drawString(line.x, y, line.text)
                y -= line.size * 1.45

        return draw

    return document([page(lines) for lines in pages], setup=setup)


def text_pdf(pages: Sequence[str]) -> bytes:
    """A real PDF with one page per string, in reportlab's default font (mail attachments)."""

    def page(text: str) -> PageDrawer:
        def draw(doc: Canvas) -> None:
            y = 760.0
            for line in text.splitlines() or [""]:
                doc.drawString(72, y, line)
                y -= 16

        return draw

    return document([page(text) for text in pages])


def pdf_response(data: bytes, filename: str) -> Response:
    """A PDF answered as a download named ``filename``."""
    return Response(
        data,
        media_type="application/pdf",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )
