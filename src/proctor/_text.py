"""Terminal-safe text: what a scenario or an agent wrote, shown but never obeyed.

Scenario titles, agents' answers, check details and model replies are printed
by the CLI. Left raw, an ESC or CSI sequence moves the cursor or rewrites the
window title, an OSC 8 link hides where it points, a BEL rings, a bidi override
(U+202E) shows text in another order than it is, and a ``[`` opens rich markup.
``safe`` escapes every such character visibly (``\\x1b``, ``\\u202e``);
``console`` builds a rich ``Console`` that escapes them once more in whatever
it renders, so text printed by code that forgot ``safe`` cannot reach the
terminal either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.markup import escape
from rich.segment import Segment

_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""Arabic letter mark, LRM/RLM, the embeddings and overrides, the isolates."""
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_BIDI}]")
"""C0 controls, DEL, C1 controls (U+009B is a one-character CSI), line and paragraph separators,
and bidi controls."""
_UNSAFE_KEEP_NL = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029{_BIDI}]")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def safe(text: object, *, newlines: bool = False) -> str:
    """``text`` with every control and bidi character escaped visibly, e.g. ESC as ``\\x1b``.

    Args:
        text: Anything; a non-string is shown as its ``str``.
        newlines: Keep ``\\n`` as a line break, for a block meant to span lines;
            otherwise it is shown as ``\\n`` and the text stays on one line.

    Returns:
        Text holding no character a terminal would act on. It may still hold
        ``[``: print it with ``markup=False``, or pass it through ``markup``.
    """
    value = text if isinstance(text, str) else str(text)
    pattern = _UNSAFE_KEEP_NL if newlines else _UNSAFE
    if pattern.search(value) is None:
        return value
    return pattern.sub(_escaped, value)


_JSON_UNSAFE = re.compile(f"[\x7f-\x9f\u2028\u2029{_BIDI}]")
"""What ``json.dumps`` leaves raw in a string that a terminal would still obey (it escapes
the C0 controls itself): DEL, the C1 controls, the line separators and bidi controls."""


def json_text(value: object, *, indent: int | None = None) -> str:
    """``value`` as JSON that is safe to print: the same document a parser reads, with every
    control and bidi character inside its strings written as a ``\\uXXXX`` escape."""
    text = json.dumps(value, ensure_ascii=False, indent=indent, default=str)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def markup(text: object, *, newlines: bool = False) -> str:
    """``safe(text)`` escaped for rich markup, to embed in a markup string or a table cell."""
    return escape(safe(text, newlines=newlines))


class SafeConsole(Console):
    """A rich Console whose rendered text never holds a control or bidi character.

    Rich's own control segments (cursor moves of a live progress bar) pass
    unchanged; every other segment goes through ``safe`` with line breaks kept.
    Table widths are measured before this last pass, so text should still go
    through ``safe`` where it enters; this is the net under it.
    """

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control or not _UNSAFE_KEEP_NL.search(segment.text):
                yield segment
            else:
                yield Segment(safe(segment.text, newlines=True), segment.style)


def console(**kwargs: Any) -> Console:
    """A ``SafeConsole``; the keyword arguments are rich ``Console``'s (``stderr=True``, ...)."""
    return SafeConsole(**kwargs)


__all__ = ["SafeConsole", "console", "json_text", "markup", "safe"]
