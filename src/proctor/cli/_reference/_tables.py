"""What every reference page is made of: type names, field tables, model sections, the page."""

from __future__ import annotations

import enum
import inspect
import json
import re
import types
import typing
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined, to_jsonable_python

from proctor.computer import ActionModel
from proctor.scenario import (
    Check,
)

GENERATED = (
    "Generated from the code by `make docs` (`python -m proctor.cli._reference`); "
    "`tests/test_reference_docs.py` fails when this page is out of date. Do not edit it by hand."
)


def doc_of(obj: Any) -> str:
    """An object's own docstring, dedented, with RST ``code`` as markdown `code`."""
    text = inspect.cleandoc(obj.__dict__.get("__doc__") or "") if hasattr(obj, "__dict__") else ""
    return text.replace("``", "`")


def cell(text: str) -> str:
    """Text safe inside a markdown table cell: one line, pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def type_name(annotation: Any, link: bool = True) -> str:
    """A short, stable name of a type: models link to their section when ``link``."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return type_name(args[0], link)
    if origin is typing.Literal:
        return " | ".join(json.dumps(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        members = [typing.get_args(a)[0] if typing.get_origin(a) is typing.Annotated else a
                   for a in args]  # fmt: skip
        for family, word, where in _FAMILIES:
            if all(isinstance(m, type) and issubclass(m, family) for m in members):
                return f"[{word}]({where})" if link else word
        return " | ".join(type_name(a, link) for a in args)
    if origin is not None:
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{', '.join(type_name(a, link) for a in args)}]" if args else name
    if annotation is type(None):
        return "null"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"[{annotation.__name__}](#{annotation.__name__.lower()})" if link else (
            annotation.__name__
        )  # fmt: skip
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models a type mentions, in order."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        found += models_in(arg)
    return found


_FAMILIES: tuple[tuple[type, str, str], ...] = (
    (Check, "check", "checks.md#contents"),
    (ActionModel, "action", "actions.md#actions"),
)
"""Unions of these families show as one word: any check, any action."""

_BOUNDS = (
    ("gt", ">"), ("ge", ">="), ("lt", "<"), ("le", "<="),
    ("min_length", "min length"), ("max_length", "max length"), ("pattern", "pattern"),
)  # fmt: skip


def constraints(info: FieldInfo) -> str:
    """A field's bounds and pattern, e.g. ``>= 1, <= 3``."""
    parts: list[str] = []
    for item in info.metadata:
        for attr, word in _BOUNDS:
            value = getattr(item, attr, None)
            if value is not None:
                parts.append(f"{word} `{value}`" if attr == "pattern" else f"{word} {value}")
    return ", ".join(parts)


def default_of(info: FieldInfo) -> str:
    """A field's default as JSON, `required` when it has none."""
    if info.is_required():
        return "required"
    value = info.get_default(call_default_factory=True)
    if value is PydanticUndefined:
        return "required"
    if isinstance(value, enum.Enum):
        value = value.value
    text = json.dumps(to_jsonable_python(value, by_alias=True), ensure_ascii=False)
    return f"`{text}`" if len(text) <= 60 else "the defaults of its fields"


def field_rows(model: type[BaseModel], skip: tuple[str, ...] = ()) -> list[str]:
    """A markdown table of a model's fields: name, type, default, description."""
    rows = ["| field | type | default | description |", "|---|---|---|---|"]
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key in skip:
            continue
        what = info.description or ""
        bounds = constraints(info)
        if bounds:
            what = f"{what} ({bounds})" if what else f"({bounds})"
        rows.append(
            f"| `{key}` | {cell(type_name(info.annotation))} | {cell(default_of(info))} "
            f"| {cell(what.replace('``', '`')) or '–'} |"
        )
    return rows if len(rows) > 2 else ["No fields."]


def model_section(model: type[BaseModel], level: str = "###") -> list[str]:
    """A model's heading (its class name), docstring and field table."""
    parts = [f"{level} {model.__name__}", ""]
    doc = doc_of(model)
    if doc:
        parts += [doc, ""]
    return parts + field_rows(model) + [""]


def reachable(
    roots: list[type[BaseModel]], stop: frozenset[type[BaseModel]] = frozenset()
) -> list[type[BaseModel]]:
    """Every model the roots' fields mention, transitively, roots and ``stop`` excluded."""
    seen: list[type[BaseModel]] = []
    todo = list(roots)
    while todo:
        model = todo.pop(0)
        for info in model.model_fields.values():
            for inner in models_in(info.annotation):
                if inner not in seen and inner not in roots and inner not in stop:
                    seen.append(inner)
                    todo.append(inner)
    return sorted(seen, key=lambda m: m.__name__)


def page(title: str, intro: str, body: list[str]) -> str:
    """A whole page: title, the generated note, intro, then the body; one final newline."""
    text = "\n".join([f"# {title}", "", GENERATED, "", intro.strip(), "", *body])
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"
