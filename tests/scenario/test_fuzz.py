"""Fuzz the loader with mutated shipped scenarios.

Each case takes a shipped scenario, mutates its data (drop a key, swap a type,
NUL and control characters, huge integers, deep nesting, placeholder slips,
path escapes, expect_error markers, long lists) and then its text (duplicate a line, add
aliases, truncate, insert random bytes), or is random bytes altogether. It is
loaded through the public entry points that ``proctor validate`` and ``proctor
list`` use. Whatever the input: only ``ScenarioError`` escapes, every problem
names the file and a field (or a line), and no case takes ``LIMIT`` seconds.
"""

from __future__ import annotations

import copy
import functools
import itertools
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proctor.errors import ScenarioError
from proctor.scenario import (
    SUITE_ROOT,
    Problem,
    load_catalog,
    load_scenario,
    problems_in,
)
from proctor.world import all_sites

SHIPPED = sorted(SUITE_ROOT.glob("*/*.yaml"))
SITES = frozenset(all_sites())
LIMIT = 2.0
"""CPU seconds one case may take, all three entry points together (CPU time, not wall
time, so that other work on a shared machine does not make the test flaky)."""
WHOLE_FILE = "a scenario file must be a YAML mapping"
"""The one problem about the document as a whole, so with no field."""

EXAMPLES = int(os.environ.get("PROCTOR_FUZZ_EXAMPLES", "250"))
"""Cases of the main fuzz test; set PROCTOR_FUZZ_EXAMPLES for a longer run by hand."""

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,  # each case is timed against LIMIT below, loading only
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Draw = Callable[[st.SearchStrategy[Any]], Any]
Slot = tuple[Any, Any]
"""A container and a key (or index) in it: one place a mutation can act."""

ODD_VALUES: list[Any] = [
    0,
    -1,
    2**63,
    -(2**80),
    10**30,
    1.5,
    float("inf"),
    float("nan"),
    True,
    None,
    "",
    "x",
    "yes",
    [],
    {},
    ["x"],
    {"k": "v"},
    {"op": "done"},
    [{"op": "done"}],
    "x" * 20_000,
]
ODD_CHARS = ["\0", "\x01", "\x1b", "\x7f", "\x85", "\u2028", "\ufeff", "\\", "\U0001f600"]
SLIPS = [
    "{site.forms}}",
    "{ site.forms }",
    "{site.}",
    "{site.forms.x}",
    "{scratc}}",
    "{scratch",
    "{{home}",
    "{nope}",
    "{site.nowhere}",
    "{{",
    "}}",
    "{",
    "}",
]
BAD_PATHS = ["", ".", "..", "../../x", "/etc/passwd", "a\\b", "a\0b", "a\x01b", "a/../../b", " "]
ODD_LINES = [
    'x: "\\ud800"\n',
    "x: !!python/object/apply:os.system [ls]\n",
    "x: !custom 1\n",
    "x: 2024-02-30\n",
    "x: 0x" + "f" * 40 + "\n",
    "x: " + "9" * 5000 + "\n",
    "? [a]\n: b\n",
    "1: x\n",
    "---\nid: other\n",
    "...\n",
    "\tx: 1\n",
]
ALIASES = [
    "x: &a [1, 2]\ny: *a\n",
    "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",
    "brief: &b hello\ntitle: *b\n",
    "".join(  # 9**7 strings: seconds to walk if expanded
        f"{n}: &{n} [" + ",".join([f"*{p}"] * 9) + "]\n" for p, n in itertools.pairwise("abcdefgh")
    ).replace("*a", "x"),
    "limits: {<<: {seconds: 1}}\n",
    "r: &r [*r]\n",
]


@functools.cache
def shipped(index: int) -> tuple[str, str]:
    path = SHIPPED[index]
    return path.stem, path.read_text(encoding="utf-8")


def slots(data: Any) -> list[Slot]:
    """Every (container, key) in the tree, in document order."""
    out: list[Slot] = []
    stack = [data]
    while stack:
        node = stack.pop()
        items = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        for key, value in items:
            out.append((node, key))
            if isinstance(value, dict | list):
                stack.append(value)
    return out


def pick(draw: Draw, items: list[Any]) -> Any:
    return items[draw(st.integers(0, len(items) - 1))]


def drop(draw: Draw, data: dict[str, Any]) -> None:
    parent, key = pick(draw, slots(data))
    del parent[key]


def odd_value(draw: Draw, values: list[Any] = ODD_VALUES) -> Any:
    """A fresh copy, so that no two places share an object (the dump would alias them)."""
    return copy.deepcopy(draw(st.sampled_from(values)))


def retype(draw: Draw, data: dict[str, Any]) -> None:
    parent, key = pick(draw, slots(data))
    parent[key] = odd_value(draw)


def strings(data: dict[str, Any]) -> list[Slot]:
    return [(p, k) for p, k in slots(data) if isinstance(p[k], str)]


def odd_char(draw: Draw, data: dict[str, Any]) -> None:
    places = strings(data)
    if places:
        parent, key = pick(draw, places)
        at = draw(st.integers(0, len(parent[key])))
        parent[key] = parent[key][:at] + draw(st.sampled_from(ODD_CHARS)) + parent[key][at:]


def slip(draw: Draw, data: dict[str, Any]) -> None:
    places = strings(data)
    if places:
        parent, key = pick(draw, places)
        parent[key] = parent[key] + " " + draw(st.sampled_from(SLIPS))


def odd_key(draw: Draw, data: dict[str, Any]) -> None:
    mappings = [p[k] for p, k in slots(data) if isinstance(p[k], dict)] or [data]
    mapping = pick(draw, mappings)
    key = draw(st.sampled_from(["x\0y", "name", "op", "expect_error", "safety", "", "id"]))
    mapping[key] = odd_value(draw)


def deep(draw: Draw, data: dict[str, Any]) -> None:
    parent, key = pick(draw, slots(data))
    value: Any = "x"
    for _ in range(draw(st.integers(10, 300))):
        value = [value] if draw(st.booleans()) else {"k": value}
    parent[key] = value


def path_escape(draw: Draw, data: dict[str, Any]) -> None:
    bad = draw(st.sampled_from(BAD_PATHS))
    world = data.setdefault("world", {})
    if not isinstance(world, dict):
        return
    where = draw(st.sampled_from(["dirs", "files", "tree", "check"]))
    if where == "dirs":
        world["dirs"] = ["ok", bad]
    elif where == "files":
        world["files"] = [{"path": bad, "text": "hi"}]
    elif where == "tree":
        world["files"] = [{"path": "docs", "tree": {bad: {"text": "hi"}}}]
    elif isinstance(data.get("checks"), list):
        data["checks"].append({"file_text": {"path": bad, "contains": "x", "name": "fuzzed"}})


def marker(draw: Draw, data: dict[str, Any]) -> None:
    lists = [data.get("solution")]
    lists += [d.get("steps") for d in data.get("decoys") or [] if isinstance(d, dict)]
    steps = [s for ls in lists if isinstance(ls, list) for s in ls if isinstance(s, dict)]
    if steps:
        pick(draw, steps)["expect_error"] = draw(st.sampled_from([True, False, 1, "yes", None]))


def bulk(draw: Draw, data: dict[str, Any]) -> None:
    parent, key = pick(draw, slots(data))
    value = draw(st.sampled_from(ODD_VALUES[:-1] + SLIPS))
    parent[key] = [copy.deepcopy(value) for _ in range(2000)]


DATA_MUTATIONS = [drop, retype, odd_char, slip, odd_key, deep, path_escape, marker, bulk]


def dup_line(draw: Draw, text: str) -> str:
    lines = text.splitlines(keepends=True)
    at = draw(st.integers(0, max(len(lines) - 1, 0)))
    return "".join(lines[: at + 1] + lines[at:])


def alias(draw: Draw, text: str) -> str:
    return text + draw(st.sampled_from(ALIASES))


def odd_line(draw: Draw, text: str) -> str:
    return text + draw(st.sampled_from(ODD_LINES))


def truncate(draw: Draw, text: str) -> str:
    return text[: draw(st.integers(0, len(text)))]


def indent(draw: Draw, text: str) -> str:
    lines = text.splitlines(keepends=True) or [""]
    at = draw(st.integers(0, len(lines) - 1))
    lines[at] = " " * draw(st.integers(1, 3)) + lines[at]
    return "".join(lines)


TEXT_MUTATIONS = [dup_line, alias, odd_line, truncate, indent]


def dump(data: Any) -> str:
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    text: str = yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=100)
    return text


@st.composite
def mutated(draw: Draw) -> tuple[str, bytes]:
    """(file stem, file bytes): a shipped scenario mutated as data, then as text, then as bytes."""
    stem, text = shipped(draw(st.integers(0, len(SHIPPED) - 1)))
    data = yaml.safe_load(text)
    for mutation in draw(st.lists(st.sampled_from(DATA_MUTATIONS), max_size=3)):
        mutation(draw, data)
    text = dump(data)
    for mutation in draw(st.lists(st.sampled_from(TEXT_MUTATIONS), max_size=2)):
        text = mutation(draw, text)
    raw = text.encode("utf-8")
    if draw(st.integers(0, 4)) == 0:
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.binary(min_size=1, max_size=8)) + raw[at:]
    return stem, raw


_cases = itertools.count()


def located(problem: Problem, path: Path) -> bool:
    """Whether a problem names the file, and a field or (for YAML errors) a line."""
    if problem.file != str(path):
        return False
    if problem.message.startswith(("not valid YAML", "YAML alias", "not UTF-8")):
        return problem.field.startswith("line ")
    return bool(problem.field) or problem.message == WHOLE_FILE


def check(folder: Path, stem: str, raw: bytes) -> list[Problem]:
    """Load one case through every entry point; assert what the module docstring says."""
    case = folder / f"case{next(_cases)}"
    case.mkdir()
    path = case / f"{stem}.yaml"
    path.write_bytes(raw)
    started = time.process_time()
    problems = problems_in(path, SITES)
    unlocated = [str(p) for p in problems if not located(p, path)]
    assert unlocated == []
    try:
        load_scenario(path, SITES)
    except ScenarioError as exc:
        message = str(exc)
        assert message.startswith(f"{path} is not a valid scenario:")
        assert all(str(p) in message for p in problems)
        assert problems
    else:
        assert problems == []
    try:
        load_catalog([case], sites=SITES, shipped=False)
    except ScenarioError as exc:
        assert str(path) in str(exc)
        assert problems
    else:
        assert problems == []
    assert time.process_time() - started < LIMIT
    return problems


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_scenarios_pass_the_same_checks(folder: Path, path: Path) -> None:
    assert check(folder, path.stem, path.read_bytes()) == []


@pytest.mark.slow
@FUZZ
@given(case=mutated())
def test_mutated_shipped_scenarios(folder: Path, case: tuple[str, bytes]) -> None:
    check(folder, *case)


@settings(FUZZ, max_examples=EXAMPLES // 2)
@given(raw=st.binary(max_size=2048))
def test_random_bytes(folder: Path, raw: bytes) -> None:
    check(folder, "random", raw)


@settings(FUZZ, max_examples=EXAMPLES // 2)
@given(
    text=st.text(alphabet=st.sampled_from(list("{}[]&*!|>-:,'\"#%@` \n\tabc1.<=?\0")), max_size=300)
)
def test_yaml_punctuation(folder: Path, text: str) -> None:
    check(folder, "punctuation", text.encode("utf-8"))
