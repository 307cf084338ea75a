"""The action models carry their traits, and the driver dispatches every op."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from proctor.computer import actions as a
from proctor.computer._act import describe

COMPUTER = Path(a.__file__).parent.parent
HANDLERS = COMPUTER / "_handlers.py"
DESKTOP = COMPUTER / "desktop" / "_acting.py"

# op: (is_input, needs_lease, user_op, watches_popups)
TRAITS = {
    "navigate": (False, True, False, True),
    "back": (False, True, False, True),
    "click": (True, True, False, True),
    "fill": (True, True, False, True),
    "select": (True, True, False, True),
    "check": (True, True, False, True),
    "press": (True, True, False, True),
    "type": (True, True, False, True),
    "scroll": (False, True, False, True),
    "hover": (False, True, False, True),
    "drag": (True, True, False, True),
    "upload": (True, True, False, True),
    "tabs": (False, True, False, False),
    "extract": (False, False, False, True),
    "wait": (False, False, False, True),
    "restart": (False, True, False, False),
    "key": (True, True, False, False),
    "set_value": (True, True, False, False),
    "activate": (False, True, False, False),
    "read": (False, False, False, False),
    "ask_user": (False, False, True, False),
    "request_approval": (False, False, True, False),
    "schedule": (False, False, True, False),
    "done": (False, False, False, False),
}


def test_every_action_declares_its_traits() -> None:
    got = {
        op: (cls.is_input, cls.needs_lease, cls.user_op, cls.watches_popups)
        for op, cls in a.ACTION_TYPES.items()
    }
    assert got == TRAITS


def test_the_op_sets_are_read_from_the_traits() -> None:
    assert {op for op, t in TRAITS.items() if t[0]} == a.INPUT_OPS
    assert {op for op, t in TRAITS.items() if t[2]} == a.USER_OPS
    assert {"schedule"} == a.TIMELINE_OPS


def test_listing_tabs_needs_no_lease_but_changing_them_does() -> None:
    assert a.Tabs().takes_lease() is False
    assert a.Tabs(action="activate", index=1).takes_lease() is True
    assert a.Tabs(action="close", index=0).tab() == 0
    assert a.Extract().takes_lease() is False
    assert a.Click(ref="e1").takes_lease() is True


def test_a_required_target_is_always_there() -> None:
    assert a.Click(x=3, y=4).target().xy == (3.0, 4.0)
    assert a.Hover(role="link", name="Home").target().describe() == "link 'Home'"
    assert a.Fill(selector="#q", value="x").target().describe() == "css=#q"
    assert a.Press(key="Enter").target() is None
    cases: list[tuple[str, dict[str, object], str]] = [
        ("click", {}, "click needs a ref, role (+ name), selector, or x and y"),
        ("hover", {}, "hover needs a ref, role (+ name), selector, or x and y"),
        ("fill", {"value": "x"}, "fill needs a ref, role (+ name) or selector"),
        ("select", {"value": "x"}, "select needs a ref, role (+ name) or selector"),
        ("check", {}, "check needs a ref, role (+ name) or selector"),
        (
            "upload",
            {"files": ["a.txt"]},
            "upload needs a ref, role (+ name) or selector of a file input",
        ),
    ]
    for op, args, message in cases:
        with pytest.raises(ValidationError, match=re.escape(message)):
            a.ACTION_TYPES[op].model_validate({"op": op, **args})


def test_a_step_target_describes_what_the_action_addresses() -> None:
    assert describe(a.Click(ref="e3")) == "ref=e3"
    assert describe(a.Navigate(url="http://shop.test/")) == "http://shop.test/"
    assert describe(a.Tabs(action="close", index=2)) == "close 2"
    assert describe(a.Tabs()) == "list"
    assert describe(a.AskUser(question="Which size?", key="shoe_size")) == "shoe_size"
    assert describe(a.Press(key="Enter")) is None


def _cases(source: Path, function: str) -> list[str]:
    """The action classes the ``match`` of ``function`` names, in order (or-patterns too)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    found = next(
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.AsyncFunctionDef | ast.FunctionDef) and n.name == function
    )
    names = []
    for node in ast.walk(found):
        if not isinstance(node, ast.Match):
            continue
        for case in node.cases:
            patterns = (
                case.pattern.patterns if isinstance(case.pattern, ast.MatchOr) else [case.pattern]
            )
            names += [
                p.cls.attr
                for p in patterns
                if isinstance(p, ast.MatchClass) and isinstance(p.cls, ast.Attribute)
            ]
    return names


def test_the_driver_dispatches_every_op_in_one_match() -> None:
    assert _cases(HANDLERS, "dispatch") == [cls.__name__ for cls in a.ACTION_TYPES.values()]


def test_the_desktop_dispatches_every_op_in_one_match() -> None:
    """Each op is a case of the desktop's match: its own verbs, and a browser verb refused."""
    names = _cases(DESKTOP, "dispatch")
    assert sorted(names) == sorted(cls.__name__ for cls in a.ACTION_TYPES.values())
    desktop_first = [n for n in names if "desktop" in getattr(a, n).surfaces]
    assert set(desktop_first) == {cls.__name__ for cls in a.ops_on("desktop").values()}


def test_each_surface_has_its_verbs_and_both_share_the_common_ones() -> None:
    assert set(a.ops_on("desktop")) == {
        "press", "type", "wait", "key", "set_value", "activate", "read",
        "ask_user", "request_approval", "schedule", "done",
    }  # fmt: skip
    assert set(a.ops_on("browser")) & set(a.ops_on("desktop")) == {
        "press", "type", "wait", "ask_user", "request_approval", "schedule", "done",
    }  # fmt: skip
    assert a.Press(role="push button", name="OK").key is None
    with pytest.raises(ValidationError, match="press needs a key"):
        a.Press()
    with pytest.raises(ValidationError, match="exactly one of window"):
        a.Activate()


def test_an_over_specified_target_uses_the_first_way_and_names_the_rest() -> None:
    both = a.Click(ref="e4", x=30, y=40)
    assert both.target().describe() == "ref=e4"
    assert both.ignored() == ("x", "y")
    role_and_css = a.Click(role="button", name="Go", selector="#go")
    assert role_and_css.target().describe() == "button 'Go'"
    assert role_and_css.ignored() == ("selector",)
    everything = a.Fill(ref="e2", role="textbox", name="Email", selector="#e", value="x")
    assert everything.target() == a.Target(ref="e2")
    assert everything.ignored() == ("role", "name", "selector")
    assert a.Click(x=1, y=2).ignored() == () and a.Click(x=1, y=2).target().xy == (1.0, 2.0)
    assert a.PRECEDENCE == ("ref", "role", "selector", "x")
    wrong: list[tuple[dict[str, object], str]] = [
        ({}, "click needs a ref, role (+ name), selector, or x and y"),
        ({"x": 3}, "give both x and y"),
        ({"name": "Go"}, "name needs a role, e.g. role: button"),
    ]
    for args, message in wrong:
        with pytest.raises(ValidationError, match=re.escape(message)):
            a.Click.model_validate({"op": "click", **args})
