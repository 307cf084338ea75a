"""A small valid scenario, and a fixture that writes edited copies of it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

BASE = """\
id: sample
title: Send the contact form
tier: local
category: regression
brief: On {site.forms}/contact, send a message; keep notes in {scratch}/notes.txt.
world:
  sites: [forms]
  browser: {start: "{site.forms}/contact"}
checks:
  - submitted:
      route: contact
      fields: {name: Dana}
  - page_text: {contains: was accepted, name: confirmation-shown}
solution:
  - {op: fill, role: textbox, name: Full name, value: Dana}
  - {op: click, role: button, name: Send message}
  - {op: done}
decoys:
  - name: gives-up
    steps: [{op: done}]
    fails: [submitted, confirmation-shown]
"""
"""A valid scenario; line 11 is ``route: contact``."""


@pytest.fixture
def scenario(tmp_path: Path) -> Callable[..., Path]:
    """``scenario((old, new), ..., prepend="", append="")``: BASE edited, as sample.yaml."""

    def write(*edits: tuple[str, str], prepend: str = "", append: str = "") -> Path:
        body = BASE
        for old, new in edits:
            assert body.count(old) == 1, old
            body = body.replace(old, new)
        path = tmp_path / "sample.yaml"
        path.write_text(prepend + body + append, encoding="utf-8")
        return path

    return write
