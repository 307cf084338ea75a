"""Builders: the exact bytes of each generated file fixture.

Every builder is a pure function of its spec, so the same spec always gives
the same bytes (and SHA-256): the PDF is made with reportlab's ``invariant``
mode and fixed metadata, so no date or random document id gets in.
"""

from __future__ import annotations

import base64
import binascii
import csv
import html
import io

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from proctor.errors import WorldError
from proctor.scenario import (
    Csv,
    FileContent,
    Generated,
    Heading,
    Paragraph,
    Pdf,
    RichText,
    TextLines,
)
from proctor.world._kit._pdf import PageDrawer, document

PDF_FONT = "Helvetica"
PDF_FONT_SIZE = 12
PDF_LEADING = 16
PDF_MARGIN = 72
PDF_AUTHOR = "proctor"
"""Author, creator and producer of every generated PDF."""


def text_lines_bytes(lines: list[str]) -> bytes:
    """UTF-8 text with each line followed by LF."""
    return "".join(f"{line}\n" for line in lines).encode("utf-8")


def pdf_bytes(pages: list[list[str]], title: str = "") -> bytes:
    """A real PDF, one page per list of lines, drawn top to bottom in Helvetica 12 pt.

    Deterministic: reportlab's invariant mode fixes the dates and the document id.
    """

    def setup(doc: Canvas) -> None:
        doc.setTitle(title)
        doc.setAuthor(PDF_AUTHOR)
        doc.setCreator(PDF_AUTHOR)
        doc.setProducer(PDF_AUTHOR)
        doc.setSubject("")

    def page(lines: list[str]) -> PageDrawer:
        def draw(doc: Canvas) -> None:
            doc.setFont(PDF_FONT, PDF_FONT_SIZE)
            y = A4[1] - PDF_MARGIN
            for line in lines:
                doc.drawString(PDF_MARGIN, y, line)
                y -= PDF_LEADING

        return draw

    return document([page(lines) for lines in pages], setup=setup, compress=False)


def csv_bytes(
    header: list[str] | None, rows: list[list[str | int | float]], delimiter: str
) -> bytes:
    """CSV with minimal RFC 4180 quoting and LF line ends, UTF-8."""
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    if header is not None:
        writer.writerow(header)
    writer.writerows([[_cell(v) for v in row] for row in rows])
    return buf.getvalue().encode("utf-8")


def _cell(value: str | int | float) -> str:
    return value if isinstance(value, str) else str(value)


def html_bytes(spec: RichText) -> bytes:
    """An HTML5 document: <h1>..<h6>, <p>, <ul>/<ol> with one <li> per item."""
    esc = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{esc(spec.title)}</title>",
        "</head>",
        "<body>",
    ]
    for block in spec.blocks:
        if isinstance(block, Heading):
            out.append(f"<h{block.level}>{esc(block.heading)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            out.append(f"<p>{esc(block.paragraph)}</p>")
        else:
            tag = "ol" if block.ordered else "ul"
            out.append(f"<{tag}>")
            out.extend(f"<li>{esc(item)}</li>" for item in block.items)
            out.append(f"</{tag}>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out).encode("utf-8")


def _rtf_text(text: str) -> str:
    """RTF-escaped text: control characters escaped, non-ASCII as \\uN? (signed 16-bit)."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in "\\{}":
            out.append("\\" + ch)
        elif 32 <= code < 128:
            out.append(ch)
        elif code > 0xFFFF:  # outside the BMP: a UTF-16 surrogate pair
            code -= 0x10000
            for unit in (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)):
                out.append(f"\\u{unit - 0x10000}?")
        else:
            out.append(f"\\u{code if code < 0x8000 else code - 0x10000}?")
    return "".join(out)


def rtf_bytes(spec: RichText) -> bytes:
    """An RTF document.

    Headings are bold paragraphs with ``\\outlinelevelN`` (N = level - 1); each
    list item is a paragraph whose marker (a bullet or its number) sits in a
    ``\\pntext`` group, the way word processors write list text.
    """
    out = [r"{\rtf1\ansi\ansicpg1252\deff0", r"{\fonttbl{\f0\fswiss Helvetica;}}"]
    if spec.title:
        out.append(r"{\info{\title " + _rtf_text(spec.title) + "}}")
    for block in spec.blocks:
        if isinstance(block, Heading):
            size = max(24, 40 - 4 * (block.level - 1))
            out.append(
                rf"{{\pard\outlinelevel{block.level - 1}\b\fs{size} "
                + _rtf_text(block.heading)
                + r"\b0\par}"
            )
        elif isinstance(block, Paragraph):
            out.append(r"{\pard\fs24 " + _rtf_text(block.paragraph) + r"\par}")
        else:
            for n, item in enumerate(block.items, start=1):
                marker = f"{n}." if block.ordered else r"\bullet"
                out.append(
                    rf"{{\pard\fi-360\li720\fs24{{\pntext {marker}\tab}}"
                    + _rtf_text(item)
                    + r"\par}"
                )
    out.append("}")
    return ("\n".join(out) + "\n").encode("ascii")


def generated_bytes(spec: Generated) -> bytes:
    """The bytes a ``generate:`` spec stands for."""
    if isinstance(spec, TextLines):
        return text_lines_bytes(spec.lines)
    if isinstance(spec, Pdf):
        return pdf_bytes(spec.pages, spec.title)
    if isinstance(spec, Csv):
        return csv_bytes(spec.header, spec.rows, spec.delimiter)
    assert isinstance(spec, RichText)
    return html_bytes(spec) if spec.format == "html" else rtf_bytes(spec)


def content_bytes(content: FileContent, where: str) -> bytes:
    """The bytes of one file's content (text, base64 or generate).

    Raises:
        WorldError: when base64 content is invalid, naming the file.
    """
    if content.text is not None:
        return content.text.encode("utf-8")
    if content.generate is not None:
        return generated_bytes(content.generate)
    try:
        return base64.b64decode(content.base64 or "", validate=True)
    except binascii.Error as exc:
        raise WorldError(
            f"file {where}: base64 content is invalid ({exc}); fix world.files"
        ) from exc
