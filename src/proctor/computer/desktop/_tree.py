"""The outline of a window's accessibility tree, in the spirit of Playwright's aria snapshot.

One line a node, indented by depth::

    - frame "galculator" [ref=d1] [active]
      - toggle button "1" [ref=d14] [actions=click]
      - text [ref=d9] [value="15"]

Unnamed containers (fillers, panels, scroll panes) with nothing to act on get
no line of their own; their children move up. Subtrees that are not showing
are skipped, and the walk is bounded in nodes, depth and time. The window
manager's controls (close, minimize, maximize), drawn by GTK in a client-side
titlebar, are left out: pressing close quits an app with its last window.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from typing import Any

from proctor.computer.desktop import _atspi, _stall
from proctor.computer.desktop._errors import NodeNotFound

MAX_NODES = 1500
"""Nodes one outline visits at most."""
MAX_DEPTH = 40
"""Depth one outline descends at most."""
WALK_TIMEOUT = 5.0
"""Seconds one outline may take; what is left is marked truncated."""
VALUE_CHARS = 200
"""Characters of a value shown in the outline (the node's full text is ``read``)."""

CONTAINERS = frozenset(
    {
        "filler",
        "panel",
        "scroll pane",
        "viewport",
        "unknown",
        "layered pane",
        "split pane",
        "section",
        "redundant object",
        "invalid",
        "grouping",
        "glass pane",
        "root pane",
    }
)
WINDOW_ROLES = frozenset({"frame", "window", "dialog", "alert", "file chooser"})
WINDOW_CONTROLS = frozenset({"close", "minimize", "maximize", "restore", "unmaximize"})
TEXT_ROLES = frozenset(
    {
        "text",
        "entry",
        "password text",
        "paragraph",
        "terminal",
        "document text",
        "document frame",
        "spin button",
        "combo box",
        "editbar",
    }
)
SHOWN_STATES = (
    "focused",
    "checked",
    "pressed",
    "selected",
    "expanded",
    "indeterminate",
    "editable",
    "active",
    "modal",
)


@dataclass(frozen=True)
class Node:
    """One node of an observation: its ref, what the outline says of it, and its handle.

    Attributes:
        ref: ``dN``, stable within the observation it came from.
        role: The AT-SPI role name (``push button``, ``text``...).
        name: The accessible name ('' when it has none).
        states: The states the outline shows (``focused``, ``checked``, ``disabled``...).
        value: The text of editable text, or a Value's current value; None otherwise.
        actions: The names of the node's AT-SPI actions.
        depth: Depth below the window.
        acc: The ``Atspi.Accessible``.
    """

    ref: str
    role: str
    name: str
    states: tuple[str, ...]
    value: str | None
    actions: tuple[str, ...]
    depth: int
    acc: Any = field(repr=False, compare=False)

    def line(self) -> str:
        """The node's outline line, without indentation."""
        parts = [f"- {self.role}"]
        if self.name:
            parts.append(_quote(self.name))
        parts.append(f"[ref={self.ref}]")
        parts += [f"[{s}]" for s in self.states]
        if self.value is not None:
            shown = self.value if len(self.value) <= VALUE_CHARS else self.value[:VALUE_CHARS] + "…"
            parts.append(f"[value={_quote(shown)}]")
        if self.actions:
            parts.append(f"[actions={','.join(self.actions)}]")
        return " ".join(parts)

    def describe(self) -> str:
        """How an error names this node: ``push button "1" (ref d14)``."""
        named = f" {_quote(self.name)}" if self.name else ""
        return f"{self.role}{named} (ref {self.ref})"


@dataclass(frozen=True)
class Outline:
    """One observation of a window: its text, its nodes by ref, and what it is of.

    Attributes:
        title: The window's title.
        text: The outline, one line a node.
        nodes: Every node with a line, in outline order.
        focused: The focused node's line, if the focus is in this window.
        truncated: Why the walk stopped early ('' when it did not).
    """

    title: str
    text: str
    nodes: tuple[Node, ...]
    focused: str | None
    truncated: str = ""

    def by_ref(self, ref: str) -> Node:
        """The node of ``ref``.

        Raises:
            NodeNotFound: no node of this observation has it.
        """
        for node in self.nodes:
            if node.ref == ref:
                return node
        refs = [n.ref for n in self.nodes]
        near = ", ".join([*refs[:3], "…", *refs[-3:]]) if len(refs) > 6 else ", ".join(refs)
        raise NodeNotFound(
            f"no node has ref {ref!r} in the outline of {self.title!r} (refs: {near}); "
            "refs hold for one observation: observe again and use a ref from it"
        )

    def find(self, role: str, name: str) -> Node:
        """The node with ``role`` and ``name``: an exact match first, then case-insensitive.

        Raises:
            NodeNotFound: none, or several, match; the message lists the nearest candidates.
        """
        hits = self.matching(role, name)
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            listed = tuple(n.line() for n in hits[:8])
            raise NodeNotFound(
                f"{len(hits)} nodes are {role} {_quote(name)} in {self.title!r}; use a ref: "
                + "; ".join(listed),
                listed,
            )
        near = self._near(role, name)
        raise NodeNotFound(
            f"no {role} named {_quote(name)} in {self.title!r}"
            + (f"; nearest: {'; '.join(near)}" if near else "; the window has no such node"),
            near,
        )

    def matching(self, role: str, name: str) -> tuple[Node, ...]:
        """The nodes with ``role`` and ``name``: the exact matches, else case-insensitive ones."""
        for fold in (False, True):
            hits = tuple(
                n for n in self.nodes if _same(n.role, role, True) and _same(n.name, name, fold)
            )
            if hits:
                return hits
        return ()

    def _near(self, role: str, name: str) -> tuple[str, ...]:
        """Nodes of the same role, or with the name under another role."""
        key = name.casefold()
        same_name = [n for n in self.nodes if key and key in n.name.casefold()]
        same_role = [n for n in self.nodes if _same(n.role, role, True)]
        seen: dict[str, Node] = {}
        for n in same_name + same_role:
            seen.setdefault(n.ref, n)
        return tuple(n.line() for n in list(seen.values())[:8])


def _same(a: str, b: str, fold: bool) -> bool:
    return a.casefold() == b.casefold() if fold else a == b


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


# -- reading one accessible ---------------------------------------------------------


def _safe(call: Any, default: Any) -> Any:
    """``call()``, or ``default`` on a D-Bus error; its round trip is timed (``_stall``)."""
    began = time.monotonic()
    try:
        return call()
    except _atspi.glib_error():
        return default
    finally:
        _stall.saw_call(time.monotonic() - began)


def info(acc: Any) -> tuple[str, str, set[str], list[str]]:
    """(role name, name, state nicks, interfaces) of an accessible; empty on D-Bus errors."""
    role = _safe(acc.get_role_name, "") or ""
    name = _safe(acc.get_name, "") or ""
    state_set = _safe(acc.get_state_set, None)
    states = {s.value_nick for s in state_set.get_states()} if state_set is not None else set()
    ifaces = list(_safe(acc.get_interfaces, []) or [])
    return role, name, states, ifaces


def actions_of(acc: Any, ifaces: list[str]) -> tuple[str, ...]:
    if "Action" not in ifaces:
        return ()
    atspi = _atspi.gi_module()
    count = _safe(lambda: atspi.Action.get_n_actions(acc), 0)
    with warnings.catch_warnings():
        # get_action_name is marked deprecated in 2.46, and its successor is not in the typelib.
        warnings.simplefilter("ignore", DeprecationWarning)
        names = [_safe(lambda i=i: atspi.Action.get_action_name(acc, i), "") for i in range(count)]
    return tuple(n for n in names if n)


def text_of(acc: Any, ifaces: list[str]) -> str | None:
    """The whole text of a Text node, None when it has no Text interface."""
    if "Text" not in ifaces:
        return None
    atspi = _atspi.gi_module()
    text = _safe(lambda: atspi.Text.get_text(acc, 0, -1), None)
    return None if text is None else str(text)


def value_of(acc: Any, role: str, states: set[str], ifaces: list[str]) -> str | None:
    if "Text" in ifaces and ("editable" in states or role in TEXT_ROLES):
        return text_of(acc, ifaces) or ""
    if "Value" in ifaces:
        atspi = _atspi.gi_module()
        current = _safe(lambda: atspi.Value.get_current_value(acc), None)
        if current is not None:
            return f"{current:g}"
    return None


def shown_states(states: set[str]) -> tuple[str, ...]:
    shown = [s for s in SHOWN_STATES if s in states]
    if "sensitive" not in states and "enabled" not in states:
        shown.append("disabled")
    if "expandable" in states and "expanded" not in states:
        shown.append("collapsed")
    return tuple(shown)


# -- the walk -----------------------------------------------------------------------


class _Walk:
    def __init__(self, max_nodes: int, max_depth: int, deadline: float) -> None:
        self.max_nodes = max_nodes
        self.max_depth = max_depth
        self.deadline = deadline
        self.visited = 0
        self.nodes: list[Node] = []
        self.lines: list[str] = []
        self.focused: str | None = None
        self.truncated = ""

    def visit(self, acc: Any, depth: int, indent: int, in_titlebar: bool) -> None:
        if self.truncated:
            return
        if self.visited >= self.max_nodes:
            self.truncated = f"more than {self.max_nodes} nodes"
            return
        if time.monotonic() > self.deadline:
            self.truncated = f"the walk took over {WALK_TIMEOUT:.0f} s"
            _stall.saw_cut()
            return
        self.visited += 1
        role, name, states, ifaces = info(acc)
        if depth > 0 and "showing" not in states:
            return
        if in_titlebar and role == "push button" and name.casefold() in WINDOW_CONTROLS:
            return
        if role == "title bar":
            return
        actions = actions_of(acc, ifaces)
        value = value_of(acc, role, states, ifaces)
        if role == "label" and not name.strip():
            name = text_of(acc, ifaces) or ""
        name = name.strip()
        if role == "label" and not name:
            return
        quiet = role in CONTAINERS and not name and not actions and value is None
        if "focused" in states:
            quiet = False
        child_indent = indent
        if not quiet:
            node = Node(
                ref=f"d{len(self.nodes) + 1}",
                role=role,
                name=name,
                states=shown_states(states),
                value=value,
                actions=actions,
                depth=depth,
                acc=acc,
            )
            self.nodes.append(node)
            self.lines.append("  " * indent + node.line())
            if "focused" in states:
                self.focused = node.line()
            child_indent = indent + 1
        if depth >= self.max_depth:
            self.truncated = f"deeper than {self.max_depth}"
            return
        count = _safe(acc.get_child_count, 0)
        for i in range(count):
            child = _safe(lambda i=i: acc.get_child_at_index(i), None)
            if child is None:
                continue
            titlebar = in_titlebar or (depth == 0 and _is_titlebar(child, name))
            self.visit(child, depth + 1, child_indent, titlebar)


def _is_titlebar(acc: Any, title: str) -> bool:
    """True when ``acc``, a child of the window, is its titlebar.

    A titlebar holds a window control (close, minimize, maximize) and a label
    with the window's title, within a few levels; a dialog's own "Close" button
    sits among the content, without the title beside it.
    """
    role, _name, _states, _ifaces = info(acc)
    if role == "title bar":
        return True
    controls = labels = 0
    todo = [(acc, 0)]
    seen = 0
    while todo and seen < 40:
        node, depth = todo.pop()
        seen += 1
        role, name, _states, _ifaces = info(node)
        if role == "push button" and name.casefold() in WINDOW_CONTROLS:
            controls += 1
        elif role == "label" and title and name.strip() == title.strip():
            labels += 1
        if depth < 3:
            count = _safe(node.get_child_count, 0)
            for i in range(min(count, 12)):
                child = _safe(lambda n=node, i=i: n.get_child_at_index(i), None)
                if child is not None:
                    todo.append((child, depth + 1))
    return controls > 0 and labels > 0


def outline(
    window: Any,
    *,
    max_nodes: int = MAX_NODES,
    max_depth: int = MAX_DEPTH,
    timeout: float = WALK_TIMEOUT,
) -> Outline:
    """The outline of ``window`` (an ``Atspi.Accessible`` of a window role)."""
    walk = _Walk(max_nodes, max_depth, time.monotonic() + timeout)
    walk.visit(window, 0, 0, False)
    title = _safe(window.get_name, "") or ""
    text = "\n".join(walk.lines)
    if walk.truncated:
        text += f"\n- (outline cut: {walk.truncated})"
    return Outline(
        title=title,
        text=text,
        nodes=tuple(walk.nodes),
        focused=walk.focused,
        truncated=walk.truncated,
    )
