"""Load scenario files: YAML (safe_load) to a validated, frozen ``Scenario``.

Every problem becomes a ``Problem`` naming the file, the field path (e.g.
``checks[2].submitted.route``) and a hint. ``load_scenario`` raises a
``ScenarioError`` listing all of them; ``problems_in`` returns them.
"""

from __future__ import annotations

import difflib
import typing
import hashlib
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from proctor.computer.actions import ACTION_TYPES
from proctor.errors import ScenarioError
from proctor.scenario._checks import CHECK_MODELS, CHECK_TYPES
from proctor.scenario._spec import Scenario

PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)?)\}(?!\})")
PLACEHOLDER_NAMES = ("scratch", "base_url", "home")


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


@dataclass(frozen=True)
class LoadedScenario:
    """A validated scenario and where it came from."""

    scenario: Scenario
    path: Path
    sha256: str


def _closest(word: str, options: Collection[str]) -> str:
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
    for part in loc:
        if out and part == out[-1] and isinstance(part, str):
            continue  # a discriminated-union tag repeated as the field name
        if isinstance(part, str) and part.startswith(("function-after[", "function-before[")):
            continue
        out.append(part)
    # an action union puts the op tag between index and field: solution[0].click.url
    cleaned: list[str | int] = []
    for i, part in enumerate(out):
        prev = out[i - 1] if i else None
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
    for part in loc[:-1]:
        if isinstance(part, int):
            node = node[part] if isinstance(node, list) and part < len(node) else None
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
        if typing.get_origin(annotation) is list:
            pending = models
            model = None
            continue
        model = _pick(models, node)
    return model


def _hint_for(err: dict[str, Any], loc: tuple[str | int, ...], data: Any) -> tuple[str, str]:
    """(message, hint) for one pydantic error."""
    kind = err["type"]
    msg = str(err["msg"])
    if kind == "extra_forbidden":
        model = _model_at(loc, data)
        key = str(loc[-1])
        valid = _fields_of(model) if model else []
        # a check body: the unknown key may be a misspelt check type
        if len(loc) >= 2 and isinstance(loc[-2], int) and loc[0] in ("checks",):
            guess = _closest(key, CHECK_TYPES)
            return (
                f"unknown check type {key!r}",
                f"did you mean {guess!r}? " if guess else ""
                f"valid check types: {', '.join(CHECK_TYPES)}",
            )
        guess = _closest(key, valid)
        hint = f"did you mean {guess!r}?" if guess else ""
        if valid:
            hint = (hint + " " if hint else "") + f"valid keys: {', '.join(valid)}"
        return f"unknown key {key!r}", hint
    if kind == "unknown_check":
        node = _value_at(loc, data)
        keys = [k for k in node if k != "name"] if isinstance(node, dict) else []
        if len(keys) == 1:
            guess = _closest(str(keys[0]), CHECK_TYPES)
            hint = f"did you mean {guess!r}? " if guess else ""
            return (
                f"unknown check type {keys[0]!r}",
                hint + f"valid check types: {', '.join(CHECK_TYPES)}",
            )
        return (
            "a check is a mapping with exactly one check type as its key",
            f"valid check types: {', '.join(CHECK_TYPES)}",
        )
    if kind == "union_tag_invalid":
        tag = str(err.get("ctx", {}).get("tag", ""))
        guess = _closest(tag, ACTION_TYPES)
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
        guess = _closest(str(got), re.findall(r"'([^']+)'", str(expected)))
        hint = f"did you mean {guess!r}? " if guess else ""
        return f"{got!r} is not allowed", hint + f"expected {expected}"
    if kind.endswith("_type") or kind.endswith("_parsing"):
        return f"wrong type: {msg} (got {err.get('input')!r})", ""
    if kind == "value_error":
        return msg.removeprefix("Value error, "), ""
    return msg, ""


def _value_at(loc: tuple[str | int, ...], data: Any) -> Any:
    node = data
    for part in loc:
        if isinstance(part, int) and isinstance(node, list) and part < len(node):
            node = node[part]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def _strings(node: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _strings(value, f"{path}[{i}]")


def _placeholder_problems(
    data: dict[str, Any], file: str, sites: Collection[str] | None
) -> list[Problem]:
    problems: list[Problem] = []
    world = data.get("world") if isinstance(data.get("world"), dict) else {}
    declared = world.get("sites", []) if isinstance(world, dict) else []
    declared = [s for s in declared if isinstance(s, str)] if isinstance(declared, list) else []
    for path, text in _strings(data):
        for match in PLACEHOLDER.finditer(text):
            name = match.group(1)
            if name.startswith("site."):
                site = name.removeprefix("site.")
                if site not in declared:
                    guess = _closest(site, declared)
                    problems.append(
                        Problem(
                            file,
                            path,
                            f"placeholder {{{name}}} names a site not in world.sites",
                            f"did you mean {{site.{guess}}}?"
                            if guess
                            else f"add {site!r} to world.sites",
                        )
                    )
                continue
            if name not in PLACEHOLDER_NAMES:
                options = [*PLACEHOLDER_NAMES, *(f"site.{s}" for s in declared)]
                guess = _closest(name, options)
                problems.append(
                    Problem(
                        file,
                        path,
                        f"unknown placeholder {{{name}}}",
                        (f"did you mean {{{guess}}}? " if guess else "")
                        + "placeholders: "
                        + ", ".join(f"{{{o}}}" for o in options)
                        + "; write {{ and }} for literal braces",
                    )
                )
    if sites is not None:
        for i, site in enumerate(declared):
            if site not in sites:
                guess = _closest(site, sites)
                problems.append(
                    Problem(
                        file,
                        f"world.sites[{i}]",
                        f"unknown site {site!r}",
                        (f"did you mean {guess!r}? " if guess else "")
                        + f"sites: {', '.join(sorted(sites))}",
                    )
                )
    return problems


def problems_in(path: Path, sites: Collection[str] | None = None) -> list[Problem]:
    """Every problem in one scenario file; empty when it is valid."""
    try:
        _load(path, sites)
    except _Invalid as exc:
        return exc.problems
    return []


class _Invalid(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems


def _load(path: Path, sites: Collection[str] | None) -> LoadedScenario:
    file = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise _Invalid([Problem(file, "", f"cannot read the file: {exc.strerror}")]) from exc
    try:
        data = yaml.safe_load(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise _Invalid([Problem(file, "", "not UTF-8 text", "save the file as UTF-8")]) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise _Invalid([Problem(file, where, f"not valid YAML: {problem}")]) from exc
    if not isinstance(data, dict):
        raise _Invalid(
            [Problem(file, "", "a scenario file must be a YAML mapping", "start with `id: ...`")]
        )
    problems: list[Problem] = []
    stem = path.stem
    if data.get("id") != stem:
        problems.append(
            Problem(
                file,
                "id",
                f"id {data.get('id')!r} differs from the file name {stem!r}",
                f"set `id: {stem}` or rename the file to {data.get('id')}.yaml",
            )
        )
    problems.extend(_placeholder_problems(data, file, sites))
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            loc = _clean_loc(tuple(err["loc"]))
            message, hint = _hint_for(dict(err), loc, data)
            field = _format_loc(loc)
            if any(p.field == field and p.message == message for p in problems):
                continue
            problems.append(Problem(file, field, message, hint))
        raise _Invalid(problems) from exc
    if problems:
        raise _Invalid(problems)
    return LoadedScenario(scenario, path, hashlib.sha256(raw).hexdigest())


def load_scenario(path: Path, sites: Collection[str] | None = None) -> LoadedScenario:
    """Load and validate one scenario file.

    Raises:
        ScenarioError: listing every problem, each with file, field and hint.
    """
    try:
        return _load(path, sites)
    except _Invalid as exc:
        lines = "\n".join(f"  {p}" for p in exc.problems)
        raise ScenarioError(f"{path} is not a valid scenario:\n{lines}") from None


_SUBST = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)?)\}")


def substitute(text: str, values: dict[str, str]) -> str:
    """Replace ``{name}`` placeholders; ``{{``/``}}`` become literal braces."""

    def repl(m: re.Match[str]) -> str:
        tok = m.group(0)
        if tok == "{{":
            return "{"
        if tok == "}}":
            return "}"
        name = m.group(1)
        if name in values:
            return values[name]
        return tok

    return _SUBST.sub(repl, text)


def resolve(model: Any, values: dict[str, str]) -> Any:
    """A copy of a model (or plain value) with every string's placeholders replaced."""
    if isinstance(model, str):
        return substitute(model, values)
    if isinstance(model, BaseModel):
        updates = {
            name: resolve(getattr(model, name), values)
            for name in type(model).model_fields
        }
        return model.model_copy(update=updates)
    if isinstance(model, list):
        return [resolve(v, values) for v in model]
    if isinstance(model, tuple):
        return tuple(resolve(v, values) for v in model)
    if isinstance(model, dict):
        return {k: resolve(v, values) for k, v in model.items()}
    return model
