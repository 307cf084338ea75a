"""proctor.errors: one tree, drawn whole; an infra fault's kind is its type's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import proctor
from proctor import errors
from proctor.errors import (
    AppLaunchFailed,
    BrowserFault,
    DesktopFault,
    DesktopUnavailable,
    FixtureFault,
    InfraFault,
    LiveFault,
    ProviderFault,
    SessionStartFailed,
    SetupFault,
    WindowUnavailable,
    WorldError,
)
from proctor.vocab import FAULT_KINDS, FaultKind

SRC = Path(proctor.__file__).parent

EXPECTED: dict[type[InfraFault], FaultKind] = {
    WorldError: "fixture",
    FixtureFault: "fixture",
    LiveFault: "live",
    ProviderFault: "provider",
    BrowserFault: "browser",
    SetupFault: "setup",
    DesktopFault: "desktop",
    DesktopUnavailable: "desktop",
    SessionStartFailed: "desktop",
    AppLaunchFailed: "desktop",
    WindowUnavailable: "window_unavailable",
}
"""Every infra fault and the kind its tries are recorded under (what the runner's
isinstance ladder returned before the kind moved onto the type)."""


def subclasses(cls: type[InfraFault]) -> set[type[InfraFault]]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= subclasses(sub)
    return found


def test_every_infra_fault_maps_to_its_kind() -> None:
    faults = subclasses(InfraFault)
    # A fault added without an entry here fails: name its kind above.
    assert sorted(c.__name__ for c in faults) == sorted(c.__name__ for c in EXPECTED)
    assert {c: c.kind for c in faults} == EXPECTED
    assert all(c.kind in FAULT_KINDS for c in faults)


def test_every_fault_kind_but_worker_is_some_faults() -> None:
    # worker: the driver records it when a worker dies or overruns; no exception carries it.
    assert sorted({*EXPECTED.values(), "worker"}) == sorted(FAULT_KINDS)


def test_a_fault_without_a_kind_cannot_be_defined() -> None:
    with pytest.raises(TypeError, match=r"^NoKind: an InfraFault names its fault kind .*None$"):
        type("NoKind", (InfraFault,), {})
    with pytest.raises(TypeError, match=r", live \(vocab.FaultKind\); it has 'harness'$"):
        type("Harness", (InfraFault,), {"kind": "harness"})


def test_the_desktop_faults_are_not_browser_faults() -> None:
    for fault in {DesktopFault} | subclasses(DesktopFault):
        assert not issubclass(fault, BrowserFault), fault
    assert not issubclass(SetupFault, BrowserFault)


def test_every_error_class_lives_in_errors() -> None:
    """No module but errors.py defines a class on the error tree (found by reading the
    sources, so a module nobody imported here counts too)."""
    tree = set(errors.__all__)
    wrong = []
    for path in sorted(SRC.rglob("*.py")):
        if path == SRC / "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
            if bases & tree:
                wrong.append(f"{path.relative_to(SRC)}:{node.lineno} {node.name}")
    assert wrong == []


def drawing() -> list[tuple[int, str, str | None]]:
    """(depth, class name, ``[kind]`` mark or None) of each line of the module's tree."""
    doc = errors.__doc__ or ""
    block = doc[doc.index("    ProctorError\n") :].split("\n\n")[0]
    rows = []
    for line in block.splitlines():
        match = re.match(r"^([ │├└─]*)(\w+)(?:\s+\[(\w+)\])?", line)
        assert match, line
        rows.append(((len(match.group(1)) - 4) // 4, match.group(2), match.group(3)))
    return rows


def test_the_drawing_shows_every_class_under_its_base_with_its_kind() -> None:
    rows = drawing()
    names = [name for _, name, _ in rows]
    assert sorted(names) == sorted(errors.__all__)
    assert len(set(names)) == len(names)
    parents: list[str] = []
    for depth, name, mark in rows:
        cls = getattr(errors, name)
        del parents[depth:]
        if parents:
            assert getattr(errors, parents[-1]) in cls.__bases__, f"{name} under {parents[-1]}"
        parents.append(name)
        is_fault = issubclass(cls, InfraFault) and cls is not InfraFault
        assert mark == (cls.kind if is_fault else None), name
