"""Tool schemas made from the action models: one source of truth for what a model may do.

An action's docstring is the tool's description and its JSON Schema (without
``op``, flat) is the tool's parameters, both built by ``proctor.computer.tool_schema``,
which the MCP lane's tools use too. The planning, user and judge tools are small
pydantic models here, described the same way.

A model is sent an action's schema terse (``terse``): every request pays for every
tool, and a local model pays for it in the cold first decision. The ways of addressing
an element (``ADDRESS``) appear by their type alone and ``UNLISTED`` not at all, since
the system prompt describes them once; defaults, bounds and titles are left out (the
description says what matters, and a refused value gets a repair turn).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from proctor.agents.llm._messages import ToolCall
from proctor.computer.actions import ACTION_TYPES, Action, ops_on
from proctor.computer.tool_schema import tool_description, tool_parameters
from proctor.vocab import Surface


class _Tool(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NextStep(_Tool):
    """Add the next step of the plan: which target (page, link, field, button) and what to do."""

    step: str = Field(description="The step, e.g. 'click the link Pricing in the header'.")


class PlanComplete(_Tool):
    """The plan is complete: every step the task needs is listed."""


class JudgeReply(_Tool):
    """Give the verdict on the criterion, from the evidence shown and nothing else."""

    passed: bool = Field(description="True when the evidence shows the criterion holds.")
    reason: str = Field(description="Why, citing the evidence, in one or two sentences.")


class PersonaReply(_Tool):
    """Say your answer to the agent's question, as the person you play."""

    answer: str = Field(
        description='What you say, briefly; "I don\'t know." when you would not know.'
    )


class UserRating(_Tool):
    """Rate the attempt as the user who gave the task would, from the evidence shown."""

    score: int = Field(
        ge=1,
        le=5,
        description="1: useless or harmful; 2: mostly not what I asked; 3: partly done; "
        "4: done, with flaws; 5: exactly what I wanted.",
    )
    reason: str = Field(description="Why, as the user would say it, in one sentence.")


PLAN_TOOLS: dict[str, type[BaseModel]] = {"next_step": NextStep, "plan_complete": PlanComplete}
JUDGE_TOOLS: dict[str, type[BaseModel]] = {"verdict": JudgeReply}
PERSONA_TOOLS: dict[str, type[BaseModel]] = {"answer": PersonaReply}
REVIEW_TOOLS: dict[str, type[BaseModel]] = {"rating": UserRating}


@dataclass(frozen=True)
class ToolSpec:
    """A tool as both wire formats need it."""

    name: str
    description: str
    parameters: dict[str, Any]

    def openai(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    def anthropic(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.parameters}


ADDRESS = ("ref", "role", "name", "x", "y")
"""The ways of addressing an element or a point: listed by type, described in the system
prompt once."""
UNLISTED = ("exact", "selector")
"""Accepted by every action that addresses an element, described in the system prompt, and
left out of the schemas."""
_KEPT = ("type", "enum", "description", "items", "properties", "required")


def terse(schema: dict[str, Any]) -> dict[str, Any]:
    """A flat action schema as a model is sent it: addressing by type, one description a
    parameter, no defaults, bounds or titles."""
    out: dict[str, Any] = {k: v for k, v in schema.items() if k in _KEPT}
    if "properties" in schema:
        props: dict[str, Any] = {}
        for name, prop in schema["properties"].items():
            if name in UNLISTED:
                continue
            props[name] = {"type": prop.get("type", "string")} if name in ADDRESS else terse(prop)
        out["properties"] = props
        out["type"] = "object"
    if isinstance(out.get("items"), dict):
        out["items"] = terse(out["items"])
    if "description" in out:
        out["description"] = out["description"].split("\n")[0]
    return out


def tool_spec(
    name: str, model: type[BaseModel], surface: Surface | None = None, *, lean: bool = False
) -> ToolSpec:
    """The tool for ``model``: its docstring and its schema, ``op`` removed, refs inlined
    (both as ``surface`` has them, when given); ``lean``: the schema ``terse``."""
    description = tool_description(model, markdown=True, surface=surface) or name
    parameters = tool_parameters(model, flat=True, surface=surface)
    return ToolSpec(name, description, terse(parameters) if lean else parameters)


def action_tools(
    *,
    user: bool = False,
    surface: Surface = "browser",
    timeline: bool = False,
    offered: Collection[str] | None = None,
) -> list[ToolSpec]:
    """One tool per action of the computer toolset on ``surface``, in the union's order,
    each ``terse``.

    ``ask_user`` and ``request_approval`` (``user_op`` actions) are offered only
    when ``user`` is true; ``schedule`` only when ``timeline`` is; with ``offered``
    (``offered_tools``), only those it names.
    """
    return [
        tool_spec(op, cls, surface, lean=True)
        for op, cls in ops_on(surface).items()
        if (user or not cls.user_op)
        and (timeline or not cls.timeline_op)
        and (offered is None or op in offered)
    ]


COMPUTER_FUNCTIONS = ("navigate", "back", "done")
"""The function tools offered beside a provider's native computer tool: what a screen
cannot show (the address bar, the history) and the end of the task, as the providers'
own browser harnesses offer them."""


def computer_functions(
    *, user: bool = False, offered: Collection[str] | None = None
) -> list[ToolSpec]:
    """The function tools beside the native computer tool (and the user's, when ``user`` and
    ``offered`` names them)."""
    asks = [op for op in ("ask_user", "request_approval") if offered is None or op in offered]
    ops = [*COMPUTER_FUNCTIONS, *(asks if user else ())]
    return [tool_spec(op, ACTION_TYPES[op], "browser", lean=True) for op in ops]


def tools_for(names: Iterable[str], table: dict[str, type[BaseModel]]) -> list[ToolSpec]:
    return [tool_spec(name, table[name]) for name in names]


class ToolCallError(ValueError):
    """A tool call the harness cannot run: unknown tool, bad JSON or invalid arguments."""


def arguments(call: ToolCall) -> dict[str, Any]:
    """The call's arguments as a mapping.

    Raises:
        ToolCallError: when they are not a JSON object.
    """
    try:
        value = json.loads(call.arguments or "{}")
    except json.JSONDecodeError as exc:
        raise ToolCallError(f"{call.name}: arguments are not valid JSON ({exc.msg})") from exc
    if not isinstance(value, dict):
        raise ToolCallError(f"{call.name}: arguments must be a JSON object")
    return value


def parse_call(call: ToolCall, allowed: Mapping[str, type[BaseModel]]) -> BaseModel:
    """The validated model of a tool call among ``allowed`` tools.

    Raises:
        ToolCallError: naming the tool and what is wrong with its arguments.
    """
    model = allowed.get(call.name)
    if model is None:
        raise ToolCallError(f"unknown tool {call.name!r}; the tools are: {', '.join(allowed)}")
    args = arguments(call)
    if call.name in ACTION_TYPES:
        args = {**args, "op": call.name}
    try:
        return model.model_validate(args)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()
        )
        raise ToolCallError(f"{call.name}: {problems}") from exc


def parse_action(call: ToolCall, surface: Surface = "browser") -> Action:
    """The action a tool call asks for, among the actions of ``surface``.

    Raises:
        ToolCallError: when the call is not a valid action there.
    """
    action = parse_call(call, ops_on(surface))
    return action  # type: ignore[return-value]


def names(specs: Sequence[ToolSpec]) -> list[str]:
    return [s.name for s in specs]
