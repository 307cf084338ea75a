"""Tool schemas come from the action models: one source of truth."""

from __future__ import annotations

import inspect
import json

import pytest

from proctor.agents.llm import Prompts, action_tools
from proctor.agents.llm._messages import ToolCall
from proctor.agents.llm._tools import ToolCallError, parse_action
from proctor.computer.actions import ACTION_TYPES, Click, ops_on


def test_every_action_is_a_tool_described_by_its_docstring() -> None:
    tools = {t.name: t for t in action_tools(user=True, timeline=True)}
    assert list(tools) == list(ops_on("browser"))
    untimed = [t.name for t in action_tools(user=True)]
    assert untimed == [op for op in ops_on("browser") if op != "schedule"]
    for op, cls in ops_on("browser").items():
        assert tools[op].description == inspect.cleandoc(cls.__doc__ or "").replace("``", "`")
        assert "op" not in tools[op].parameters["properties"]


def test_a_desktop_is_offered_its_own_verbs_and_words() -> None:
    tools = {t.name: t for t in action_tools(user=True, surface="desktop", timeline=True)}
    assert list(tools) == [
        "press", "type", "wait", "key", "set_value", "activate", "read",
        "ask_user", "request_approval", "schedule", "done",
    ]  # fmt: skip
    assert set(tools) | set(ops_on("browser")) == set(ACTION_TYPES)
    press = tools["press"]
    assert press.description.startswith("Press a control (by ref, or role and name)")
    assert "key" not in press.parameters["properties"]
    assert "selector" not in press.parameters["properties"]
    assert "key" in {t.name: t for t in action_tools()}["press"].parameters["properties"]
    # an op of the other surface is refused as a tool the model does not have
    with pytest.raises(ToolCallError, match="unknown tool 'navigate'"):
        parse_action(ToolCall("c1", "navigate", '{"url": "http://x.test"}'), "desktop")
    with pytest.raises(ToolCallError, match="unknown tool 'set_value'"):
        parse_action(ToolCall("c1", "set_value", '{"ref": "e1", "value": "1"}'))


def test_click_schema_is_exact_and_terse() -> None:
    # Addressing by type alone (the system prompt describes it once), exact and selector
    # not listed, no defaults, bounds or titles: one line a parameter.
    click = next(t for t in action_tools() if t.name == "click")
    assert click.openai() == {
        "type": "function",
        "function": {
            "name": "click",
            "description": (
                "Click an element (by ref, role and name, or CSS selector) or a point x,y."
            ),
            "parameters": {
                "properties": {
                    "ref": {"type": "string"},
                    "role": {"type": "string"},
                    "name": {"type": "string"},
                    "x": {"type": "number"},
                    "y": {"type": "number"},
                    "mouse_button": {
                        "enum": ["left", "right", "middle"],
                        "type": "string",
                        "description": "The mouse button, not a page's button: left (default), "
                        "right, middle.",
                    },
                    "clicks": {
                        "type": "integer",
                        "description": "Clicks in a row: 1 (the default), 2 for a double click "
                        "(selects a word), 3 for a triple click (selects a line or a field's "
                        "text).",
                    },
                },
                "type": "object",
            },
        },
    }
    assert click.anthropic()["input_schema"] == click.parameters
    # What the schema leaves out is still accepted: the system prompt names it.
    call = ToolCall("c1", "click", '{"role": "link", "name": "Do", "exact": false}')
    assert parse_action(call) == Click(role="link", name="Do", exact=False)
    assert parse_action(ToolCall("c1", "click", '{"selector": "#go"}')) == Click(selector="#go")
    system = Prompts().render("system", surface="browser", tools=["click", "done"])
    assert all(f"`{word}`" in system for word in ("role", "name", "exact: false", "selector"))


def test_nested_points_are_terse_too() -> None:
    drag = next(t for t in action_tools() if t.name == "drag").parameters
    start = drag["properties"]["start"]
    assert start == {
        "description": "Where the pointer goes down.",
        "properties": {
            "ref": {"type": "string"},
            "role": {"type": "string"},
            "name": {"type": "string"},
            "x": {"type": "number"},
            "y": {"type": "number"},
        },
        "type": "object",
    }
    assert drag["required"] == ["start", "end"]
    assert "default" not in json.dumps(drag) and "minimum" not in json.dumps(drag)


def test_offered_names_the_tools_in_the_unions_order() -> None:
    names = [t.name for t in action_tools(user=True, offered={"done", "click", "ask_user"})]
    assert names == ["click", "ask_user", "done"]
    # a user tool needs a user even when offered
    assert [t.name for t in action_tools(offered={"ask_user", "done"})] == ["done"]


def test_user_tools_are_offered_only_with_a_user() -> None:
    names = [t.name for t in action_tools()]
    assert "ask_user" not in names and "request_approval" not in names
    assert "done" in names


def test_tool_calls_parse_into_actions_or_say_what_is_wrong() -> None:
    call = ToolCall("c1", "click", '{"role": "link", "name": "Docs"}')
    assert parse_action(call) == Click(role="link", name="Docs")
    with pytest.raises(ToolCallError, match="not valid JSON"):
        parse_action(ToolCall("c1", "click", '{"role": '))
    with pytest.raises(ToolCallError, match="unknown tool 'fly'"):
        parse_action(ToolCall("c1", "fly", "{}"))
    with pytest.raises(ToolCallError, match="click needs a ref"):
        parse_action(ToolCall("c1", "click", "{}"))


def test_the_mouse_button_says_so_and_older_recordings_still_load() -> None:
    click = next(t for t in action_tools() if t.name == "click")
    button = click.parameters["properties"]["mouse_button"]
    assert "button" not in click.parameters["properties"]
    assert button["description"].startswith("The mouse button, not a page's button")
    right = Click(x=1, y=2, mouse_button="right")
    given = '{"x": 1, "y": 2, "mouse_button": "right"}'
    assert parse_action(ToolCall("c1", "click", given)) == right
    # the old name, as recorded transcripts and scenario files spell it
    assert parse_action(ToolCall("c1", "click", '{"x": 1, "y": 2, "button": "right"}')) == right
    assert right.mouse() == {"button": "right"}
