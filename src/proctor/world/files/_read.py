"""Readers: the facts the checks need from PDFs, CSVs and rich text, taken at end-state time.

The end state is graded (and regraded) without the disk, so whatever a check
reads from a document is extracted here, when the attempt's files are
snapshotted, and stored in its ``FileFact``.
"""

from __future__ import annotations

import csv
import io
import logging
import re
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from typing import NamedTuple

PDF_PAGE_LIMIT = 500
"""Pages read at most from one PDF."""

_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


class Outline(NamedTuple):
    """The headings and list items of a rich-text document, in document order."""

    headings: list[str]
    list_items: list[str]


def _squash(text: str) -> str:
    return " ".join(text.split())


def pdf_pages(data: bytes) -> list[str] | None:
    """Each page's text (pypdf's extraction), or None when the bytes are not a readable PDF."""
    from pypdf import PdfReader  # on first use: every proctor process imports this module
    from pypdf.errors import PyPdfError

    # pypdf logs recoverable damage as warnings; a broken file is reported by returning None.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        return [page.extract_text() or "" for page in reader.pages[:PDF_PAGE_LIMIT]]
    except (PyPdfError, ValueError, KeyError, TypeError, OSError):
        return None


def csv_rows(text: str, delimiter: str | None = None) -> list[list[str]]:
    """The rows of CSV text, blank lines left out.

    With no ``delimiter``, a first line holding more ``;`` (or tabs) than commas
    picks that one.
    """
    if delimiter is None:
        first = text.split("\n", 1)[0]
        counts = {d: first.count(d) for d in (",", ";", "\t")}
        delimiter = max(counts, key=lambda d: (counts[d], d == ","))
    return [row for row in csv.reader(io.StringIO(text), delimiter=delimiter) if row]


class _HtmlOutline(HTMLParser):
    """Collects headings and list items; each gets its slot when it opens, so order holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[str]]] = []
        self._open: list[tuple[str, list[str]]] = []
        """Open headings, list items and lists, innermost last."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "li":
            # An unclosed <li> ends where its sibling starts (but not where a nested list's does).
            for i in range(len(self._open) - 1, -1, -1):
                name = self._open[i][0]
                if name in ("ul", "ol"):
                    break
                if name == "li":
                    del self._open[i:]
                    break
        if tag in _HEADINGS or tag == "li":
            entry: tuple[str, list[str]] = (tag, [])
            self.found.append(entry)
            self._open.append(entry)
        elif tag in ("ul", "ol"):
            self._open.append((tag, []))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == tag:
                del self._open[i:]
                return

    def handle_data(self, data: str) -> None:
        for name, parts in reversed(self._open):
            if name not in ("ul", "ol"):
                parts.append(data)
                return

    def outline(self) -> Outline:
        self.close()
        headings: list[str] = []
        items: list[str] = []
        for tag, parts in self.found:
            text = _squash("".join(parts))
            if text:
                (items if tag == "li" else headings).append(text)
        return Outline(headings, items)


def html_outline(text: str) -> Outline:
    """Headings (h1-h6) and list items (li) of an HTML document.

    A nested list's items are their own entries; an item's text stops where a
    nested item starts.
    """
    parser = _HtmlOutline()
    parser.feed(text)
    return parser.outline()


_RTF_TOKEN = re.compile(
    r"\\([a-zA-Z]+)(-?\d+)? ?|\\'([0-9a-fA-F]{2})|\\(.)|([{}])|([^\\{}\r\n]+)|[\r\n]+", re.S
)
_RTF_SKIP = frozenset(
    {"fonttbl", "colortbl", "stylesheet", "info", "pict", "header", "footer", "listtable",
     "listoverridetable", "generator", "xmlnstbl", "themedata", "datastore"}
)  # fmt: skip


@dataclass
class _RtfState:
    """What a group may change and its closing brace restores."""

    skip: bool = False
    """Inside a group that holds no body text."""
    heading: bool = False
    """Paragraph property: \\outlinelevelN (kept until \\pard)."""
    listed: bool = False
    """Paragraph property: \\lsN (kept until \\pard)."""
    uc: int = 1
    """ANSI fallback characters after each \\uN."""


def rtf_outline(text: str) -> Outline:
    """Headings and list items of an RTF document.

    A heading is a paragraph with ``\\outlinelevelN``; a list item is a
    paragraph under ``\\lsN``, or with a ``\\pntext``/``\\listtext`` group, or
    starting with ``\\bullet``. List markers (bullets, numbers) are left out of
    the text. Groups that hold no body text (font table, info, starred
    destinations) are skipped.
    """
    headings: list[str] = []
    items: list[str] = []
    parts: list[str] = []
    marked = False  # this paragraph has list-marker text
    state = _RtfState()
    saved: list[_RtfState] = []
    star = False
    fallback = 0  # ANSI fallback characters still to drop after a \uN

    def end_paragraph() -> None:
        nonlocal marked
        content = _squash("".join(parts))
        listed = state.listed or marked
        if listed:
            content = re.sub(r"^(?:\u2022|\d+[.)])\s*", "", content)
        if content and state.heading:
            headings.append(content)
        elif content and listed:
            items.append(content)
        parts.clear()
        marked = False

    for m in _RTF_TOKEN.finditer(text):
        word, arg, hexa, sym, brace, plain = m.groups()
        if brace is not None:
            if brace == "{":
                saved.append(replace(state))
            elif saved:
                state = saved.pop()
            star = False
            continue
        if sym == "*":
            star = True
            continue
        if word is not None:
            if star or word in _RTF_SKIP:
                state.skip = True
            star = False
            if word in ("pntext", "listtext"):
                marked = state.skip = True
            if state.skip:
                continue
            if word == "par":
                end_paragraph()
            elif word == "pard":
                state.heading = state.listed = False
            elif word == "outlinelevel":
                state.heading = True
            elif word == "ls":
                state.listed = True
            elif word == "bullet":
                marked = marked or not "".join(parts).strip()
                parts.append("\u2022 ")
            elif word in ("tab", "line"):
                parts.append(" ")
            elif word == "u" and arg is not None:
                parts.append(chr(int(arg) % 0x10000))
                fallback = state.uc
            elif word == "uc" and arg is not None:
                state.uc = int(arg)
            elif word in _RTF_CHARS:
                parts.append(_RTF_CHARS[word])
            continue
        if state.skip:
            continue
        if hexa is not None:
            if fallback:
                fallback -= 1
                continue
            parts.append(bytes([int(hexa, 16)]).decode("cp1252", errors="replace"))
        elif sym is not None and sym in "\r\n":
            end_paragraph()  # a backslash before a line end is a \par
        elif sym is not None:
            parts.append(sym if sym in "\\{}" else "")
        elif plain is not None:
            parts.append(plain[fallback:])
            fallback = 0
    end_paragraph()
    return Outline(_join_surrogates(headings), _join_surrogates(items))


_RTF_CHARS = {
    "emdash": "\u2014",
    "endash": "\u2013",
    "lquote": "\u2018",
    "rquote": "\u2019",
    "ldblquote": "\u201c",
    "rdblquote": "\u201d",
}


def _join_surrogates(texts: list[str]) -> list[str]:
    """Pair the UTF-16 halves that \\uN writes for characters outside the BMP."""
    return [t.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace") for t in texts]


def rich_outline(data: bytes, name: str) -> Outline | None:
    """The outline of an .html/.htm/.rtf file's bytes; None for other files or bad encodings."""
    lower = name.lower()
    try:
        if lower.endswith((".html", ".htm")):
            return html_outline(data.decode("utf-8"))
        if lower.endswith(".rtf"):
            return rtf_outline(data.decode("cp1252", errors="replace"))
    except UnicodeDecodeError:
        return None
    return None
