"""Run labels: the names of results folders, safe in a path, a shell and a terminal."""

from __future__ import annotations

import re

from proctor.errors import RunError

LABEL_RULE = "1 to 100 of A-Z a-z 0-9 . _ -, starting with a letter or a digit"
"""The rule, as error messages state it."""
_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def is_label(text: str) -> bool:
    """Whether ``text`` is a valid run label (``LABEL_RULE``)."""
    return _LABEL.fullmatch(text) is not None


def check_label(label: str, *, option: str = "--label") -> str:
    """``label`` itself when it is a valid run label.

    A label names a folder under the results folder and is typed back on command
    lines (``proctor report LABEL``, ``--baseline LABEL/ARM``), so it holds no
    slash, space, newline or shell metacharacter, is never ``.`` or ``..``, and
    cannot start with ``-`` (it would read as an option) or ``.`` (a hidden folder).

    Raises:
        RunError: naming the option, the label and the rule.
    """
    if is_label(label):
        return label
    # repr shows a newline, an ESC or a bidi override as an escape, never raw.
    shown = repr(label if len(label) <= 40 else label[:40] + "…")
    size = f" ({len(label)} characters)" if len(label) > 100 else ""
    raise RunError(f"{option} {shown}{size} is not a valid label: use {LABEL_RULE}")
