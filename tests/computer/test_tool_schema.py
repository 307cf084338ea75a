"""One schema builder serves the MCP lane and the model providers."""

from __future__ import annotations

import json

from proctor.agents.llm import action_tools
from proctor.agents.llm._tools import terse
from proctor.computer import actions as a
from proctor.computer._mcp_tools import description, input_schema
from proctor.computer.tool_schema import tool_description, tool_parameters


def test_both_tool_surfaces_describe_an_action_by_its_docstring() -> None:
    for surface in ("browser", "desktop"):
        llm = {t.name: t for t in action_tools(user=True, surface=surface, timeline=True)}
        assert set(llm) == set(a.ops_on(surface))
        for op, cls in a.ops_on(surface).items():
            assert description(op, surface) == tool_description(cls, surface=surface)
            assert llm[op].description == tool_description(cls, markdown=True, surface=surface)
            # a model is sent the flat schema terse (addressing described once, in its prompt)
            assert llm[op].parameters == terse(tool_parameters(cls, flat=True, surface=surface))
            assert input_schema(op, surface) == tool_parameters(cls, surface=surface)
            if surface not in cls.surface_doc:
                assert description(op, surface) == tool_description(cls)


def test_the_flat_schema_has_no_refs_titles_or_op() -> None:
    flat = json.dumps(tool_parameters(a.Drag, flat=True))
    assert "$ref" not in flat and '"title"' not in flat and '"op"' not in flat
    assert tool_parameters(a.Click, flat=True)["properties"]["x"] == {
        "description": "Page x coordinate in CSS pixels.",
        "type": "number",
    }


def test_the_mcp_schema_keeps_defs_and_a_members_op() -> None:
    batch = input_schema("batch")
    assert batch["required"] == ["actions"]
    assert batch["$defs"]["Click"]["required"] == ["op"]
    assert "op" not in input_schema("click")["properties"]


def test_user_ops_are_offered_only_with_a_user() -> None:
    assert {t.name for t in action_tools(user=True)} - {t.name for t in action_tools()} == set(
        a.USER_OPS - a.TIMELINE_OPS
    )
    timed = {t.name for t in action_tools(user=True, timeline=True)}
    assert timed - {t.name for t in action_tools(user=True)} == {"schedule"}
