"""Dotted paths into end-state snapshots: the grammar, and its check at load time.

The whole grammar::

    path     := segment ( "." segment )*
    segment  := key selector* | selector+
    key      := [A-Za-z0-9_-]+          a mapping's key, or a list's index (messages.0)
    selector := "[" digits "]"          a list's item by index: messages[0]
              | "[" field "=" value "]" a list's first item whose field equals value
    field    := [A-Za-z0-9_-]+
    value    := any text without [ ] (dots and spaces are fine): [name=lease v2.pdf]

A selector by field compares the item's value as text: a string as it is, any
other value as JSON (``[number=43]``, ``[seeded=true]``). The grader walks a
path (``proctor.grading``); this module only says which paths are well formed.
"""

from __future__ import annotations

import re
from typing import Annotated, NamedTuple

from pydantic import AfterValidator

_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SELECTOR = re.compile(r"\[([^\[\]]*)\]")
_FIELD_VALUE = re.compile(r"([A-Za-z0-9_-]+)=([^\[\]]+)")
SITE_KEY = re.compile(r"[a-z0-9][a-z0-9_-]*")
"""A site's name, the first key of a path into ``EndState.apps``."""
PATH_HINT = "write keys joined by dots, with [field=value] or [N] to pick a list's item"


class PathStep(NamedTuple):
    """One step of a parsed path: a key, a list index, or a list item by a field's value."""

    kind: str
    """``key`` (a mapping's key, or a list's index written as a key), ``index`` or ``match``."""
    key: str
    """The key; the index as text; or the field a ``match`` compares."""
    value: str = ""
    """The value a ``match`` step looks for."""

    def show(self) -> str:
        """The step as written: ``messages``, ``[2]``, ``[id=lease-signed]``."""
        if self.kind == "index":
            return f"[{self.key}]"
        if self.kind == "match":
            return f"[{self.key}={self.value}]"
        return self.key


def parse_path(text: str) -> list[PathStep]:
    """The steps of a dotted path.

    Raises:
        ValueError: naming the path and what is wrong with it, with the grammar.
    """
    steps: list[PathStep] = []
    at = 0
    expect_key = True  # at the start, or just after a dot
    while at < len(text):
        char = text[at]
        if char == "[":
            close = _SELECTOR.match(text, at)
            if close is None:
                raise ValueError(f"path {text!r}: the [ at {at + 1} is never closed; {PATH_HINT}")
            steps.append(_selector(text, close.group(1)))
            at, expect_key = close.end(), False
        elif char == "." and not expect_key:
            at, expect_key = at + 1, True
            if at == len(text):
                raise ValueError(f"path {text!r} ends with a dot; {PATH_HINT}")
        elif expect_key and (key := _KEY.match(text, at)) is not None:
            steps.append(PathStep("key", key.group(0)))
            at, expect_key = key.end(), False
        else:
            what = "an empty key" if char == "." else f"{char!r}"
            raise ValueError(f"path {text!r} has {what} at {at + 1}; {PATH_HINT}")
    if not steps:
        raise ValueError(f"the path is empty; {PATH_HINT}")
    return steps


def _selector(text: str, inside: str) -> PathStep:
    if inside.isdigit():
        return PathStep("index", str(int(inside)))
    pair = _FIELD_VALUE.fullmatch(inside)
    if pair is None:
        raise ValueError(
            f"path {text!r}: [{inside}] is not a selector; write [N] for an index or "
            "[field=value], e.g. messages[id=lease-signed]"
        )
    return PathStep("match", pair.group(1), pair.group(2))


def show_path(steps: list[PathStep]) -> str:
    """Steps written back as a path."""
    out = ""
    for step in steps:
        shown = step.show()
        out += shown if not out or step.kind != "key" else "." + shown
    return out


def _dotted(text: str) -> str:
    parse_path(text)
    return text


def _apps_path(text: str) -> str:
    steps = parse_path(text)
    if steps[0].kind != "key" or SITE_KEY.fullmatch(steps[0].key) is None or len(steps) < 2:
        raise ValueError(
            f"path {text!r} must start with a site's name and go on into its snapshot, "
            "e.g. bank.statements.s4821-043.sha256 or mail.messages[id=m1].attachments[0].sha256"
        )
    return text


DottedPath = Annotated[str, AfterValidator(_dotted)]
"""A path into a snapshot or an item: ``bookings``, ``messages[id=m2].attachments[0]``."""
AppsPath = Annotated[str, AfterValidator(_apps_path)]
"""A path into ``EndState.apps``, site name first: ``bank.statements.s43.sha256``."""
