"""``safe`` escapes what a terminal would obey; the safe console escapes what slips past."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from rich.table import Table

from proctor._text import console, markup, safe

EVIL = "a\x1b[2Jb\x1b]0;title\x07c\x9b31md\u202ee\u2066f\x00g\x7fh\u2028i"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain ✓ café 日本", "plain ✓ café 日本"),
        ("\x1b[31mred", "\\x1b[31mred"),  # CSI
        ("\x1b]8;;http://evil\x1b\\link", "\\x1b]8;;http://evil\\x1b\\link"),  # OSC 8
        ("ring\x07", "ring\\x07"),  # BEL
        ("\x9b2J", "\\x9b2J"),  # C1 CSI
        ("abc\u202edef", "abc\\u202edef"),  # right-to-left override
        ("\u2067x\u2069", "\\u2067x\\u2069"),  # isolates
        ("one\ntwo\tthree\rfour", "one\\ntwo\\tthree\\rfour"),
        ("nul\x00del\x7f", "nul\\x00del\\x7f"),
        (42, "42"),
    ],
)
def test_safe_escapes_controls_visibly(text: object, shown: str) -> None:
    assert safe(text) == shown


def test_safe_keeps_line_breaks_only_when_asked() -> None:
    assert safe("a\nb\x1bc", newlines=True) == "a\nb\\x1bc"
    assert safe("a\nb") == "a\\nb"


def test_safe_returns_clean_text_unchanged() -> None:
    text = "nothing to escape here [bold]"
    assert safe(text) is text


def test_markup_also_escapes_rich_markup() -> None:
    out = io.StringIO()
    cell = markup("[/] [b]y\x1b")
    Console(file=out, width=200, color_system=None).print(f"[red]x[/] {cell}")
    assert out.getvalue() == "x [/] [b]y\\x1b\n"


def test_the_safe_console_escapes_text_rendered_raw() -> None:
    out = io.StringIO()
    shown = console(file=out, width=200, force_terminal=True, color_system="standard")
    table = Table()
    table.add_column("cell")
    table.add_row(EVIL)
    shown.print(table)
    shown.print(EVIL, markup=False)
    text = out.getvalue()
    # Rich's own styling is SGR (ESC[...m); EVIL holds none, so nothing else may be left.
    bare = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert not any(c in bare for c in "\x1b\x07\x9b\u202e\u2066\x00\x7f\u2028"), repr(bare)
    assert "a\\x1b[2Jb\\x1b]0;title" in text
    assert "\\u202ee\\u2066f" in text


def test_json_text_is_the_same_document_with_no_raw_control_or_bidi_character() -> None:
    import json

    from proctor._text import json_text

    value = {"answer": "a\x1b[31mred\x9b2J\u202eevil\x7f\u2028", "n": [1, "ü €"]}
    text = json_text(value, indent=2)
    assert json.loads(text) == value
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e]", text)
    assert "\\u009b" in text and "\\u202e" in text and "ü €" in text
