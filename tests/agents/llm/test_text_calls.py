"""Calls written as text are read only when all of the text is calls of offered tools."""

from __future__ import annotations

import json

import pytest

from proctor.agents.llm._messages import ToolCall
from proctor.agents.llm._text_calls import text_calls

TOOLS = ("navigate", "click", "fill", "done")
NAV = '{"name": "navigate", "arguments": {"url": "http://search.proctor.test/"}}'


def read(text: str) -> list[tuple[str, dict[str, object]]]:
    return [(c.name, json.loads(c.arguments)) for c in text_calls(text, TOOLS, prefix="t")]


def test_one_call_json_lines_and_their_wrappings() -> None:
    url = {"url": "http://search.proctor.test/"}
    assert read(NAV) == [("navigate", url)]
    assert read(f"  {NAV}\n\n") == [("navigate", url)]
    pretty = json.dumps(json.loads(NAV), indent=2)  # one call over several lines
    assert read(pretty) == [("navigate", url)]
    lines = NAV + '\n{"name": "click", "arguments": {"ref": "e9"}}\n{"name": "done"}'
    assert read(lines) == [("navigate", url), ("click", {"ref": "e9"}), ("done", {})]
    assert read(f"```json\n{NAV}\n```") == [("navigate", url)]
    assert read(f"<tool_call>\n{NAV}\n</tool_call>") == [("navigate", url)]
    # Llama's "parameters", and arguments given as a JSON string
    assert read('{"name": "click", "parameters": {"ref": "e2"}}') == [("click", {"ref": "e2"})]
    assert read('{"name": "click", "arguments": "{\\"ref\\": \\"e3\\"}"}') == [
        ("click", {"ref": "e3"})
    ]


def test_ids_are_numbered_under_the_prefix() -> None:
    calls = text_calls(f"{NAV}\n{NAV}", TOOLS, prefix="text_4")
    assert [c.id for c in calls] == ["text_4_0", "text_4_1"]
    assert all(isinstance(c, ToolCall) for c in calls)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "I will open the page.",
        f"First I open the page:\n{NAV}",  # prose beside a call: not wholly calls
        '{"name": "upload", "arguments": {"files": ["a"]}}',  # a tool not offered
        f'{NAV}\n{{"name": "fly", "arguments": {{}}}}',  # one line names no offered tool
        '{"name": "click", "arguments": {"ref": "e9"}, "id": 3}',  # not a call's keys
        '{"name": "click", "arguments": ["e9"]}',
        '{"name": "click", "arguments": "not json"}',
        '["navigate"]',
    ],
)
def test_anything_else_is_no_call(text: str) -> None:
    assert text_calls(text, TOOLS, prefix="t") == ()
