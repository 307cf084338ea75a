"""The CLI tests' fixtures: their scenario folder, a results folder, ``proctor`` and ``invoke``.

A test module lists its scenarios as ``SCENARIOS`` and gets them written once, as
``<id>.yaml`` in a folder of their own, by the ``scenarios`` fixture. ``proctor(*args)``
runs the installed CLI in a subprocess in the test's ``tmp_path`` (see
``cli_support.run_proctor``); ``invoke(*args)`` runs it in this process with typer's
``CliRunner``.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from cli_support import Invoke, Proctor, run_proctor, write_scenario
from proctor.cli import app


@pytest.fixture(scope="module")
def scenarios(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the test module's ``SCENARIOS``."""
    folder = tmp_path_factory.mktemp("scenarios")
    for spec in request.module.SCENARIOS:
        write_scenario(folder, spec)
    return folder


@pytest.fixture
def results(tmp_path: Path) -> Path:
    """The test's results folder, not yet made."""
    return tmp_path / "results"


@pytest.fixture
def proctor(tmp_path: Path) -> Proctor:
    """``proctor(*args, cwd=tmp_path, env=None)``: the CLI in a subprocess."""
    return functools.partial(run_proctor, cwd=tmp_path)


@pytest.fixture
def invoke() -> Invoke:
    """``invoke(*args)``: the CLI in this process, through ``CliRunner``."""

    def run(*args: str | Path) -> Result:
        return CliRunner().invoke(app, [str(a) for a in args])

    return run
