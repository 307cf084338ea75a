"""Walking a dotted path (``proctor.scenario``'s grammar) through a snapshot or an item.

``select`` says what the path selects, or why it selects nothing, naming the
step that missed and what was there instead (the keys of a mapping, the ids
of a list's items); ``dig`` is the quiet form for ``where`` matching.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from proctor.scenario import PathStep, parse_path, show_path

SHOWN = 10
"""How many keys or ids a miss names."""


@dataclass(frozen=True)
class Found:
    """What a path selected."""

    value: Any


@dataclass(frozen=True)
class Missed:
    """A path that selects nothing, and why."""

    why: str


def as_text(value: Any) -> str:
    """A value as a ``[field=value]`` selector compares it: a string itself, else JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def _names(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return (shown + more) if items else "none"


def _ids(items: list[Any], field: str) -> list[str]:
    return [as_text(i[field]) for i in items if isinstance(i, dict) and field in i]


def _step(node: Any, step: PathStep, where: str) -> Found | Missed:
    """One step from ``node``; ``where`` is the path up to it, for the message."""
    at = where or "the top"
    if step.kind == "match":
        if not isinstance(node, list):
            return Missed(f"{at} is {_kind(node)}, not a list to pick [{step.key}=...] from")
        for item in node:
            if (
                isinstance(item, dict)
                and step.key in item
                and as_text(item[step.key]) == step.value
            ):
                return Found(item)
        return Missed(
            f"no item of {at} has {step.key} {step.value!r}; "
            f"{step.key}s present: {_names(_ids(node, step.key))}"
        )
    if isinstance(node, dict):
        if step.kind == "key" and step.key in node:
            return Found(node[step.key])
        return Missed(f"{at} has no key {step.show()}; keys: {_names(sorted(map(str, node)))}")
    if isinstance(node, list) and step.key.isdigit():
        if int(step.key) < len(node):
            return Found(node[int(step.key)])
        return Missed(f"{at} has {len(node)} item(s); no {step.show()}")
    if isinstance(node, list):
        return Missed(f"{at} is a list; pick an item with [N] or [field=value], not {step.key}")
    return Missed(f"{at} is {_kind(node)}; it has no {step.show()}")


def _kind(node: Any) -> str:
    if node is None:
        return "null"
    if isinstance(node, dict):
        return "a mapping"
    if isinstance(node, list):
        return "a list"
    return f"a value ({type(node).__name__})"


def select(root: Any, path: str) -> Found | Missed:
    """What ``path`` selects in ``root``; a ``Missed`` names the path and the step that missed.

    Raises:
        ValueError: the path is not well formed (the loader refuses such paths first).
    """
    steps = parse_path(path)
    node = root
    for i, step in enumerate(steps):
        got = _step(node, step, show_path(steps[:i]))
        if isinstance(got, Missed):
            return Missed(f"{path} selects nothing: {got.why}")
        node = got.value
    return Found(node)


def dig(root: Any, path: str) -> Any:
    """What ``path`` selects in ``root``; None when it selects nothing or is not well formed."""
    try:
        got = select(root, path)
    except ValueError:
        return None
    return got.value if isinstance(got, Found) else None
