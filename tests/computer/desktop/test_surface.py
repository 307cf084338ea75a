"""The desktop package's public surface, and that importing proctor never needs gi."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import proctor.computer.desktop as desktop

SRC = Path(desktop.__file__).parent


def test_all_lists_exactly_the_exports() -> None:
    tree = ast.parse((SRC / "__init__.py").read_text())
    exported = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert sorted(exported) == sorted(desktop.__all__)
    assert all(hasattr(desktop, name) for name in desktop.__all__)


def test_importing_proctor_loads_no_gi() -> None:
    code = (
        "import sys, proctor, proctor.computer, proctor.computer.desktop;"
        "print(sorted(m for m in sys.modules if m == 'gi' or m.startswith('gi.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_only_the_atspi_module_imports_gi() -> None:
    importers = sorted(
        {
            path.name
            for path in SRC.glob("*.py")
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Import | ast.ImportFrom)
            and any(
                (getattr(node, "module", None) or alias.name).split(".")[0] == "gi"
                for alias in node.names
            )
        }
    )
    assert importers == ["_atspi.py"]


def test_the_errors_are_proctor_errors_and_faults_are_infra() -> None:
    from proctor.errors import BrowserFault, ComputerError, InfraFault

    assert issubclass(desktop.DesktopError, ComputerError)
    assert not issubclass(desktop.DesktopError, InfraFault)
    for fault in (
        desktop.DesktopUnavailable,
        desktop.SessionStartFailed,
        desktop.AppLaunchFailed,
        desktop.WindowUnavailable,
    ):
        assert issubclass(fault, InfraFault)
        assert not issubclass(fault, BrowserFault)
    assert desktop.WindowUnavailable("x").cause == "window_unavailable"
