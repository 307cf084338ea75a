"""The habits that keep the layout: public surfaces, no private reach-ins, no cycles.

The package order is declared once, in docs/architecture.md ("Package order"):
a package may import only packages below it. These tests read that line, so the
document and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "proctor"
DOC = ROOT / "docs" / "architecture.md"


def declared_order() -> list[str]:
    """The packages, lowest first, from the doc's ``Package order:`` line."""
    match = re.search(r"^Package order \(lowest first\): (.+)$", DOC.read_text(), re.M)
    assert match, "docs/architecture.md must declare 'Package order (lowest first): a, b, ...'"
    return [name.strip(" `.") for name in match.group(1).split(",")]


def packages() -> list[str]:
    """Every top-level unit of proctor: sub-packages and top-level modules."""
    names = [p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()]
    names += [p.stem for p in SRC.glob("*.py") if p.stem != "__init__"]
    return sorted(names)


def unit_of(path: Path) -> str:
    parts = path.relative_to(SRC).parts
    return parts[0].removesuffix(".py")


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """(module, line) of every ``proctor.*`` import in a file, even deferred ones."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "proctor":
                for alias in node.names:
                    yield f"proctor.{alias.name}", node.lineno
            elif node.module.startswith("proctor."):
                yield node.module, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("proctor."):
                    yield alias.name, node.lineno


def sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if p.name != "__init__.py" or p.parent != SRC)


def test_the_declared_order_names_every_package_once() -> None:
    order = declared_order()
    assert sorted(order) == packages()
    assert len(set(order)) == len(order)


def test_no_package_imports_a_package_above_it() -> None:
    rank = {name: i for i, name in enumerate(declared_order())}
    wrong = []
    for path in sources():
        here = unit_of(path)
        for module, line in imports(path):
            there = module.split(".")[1]
            if there in rank and there != here and rank[there] > rank[here]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({here}) imports {module}")
    assert wrong == []


def test_no_package_imports_another_packages_private_module() -> None:
    wrong = []
    for path in sources():
        here = unit_of(path)
        for module, line in imports(path):
            parts = module.split(".")
            if parts[1] != here and any(p.startswith("_") for p in parts[2:]):
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({here}) imports {module}")
    assert wrong == []


@pytest.mark.parametrize("name", [p for p in packages() if (SRC / p / "__init__.py").is_file()])
def test_every_package_lists_exactly_its_public_names(name: str) -> None:
    module = importlib.import_module(f"proctor.{name}")
    listed = getattr(module, "__all__", None)
    assert listed is not None, f"proctor.{name} has no __all__"
    assert len(set(listed)) == len(listed), f"proctor.{name}.__all__ repeats a name"
    missing = [n for n in listed if not hasattr(module, n)]
    assert missing == [], f"proctor.{name}.__all__ lists names it does not have"
    # What the package takes from its own private modules is what it exports.
    tree = ast.parse((SRC / name / "__init__.py").read_text(encoding="utf-8"))
    exported = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(f"proctor.{name}._")
        for alias in node.names
    }
    assert sorted(exported - set(listed)) == [], f"proctor.{name} exports names __all__ omits"
