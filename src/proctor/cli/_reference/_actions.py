"""actions.md: every action op with its traits, the MCP lane's own tools, what a scenario
step adds, and the timeline's events."""

from __future__ import annotations

from pydantic import BaseModel

from proctor.cli._reference._tables import (
    doc_of,
    field_rows,
    model_section,
    page,
    reachable,
)
from proctor.computer import ACTION_TYPES, OWN_TOOLS, ActionModel
from proctor.scenario import (
    Decoy,
    PlayEvent,
)


def traits(model: type[ActionModel]) -> str:
    """The traits of an action, in words."""
    parts = [f"surfaces: {', '.join(sorted(model.surfaces))}"]
    parts.append("an input" if model.is_input else "not an input")
    if not model.needs_lease:
        parts.append("allowed after the lease is revoked")
    if model.user_op:
        parts.append("answered by the simulated user (no page touched)")
    if model.timeline_op:
        parts.append("offered only with a timeline (`play:`)")
    return "; ".join(parts) + "."


def actions_page() -> str:
    """Every action op, the lane's own tools, scenario steps and timeline events."""
    ops = sorted(ACTION_TYPES)
    body = ["## Contents", ""]
    body += [f"- [{op}](#{op})" for op in ops]
    body += [f"- [{tool}](#{tool}) (MCP tool)" for tool in sorted(OWN_TOOLS)]
    body += [
        "- [Scenario steps](#scenario-steps)",
        "- [Timeline events](#timeline-events)",
        "- [Argument types](#argument-types)",
        "",
        "## Actions",
        "",
    ]
    used: list[type[BaseModel]] = []
    for op in ops:
        model = ACTION_TYPES[op]
        body += [f"### {op}", "", doc_of(model), "", f"*{traits(model)}*", ""]
        for surface, text in sorted(model.surface_doc.items()):
            body += [f"On the {surface}: {text}", ""]
        for surface, hidden in sorted(model.surface_hidden.items()):
            names = ", ".join(f"`{n}`" for n in sorted(hidden))
            body += [f"Not offered on the {surface}: {names}.", ""]
        body += [*field_rows(model, skip=("op",)), ""]
        used.append(model)
    body += [
        "## MCP tools",
        "",
        "Besides one tool per action, the MCP lane offers these. Each counts as one tool call "
        "(a batch counts once per member it runs); none is a step.",
        "",
    ]
    for tool in sorted(OWN_TOOLS):
        tool_model = OWN_TOOLS[tool]
        body += [f"### {tool}", "", doc_of(tool_model), ""]
        for surface, text in sorted(getattr(tool_model, "surface_doc", {}).items()):
            body += [f"On the {surface}: {text}", ""]
        body += [*field_rows(tool_model), ""]
        used.append(tool_model)
    marks = [Decoy.model_fields[name] for name in ("expect_error", "expect_refused")]
    body += [
        "## Scenario steps",
        "",
        "A scenario's `solution`, each decoy's `steps` and a desktop app's `setup` are lists "
        "of the actions above, written as mappings with their `op`, e.g. "
        "`{op: click, role: button, name: Send}`. The user ops (`ask_user`, "
        "`request_approval`, `schedule`) are steps too: the simulated user answers them. "
        "A decoy step may also say how it is meant to end, `expect: error` or "
        "`expect: refused` (`expect_error: true` is the older spelling of `expect: error`); "
        "any other decoy step must run ok:",
        "",
        f"- `expect: error` (`expect_error`): {marks[0].description}",
        f"- `expect: refused` (`expect_refused`): {marks[1].description}",
        "",
        "## Timeline events",
        "",
        doc_of(PlayEvent),
        "",
        *field_rows(PlayEvent),
        "",
    ]
    body += ["## Argument types", "", "Models the actions and events above refer to.", ""]
    stop: frozenset[type[BaseModel]] = frozenset(
        {*ACTION_TYPES.values(), *OWN_TOOLS.values(), PlayEvent}
    )
    for shared in reachable([*used, PlayEvent], stop=stop):
        body += model_section(shared)
    intro = (
        "Everything an agent may do to the computer is one typed action, named by its `op`. "
        "The action's docstring is the tool description agents see, and its fields are the "
        "tool's arguments. An element is addressed by `ref` (from the snapshot), `role` and "
        "`name`, a CSS `selector`, or `x`/`y`; when several are given the first of that order "
        "is used and the rest is recorded in the step's `facts.ignored`. See "
        "[the agents guide](../agents.md) for how agents get these tools."
    )
    return page("Actions", intro, body)
