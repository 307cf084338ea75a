"""Read a scenario file's YAML: libyaml's safe loader, hardened, then one walk over the tree.

Aliases (``*a``) and merge keys (``<<``) are rejected, with the line of the
first alias. A scenario never needs them, and an alias lets a few hundred bytes
stand for millions of nodes (the "billion laughs"). Without them the document is
a tree the size of the file, so every later pass (``walk``, the placeholder
check, pydantic) is linear in the file; ``walk`` also visits each container once
by ``id()``. An anchor (``&a``) that no alias uses changes nothing and is let be.
Aliases are caught while the tree is built (libyaml hands an alias back as the
anchored node itself), so a valid file costs no extra pass.

Also rejected, each located: duplicate mapping keys (field path and the key's
line), keys that are not text (``1:``, ``yes:``), nesting deeper than
``MAX_DEPTH``, NUL characters in any string or key, integers beyond 64 bits,
values YAML cannot build (``2024-02-30``) and the non-JSON YAML types
(``!!set``, ``!!omap``, ``!!pairs``, ``!!binary``). Keys that are not text, too
deep a nesting and too large an integer are "blocking": pydantic is not run on
such a document, and only these problems are reported.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, Node

from proctor.scenario._issues import SpecIssue, short_repr

MAX_DEPTH = 32
"""Deepest nesting of lists and mappings a scenario may have (the suite needs 12)."""
INT_LIMIT = 2**63 - 1
"""Largest integer magnitude a scenario may hold (records are JSON, read by other tools)."""

# libyaml's C loader when present: same safe subset, several times faster.
_Base: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_TAG = "tag:yaml.org,2002:"
_INT_HINT = f"stay within ±{INT_LIMIT} (64 bits)"
_KEY_HINT = (
    "quote it: YAML reads unquoted numbers, dates, null and yes/no/on/off/true/false as other types"
)
_NO_ALIASES = "write the value out in full: anchors (&), aliases (*) and merge keys (<<) "
_NO_ALIASES += "are not allowed in a scenario (a file written by yaml.dump from data that "
_NO_ALIASES += "shares objects has them: write it with proctor.scenario.dump_scenario)"


class _NoAliasDumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump_scenario(data: Any) -> str:
    """A scenario as YAML the loader accepts: keys in order, shared objects written out.

    ``yaml.safe_dump`` writes an object that appears twice as an anchor and an
    alias, which scenario files may not hold (see above); this writes it twice.
    """
    return yaml.dump(data, Dumper=_NoAliasDumper, sort_keys=False, allow_unicode=True)


class YamlProblem(Exception):
    """The text is not YAML a scenario may be written in."""

    def __init__(self, where: str, message: str, hint: str = "") -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message
        self.hint = hint


class Duplicate(NamedTuple):
    """A key given twice in one mapping (the later value won)."""

    mapping: dict[Any, Any]
    key: Any
    line: int


class Document(NamedTuple):
    """The parsed YAML and the duplicate keys seen while building it."""

    data: Any
    duplicates: list[Duplicate]


class _AliasFound(Exception):
    """A node was reached twice; its place is looked up in the events afterwards."""


class _Loader(_Base):  # type: ignore[valid-type,misc]
    """The safe loader, with aliases, merge keys and duplicate keys caught as it builds."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.duplicates: list[Duplicate] = []

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        # libyaml hands an alias back as the anchored node itself: a second visit is one
        if node in self.constructed_objects or node in self.recursive_objects:
            raise _AliasFound
        try:
            return super().construct_object(node, deep)
        except (ValueError, OverflowError) as exc:
            kind = str(node.tag).removeprefix(_TAG)
            message = "integer too large" if kind == "int" else f"not a valid {kind}: {exc}"
            raise ConstructorError(None, None, message, node.start_mark) from exc

    def construct_map(self, node: MappingNode) -> Iterator[dict[Any, Any]]:
        data: dict[Any, Any] = {}
        yield data
        for key_node, value_node in node.value:
            if key_node.tag == _TAG + "merge":
                raise ConstructorError(
                    None, None, "merge keys (<<) are not allowed", key_node.start_mark
                )
            if key_node.tag == _TAG + "value":
                key_node.tag = _TAG + "str"  # a plain '=' key, as PyYAML reads it
            key = self.construct_object(key_node)
            try:
                hash(key)
            except TypeError as exc:
                raise ConstructorError(
                    "while constructing a mapping",
                    node.start_mark,
                    "a key must be a string or a number, not a list or mapping",
                    key_node.start_mark,
                ) from exc
            if key in data:
                self.duplicates.append(Duplicate(data, key, key_node.start_mark.line + 1))
            data[key] = self.construct_object(value_node)

    def construct_unwanted(self, node: Node) -> Any:
        kind = str(node.tag).removeprefix(_TAG)
        raise ConstructorError(
            None, None, f"the YAML type !!{kind} is not allowed in a scenario", node.start_mark
        )


_Loader.add_constructor(_TAG + "map", _Loader.construct_map)
for _kind in ("set", "omap", "pairs", "binary"):
    _Loader.add_constructor(_TAG + _kind, _Loader.construct_unwanted)


def _at(mark: Any) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""


def _alias_problem(text: str) -> YamlProblem:
    """Where the first alias is, read from the parser's events (only a file holding one)."""
    for event in yaml.parse(text, Loader=_Base):
        if isinstance(event, yaml.AliasEvent):
            return YamlProblem(_at(event.start_mark), f"YAML alias *{event.anchor}", _NO_ALIASES)
    return YamlProblem("line 1", "a YAML alias", _NO_ALIASES)


def read_yaml(text: str, raw: bytes) -> Document:
    """Parse one YAML document (``raw`` is the file's bytes, to place reader errors).

    Raises:
        YamlProblem: naming the line and column, for text that is not YAML, holds
            an alias or merge key, or a value YAML cannot build.
    """
    loader = _Loader(text)
    try:
        data = loader.get_single_data()
    except _AliasFound:
        raise _alias_problem(text) from None
    except yaml.reader.ReaderError as exc:
        # libyaml counts the UTF-8 bytes it read; the pure-Python reader counts characters
        line = raw.count(b"\n", 0, exc.position) + 1
        char = chr(exc.character) if isinstance(exc.character, int) else exc.character
        raise YamlProblem(
            f"line {line}", f"not valid YAML: {exc.reason} (character {char!r})", "remove it"
        ) from None
    except yaml.MarkedYAMLError as exc:
        where = _at(exc.problem_mark or exc.context_mark) or "line 1"
        problem = exc.problem or exc.context or str(exc)
        raise YamlProblem(where, f"not valid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise YamlProblem("line 1", f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()
    return Document(data, loader.duplicates)


class Walk(NamedTuple):
    """What one walk over the parsed tree found."""

    issues: list[SpecIssue]
    braced: list[tuple[str, str]]
    """(field, text) of every string holding a brace, for the placeholder check."""
    blocking: bool
    """Too deep or too large to hand to pydantic."""


def _key_text(key: Any) -> str:
    if isinstance(key, str):
        return key if key.isprintable() else short_repr(key)
    try:
        return str(key)
    except ValueError:  # an int too long to print in decimal
        return short_repr(key)


def _too_large(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) > INT_LIMIT


def _join(path: str, key: Any) -> str:
    return f"{path}.{_key_text(key)}" if path else _key_text(key)


def walk(data: Any, duplicates: Sequence[Duplicate] = ()) -> Walk:
    """Check every node of a parsed document once, in document order."""
    issues: list[SpecIssue] = []
    braced: list[tuple[str, str]] = []
    blocking = False
    seen: dict[int, str] = {}  # id of a list or mapping -> its field path
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, str):
            if "\0" in node:
                issues.append(SpecIssue(path, "holds a NUL character", "remove it"))
            if "{" in node or "}" in node:
                braced.append((path, node))
            continue
        if _too_large(node):
            issues.append(SpecIssue(path, "integer too large", _INT_HINT))
            blocking = True
            continue
        if not isinstance(node, dict | list) or id(node) in seen:
            continue
        seen[id(node)] = path
        if depth >= MAX_DEPTH:
            issues.append(
                SpecIssue(
                    path,
                    f"nested deeper than {MAX_DEPTH} lists and mappings",
                    "a scenario never needs this much nesting",
                )
            )
            blocking = True
            continue
        children: list[tuple[Any, str, int]] = []
        if isinstance(node, dict):
            for key, value in node.items():
                field = _join(path, key)
                if isinstance(key, str):
                    if "\0" in key:
                        issues.append(
                            SpecIssue(field, "the key holds a NUL character", "remove it")
                        )
                else:
                    issues.append(SpecIssue(field, f"key {short_repr(key)} is not text", _KEY_HINT))
                    blocking = True
                children.append((value, field, depth + 1))
        else:
            children.extend((value, f"{path}[{i}]", depth + 1) for i, value in enumerate(node))
        stack.extend(reversed(children))
    for dup in sorted(duplicates, key=lambda d: d.line):
        field = seen.get(id(dup.mapping), f"line {dup.line}") or _key_text(dup.key)
        issues.append(
            SpecIssue(
                field,
                f"duplicate key {short_repr(dup.key)} (line {dup.line})",
                "a key may appear once in a mapping: remove or merge the repeats",
            )
        )
    return Walk(issues, braced, blocking)
