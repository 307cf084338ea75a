"""Deterministic extraction from a page the harness read: its visible text, its headings,
the matches of a regex. Plain functions over the page's text (the stdlib's HTML parser)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from proctor.scenario import LiveRead

SKIPPED = frozenset({"script", "style", "noscript", "template", "head"})
"""Elements whose text is never visible."""
BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
        "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section",
        "table", "td", "th", "tr", "ul",
    }
)  # fmt: skip
"""Elements that end a run of text: their text never runs into a neighbour's."""
ANCHOR_SIGNS = " \t\n¶§#"
"""Stripped from a heading's end: the permalink signs documentation generators add."""


def collapse(text: str) -> str:
    """``text`` with every run of white space made one space, trimmed."""
    return " ".join(text.split())


class _Page(HTMLParser):
    """One pass over an HTML page: its visible text, and the text of the wanted headings."""

    def __init__(self, headings: frozenset[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.wanted = headings
        self.text: list[str] = []
        self.headings: list[str] = []
        self._skip = 0
        self._heading: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self._skip = 0  # a <head> left open (HTML allows it) ends here
        if tag in SKIPPED:
            self._skip += 1
        if tag in BLOCKS:
            self.text.append("\n")
        if tag in self.wanted and self._heading is None:
            self._heading = []

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self._skip:
            self._skip -= 1
        if tag in BLOCKS:
            self.text.append("\n")
        if tag in self.wanted and self._heading is not None:
            self.headings.append(collapse("".join(self._heading)).rstrip(ANCHOR_SIGNS))
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self.text.append(data)
        if self._heading is not None:
            self._heading.append(data)


def is_html(content_type: str, text: str) -> bool:
    """Whether a body is an HTML page: by its type, or, with none, by its first character."""
    kind = content_type.split(";", 1)[0].strip().lower()
    if kind:
        return kind in ("text/html", "application/xhtml+xml")
    return text.lstrip().startswith("<")


def _parsed(text: str, headings: frozenset[str]) -> _Page:
    page = _Page(headings)
    page.feed(text)
    page.close()
    return page


def visible_text(text: str, content_type: str = "text/html") -> str:
    """An HTML page's visible text, white space collapsed; another body as it is."""
    if not is_html(content_type, text):
        return text
    return collapse("".join(_parsed(text, frozenset()).text))


def headings_of(text: str, tags: frozenset[str]) -> list[str]:
    """The text of each heading among ``tags``, in page order (empty ones left out)."""
    return [h for h in _parsed(text, tags).headings if h]


def matches_of(pattern: str, text: str) -> list[str]:
    """Each match of ``pattern`` (its first group when it has one), white space collapsed."""
    compiled = re.compile(pattern)
    found = []
    for match in compiled.finditer(text):
        value = match.group(1) if compiled.groups else match.group(0)
        found.append(collapse(value or ""))
    return found


def extract(args: LiveRead, text: str, content_type: str) -> list[str]:
    """The values ``args`` asks for from one page: headings or matches, at most ``first``."""
    if args.headings is not None:
        values = headings_of(text, frozenset(args.headings)) if is_html(content_type, text) else []
    else:
        assert args.pattern is not None
        source = visible_text(text, content_type) if args.source == "text" else text
        values = matches_of(args.pattern, source)
    return values[: args.first] if args.first is not None else values
