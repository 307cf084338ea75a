"""Turn pydantic's validation errors into located problems: field paths that read like the YAML.

pydantic's error paths carry its own tags: a discriminated union's tag (the
check kind, an action's op, a generated file's kind), a plain union's member
(``fields.qty.str``) and validator wrappers. ``validation_problems`` drops
them, keeps the union member the YAML value was written as, and words each
error with a hint (the valid keys, "did you mean", quoting YAML booleans).
"""

from __future__ import annotations

import difflib
import re
import typing
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from proctor.computer.actions import ACTION_TYPES
from proctor.scenario._checks import CHECK_TYPES, COMMON_KEYS
from proctor.scenario._files import GENERATE_KINDS
from proctor.scenario._issues import SpecIssue, SpecIssues, short_repr
from proctor.scenario._spec import Scenario


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one scenario file."""

    file: str
    field: str
    message: str
    hint: str = ""

    def __str__(self) -> str:
        where = f"{self.file}: {self.field}" if self.field else self.file
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{where}: {self.message}{hint}"


def problem_of(file: str, issue: SpecIssue) -> Problem:
    """A ``SpecIssue`` (raised by a validator with its own field path) as a ``Problem``."""
    return Problem(file, issue.field, issue.message, issue.hint)


def validation_problems(
    file: str, exc: ValidationError, data: Any, known: list[Problem]
) -> list[Problem]:
    """The problems of one failed ``Scenario.model_validate(data)``, none already in ``known``."""
    problems: list[Problem] = []
    located: list[Located] = []
    for details in exc.errors():
        cause = details.get("ctx", {}).get("error")
        if isinstance(cause, SpecIssues):
            problems.extend(problem_of(file, i) for i in cause.issues)
            continue
        located.append((_clean_loc(tuple(details["loc"])), dict(details)))
    seen = {(p.field, p.message) for p in [*known, *problems]}
    for loc, err in _union_members(located, data):
        message, hint = _hint_for(err, loc, data)
        field = _format_loc(loc)
        if (field, message) not in seen:
            seen.add((field, message))
            problems.append(Problem(file, field, message, hint))
    return problems


def closest(word: str, options: Collection[str]) -> str:
    match = difflib.get_close_matches(word, list(options), n=1, cutoff=0.5)
    return match[0] if match else ""


def _format_loc(loc: tuple[str | int, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _clean_loc(loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """Drop pydantic's union tags so paths read like the YAML: checks[2].submitted.route."""
    out: list[str | int] = []
    for i, part in enumerate(loc):
        if out and part == out[-1] and isinstance(part, str) and part in CHECK_TYPES:
            continue  # a discriminated-union tag repeated as the field name
        if isinstance(part, str) and part.startswith(("function-after[", "function-before[")):
            continue
        if (
            isinstance(part, str)
            and part in CHECK_TYPES
            and len(out) >= 2
            and isinstance(out[-1], int)
            and out[-2] in ("checks", "all", "any")
            and i + 1 < len(loc)
            and loc[i + 1] != part
        ):
            continue  # the tag before a key of the one-key check mapping itself: checks[0].name
        out.append(part)
    # an action union puts the op tag between index and field: solution[0].click.url
    cleaned: list[str | int] = []
    for i, part in enumerate(out):
        prev = out[i - 1] if i else None
        if prev == "generate" and part in GENERATE_KINDS:
            continue  # the kind tag: world.files[0].generate.pdf.pages
        if (
            isinstance(part, str)
            and part in ACTION_TYPES
            and isinstance(prev, int)
            and len(cleaned) >= 2
            and cleaned[-2] in ("solution", "steps")
        ):
            continue
        cleaned.append(part)
    return tuple(cleaned)


def _fields_of(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """Every pydantic model an annotation can hold (through list, dict, union, Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list[type[BaseModel]] = []
    for arg in typing.get_args(annotation):
        out.extend(_models_in(arg))
    return out


def _pick(models: list[type[BaseModel]], node: Any) -> type[BaseModel] | None:
    """The model among a union's members that the raw YAML node was meant to be."""
    if len(models) == 1:
        return models[0]
    if isinstance(node, dict):
        op = node.get("op")
        for model in models:
            if "op" in model.model_fields and model.model_fields["op"].default == op:
                return model
        for model in models:
            if any(key in model.model_fields for key in node if key != "name"):
                return model
    return None


def _model_at(loc: tuple[str | int, ...], data: Any) -> type[BaseModel] | None:
    """The pydantic model that owns the last field of ``loc``, walking the raw data."""
    model: type[BaseModel] | None = Scenario
    node: Any = data
    pending: list[type[BaseModel]] = []
    keyed = False  # the next part is a key of a dict-typed field, not a field name
    for part in loc[:-1]:
        if isinstance(part, int) or keyed:
            if isinstance(part, int):
                node = node[part] if isinstance(node, list) and part < len(node) else None
            else:
                node = node.get(part) if isinstance(node, dict) else None
            keyed = False
            if pending:
                model = _pick(pending, node)
                pending = []
            continue
        if model is None or part not in model.model_fields:
            return None
        node = node.get(part) if isinstance(node, dict) else None
        models = _models_in(model.model_fields[part].annotation)
        if not models:
            return None
        annotation = model.model_fields[part].annotation
        if typing.get_origin(annotation) in (list, dict):
            pending = models
            keyed = typing.get_origin(annotation) is dict
            model = None
            continue
        model = _pick(models, node)
    return model


# pydantic names each member of a plain union in the error path: fields.qty.str
_MEMBER_TAG = re.compile(r"^(?:str|int|float|bool|none|(?:list|dict|tuple|set)\[.*\]|[A-Z]\w*)$")


def _member_tag_index(loc: tuple[str | int, ...], data: Any) -> int | None:
    """Where a union member's tag sits in ``loc``; a key present in the YAML is never one."""
    node = data
    for i, part in enumerate(loc):
        tag_like = isinstance(part, str) and _MEMBER_TAG.match(part) is not None
        if tag_like and not (isinstance(node, dict) and part in node):
            return i
        if isinstance(part, int):
            node = node[part] if isinstance(node, list) and part < len(node) else None
        else:
            node = node.get(part) if isinstance(node, dict) else None
    return None


def _fits(tag: str, value: Any) -> bool:
    if isinstance(value, bool):
        return tag == "bool"
    if isinstance(value, int):
        return tag in ("int", "float")
    if isinstance(value, float):
        return tag == "float"
    if isinstance(value, str):
        return tag == "str"
    if isinstance(value, list):
        return tag.startswith(("list[", "tuple[", "set["))
    if isinstance(value, dict):
        return tag.startswith("dict[") or tag[:1].isupper()
    return value is None and tag == "none"


def _kind_of(tag: str) -> str:
    if tag[:1].isupper() or tag.startswith("dict["):
        return "a mapping"
    if tag.startswith(("list[", "tuple[", "set[")):
        return "a list"
    return {"str": "a string", "int": "an integer", "float": "a number"}.get(tag, tag)


Located = tuple[tuple[str | int, ...], dict[str, Any]]


def _union_members(errors: list[Located], data: Any) -> list[Located]:
    """Keep only the union member the YAML value was written as, without its tag.

    When no member fits (``qty: 2`` where a string, mapping or list is expected),
    one ``union_type`` error at the value replaces the members' errors.
    """
    # a plain error stands alone; a union's errors gather at their prefix's first place
    order: list[Located | None] = []
    groups: dict[tuple[str | int, ...], list[tuple[str, Located]]] = {}
    unions: list[tuple[str | int, ...]] = []
    for loc, err in errors:
        i = _member_tag_index(loc, data)
        if i is None:
            order.append((loc, err))
            continue
        prefix = loc[:i]
        if prefix not in groups:
            groups[prefix] = []
            unions.append(prefix)
            order.append(None)
        groups[prefix].append((str(loc[i]), (prefix + loc[i + 1 :], err)))
    pending = iter(unions)
    result: list[Located] = []
    for entry in order:
        if entry is not None:
            result.append(entry)
            continue
        prefix = next(pending)
        value = _value_at(prefix, data)
        fitting = [located for tag, located in groups[prefix] if _fits(tag, value)]
        if fitting:
            result.extend(fitting)
            continue
        kinds = list(dict.fromkeys(_kind_of(tag) for tag, _ in groups[prefix]))
        expected = ", ".join(kinds[:-1]) + f" or {kinds[-1]}" if len(kinds) > 1 else kinds[0]
        error = {"type": "union_type", "msg": f"expected {expected}", "input": value}
        result.append((prefix, error))
    return result


def _hint_for(err: dict[str, Any], loc: tuple[str | int, ...], data: Any) -> tuple[str, str]:
    """(message, hint) for one pydantic error."""
    kind = err["type"]
    msg = str(err["msg"])
    if kind == "scratch_path":
        return msg, str(err.get("ctx", {}).get("hint", ""))
    if kind == "extra_forbidden":
        model = _model_at(loc, data)
        key = str(loc[-1])
        if key in ("expect", "expect_error") and loc[0] == "solution":
            return (
                f"{key} is allowed only on decoy steps",
                "the oracle's steps must all succeed: remove it, or move the step into a decoy",
            )
        valid = _fields_of(model) if model else []
        # a key beside the check type in a check's one-key mapping
        if len(loc) >= 2 and isinstance(loc[-2], int) and loc[0] == "checks":
            node = _value_at(loc[:-1], data)
            kinds = [k for k in node if k in CHECK_TYPES] if isinstance(node, dict) else []
            if key in COMMON_KEYS and kinds:
                return (
                    f"unknown key {key!r} beside the check type {kinds[0]!r}",
                    f"put it inside the check's arguments: {kinds[0]}: {{{key}: ..., ...}}",
                )
            guess = closest(key, CHECK_TYPES)
            return (
                f"unknown check type {key!r}",
                (f"did you mean {guess!r}? " if guess else "")
                + f"valid check types: {', '.join(CHECK_TYPES)}",
            )
        guess = closest(key, valid)
        hint = f"did you mean {guess!r}?" if guess else ""
        if valid:
            hint = (hint + " " if hint else "") + f"valid keys: {', '.join(valid)}"
        return f"unknown key {key!r}", hint
    if kind == "unknown_check":
        node = _value_at(loc, data)
        keys = [k for k in node if k != "name"] if isinstance(node, dict) else []
        if len(keys) == 1:
            guess = closest(str(keys[0]), CHECK_TYPES)
            hint = f"did you mean {guess!r}? " if guess else ""
            return (
                f"unknown check type {keys[0]!r}",
                hint + f"valid check types: {', '.join(CHECK_TYPES)}",
            )
        known = [str(k) for k in keys if k in CHECK_TYPES]
        others = [str(k) for k in keys if k not in CHECK_TYPES]
        if len(known) > 1:
            return (
                f"one check holds several check types: {', '.join(known)}",
                "write each check as its own list item",
            )
        if len(known) == 1:
            if known[0] in ("all", "any"):
                guess = closest(others[0], ["name"])
                hint = f"did you mean {guess!r}? " if guess else ""
                return (
                    f"unknown key {others[0]!r} beside the check type {known[0]!r}",
                    hint + f"{known[0]} takes only `name` beside its list",
                )
            return (
                f"unknown key {others[0]!r} beside the check type {known[0]!r}",
                f"arguments go inside the check: {known[0]}: {{{others[0]}: ...}}",
            )
        return (
            "a check is a mapping with exactly one check type as its key",
            f"valid check types: {', '.join(CHECK_TYPES)}",
        )
    discriminator = str(err.get("ctx", {}).get("discriminator", "")).strip("'")
    if kind == "union_tag_invalid" and discriminator == "kind":
        tag = str(err.get("ctx", {}).get("tag", ""))
        guess = closest(tag, GENERATE_KINDS)
        hint = f"did you mean {guess!r}? " if guess else ""
        return f"unknown kind {tag!r}", hint + f"valid kinds: {', '.join(GENERATE_KINDS)}"
    if kind == "union_tag_not_found" and discriminator == "kind":
        return "a generated file needs a `kind`", f"valid kinds: {', '.join(GENERATE_KINDS)}"
    if kind == "union_tag_invalid":
        tag = str(err.get("ctx", {}).get("tag", ""))
        guess = closest(tag, ACTION_TYPES)
        hint = f"did you mean {guess!r}? " if guess else ""
        return f"unknown op {tag!r}", hint + f"valid ops: {', '.join(ACTION_TYPES)}"
    if kind == "union_tag_not_found":
        return "an action needs an `op`", f"valid ops: {', '.join(ACTION_TYPES)}"
    if kind == "missing":
        field = str(loc[-1]) if loc else ""
        if field == "solution":
            return "missing solution", "add `solution:` with the oracle steps that must pass"
        if field == "decoys":
            return "missing decoys", "add at least one decoy: {name, steps, fails}"
        return f"missing required field {field!r}", ""
    if kind == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        got = err.get("input")
        guess = closest(str(got), re.findall(r"'([^']+)'", str(expected)))
        hint = f"did you mean {guess!r}? " if guess else ""
        return f"{short_repr(got)} is not allowed", hint + f"expected {expected}"
    if kind.endswith("_type") or kind.endswith("_parsing"):
        got = err.get("input")
        hint = ""
        if isinstance(got, bool | int | float) and "string" in msg:
            hint = f'quote it if it is text, e.g. "{yaml.safe_dump(got).splitlines()[0]}"'
            if isinstance(got, bool):
                hint += ": YAML reads unquoted yes, no, on, off, true and false as booleans"
        return f"wrong type: {msg} (got {short_repr(got)})", hint
    if kind == "value_error":
        return msg.removeprefix("Value error, "), ""
    return msg, ""


def _value_at(loc: tuple[str | int, ...], data: Any) -> Any:
    node = data
    for part in loc:
        if isinstance(part, int) and isinstance(node, list) and part < len(node):
            node = node[part]
            continue
        if not (isinstance(node, dict) and part in node):
            return None
        node = node[part]
    return node
