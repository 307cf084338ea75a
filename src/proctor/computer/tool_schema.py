"""Tool schemas made from pydantic models: the one builder both tool surfaces use.

A tool's description is its model's docstring and its parameters are the
model's JSON Schema without ``op`` (the tool's name says it). The MCP lane
(``_mcp_tools``) serves the schema with its ``$defs``; the model providers
(``proctor.agents.llm``) take it flat: refs inlined, titles dropped, and an
optional field spelled as its type.
"""

from __future__ import annotations

import copy
import inspect
from typing import Any

from pydantic import BaseModel

from proctor.vocab import Surface


def tool_description(
    model: type[BaseModel], *, markdown: bool = False, surface: Surface | None = None
) -> str:
    """The model's docstring, dedented (or its ``surface_doc`` on ``surface``); with
    ``markdown``, ``code`` becomes `code`."""
    docs: dict[str, str] = getattr(model, "surface_doc", {})
    text = docs.get(surface, "") if surface is not None else ""
    text = text or inspect.cleandoc(model.__doc__ or "")
    return text.replace("``", "`") if markdown else text


def tool_parameters(
    model: type[BaseModel], *, flat: bool = False, surface: Surface | None = None
) -> dict[str, Any]:
    """The model's JSON Schema as a tool's parameters, without ``op``.

    Args:
        model: An action model, or any other tool's model.
        flat: Inline ``$defs`` and drop titles and ``anyOf [T, null]`` (model providers);
            otherwise keep ``$defs``, where a union member's ``op`` stays required (MCP).
        surface: Leave out the fields the model's ``surface_hidden`` hides on it.
    """
    schema = copy.deepcopy(model.model_json_schema())
    hidden_on: dict[str, frozenset[str]] = getattr(model, "surface_hidden", {})
    hidden = hidden_on.get(surface, frozenset()) if surface is not None else frozenset()
    for name in hidden:
        schema.get("properties", {}).pop(name, None)
    if flat:
        defs = schema.pop("$defs", {})
        schema = _clean(_inline(schema, defs))
    else:
        schema.pop("title", None)
    schema.pop("description", None)
    schema.setdefault("properties", {}).pop("op", None)
    if "required" in schema:
        schema["required"] = [f for f in schema["required"] if f != "op"]
        if not schema["required"]:
            del schema["required"]
    # A union member carries its op; it is the discriminator, so it is required there.
    for member in schema.get("$defs", {}).values():
        op = member.get("properties", {}).get("op", {})
        if "const" in op:
            member["required"] = ["op", *(f for f in member.get("required", []) if f != "op")]
            op.setdefault("description", f"The action this member runs: the {op['const']} tool.")
    return schema


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = dict(defs[ref.removeprefix("#/$defs/")])
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return _inline({**target, **rest}, defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _clean(node: Any) -> Any:
    """Drop pydantic's titles, and spell an optional field as its type.

    Titles cost tokens and say nothing the names do not; ``anyOf [T, null]``
    with a null default is just an optional T, which every provider reads.
    """
    if isinstance(node, dict):
        options = node.get("anyOf")
        if (
            isinstance(options, list)
            and len(options) == 2
            and {"type": "null"} in options
            and "default" in node
            and node["default"] is None
        ):
            other = next(o for o in options if o != {"type": "null"})
            rest = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
            return _clean({**other, **rest})
        return {k: _clean(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(node, list):
        return [_clean(v) for v in node]
    return node
