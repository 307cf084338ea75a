"""What the CLI tests and the runner tests share: the probe scenario, its file, the CLI.

``probe(sid)`` opens the fixture index and answers 42 (well under a second an
attempt); it uses no fixture site, only the loopback index, so it holds whatever
sites ship. ``write_scenario`` writes a scenario as the loader reads it, and
``run_proctor`` runs the installed ``proctor`` in a subprocess, so the bytes
checked are the bytes a terminal would get. ``tests/cli/conftest.py`` wraps these
in fixtures.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from typer.testing import Result

from proctor.scenario import dump_scenario

PROCTOR = Path(sys.executable).parent / "proctor"
RUN_TIMEOUT = 120

Proctor = Callable[..., subprocess.CompletedProcess[str]]
"""The ``proctor`` fixture: ``proctor(*args, cwd=..., env=...)``."""
Invoke = Callable[..., Result]
"""The ``invoke`` fixture: ``invoke(*args)``, the CLI in this process."""


def probe(sid: str, **fields: Any) -> dict[str, Any]:
    """The probe scenario ``sid``; ``fields`` replace its own (title, checks, decoys, ...)."""
    return {
        "id": sid,
        "title": "Open the fixture index and answer 42",
        "brief": "Open {base_url}/ and answer 42.",
        "tier": "local",
        "category": "regression",
        "limits": {"seconds": 30, "tool_calls": 10, "steps": 5},
        "world": {"browser": {"start": "{base_url}/"}},
        "checks": [
            {"requested": {"path": "/", "host": "127.0.0.1", "count": 1}},
            {"answer": {"equals": "42"}},
        ],
        "solution": [{"op": "done", "answer": "42"}],
        "decoys": [
            {"name": "wrong-answer", "steps": [{"op": "done", "answer": "41"}], "fails": ["answer"]}
        ],
        **fields,
    }


def write_scenario(folder: Path, spec: Mapping[str, Any]) -> Path:
    """``spec`` written as ``folder/<id>.yaml`` (the folder made if need be); its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{spec['id']}.yaml"
    path.write_text(dump_scenario(dict(spec)), encoding="utf-8")
    return path


def run_proctor(
    *args: str | Path,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = RUN_TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    """``proctor ARGS`` in ``cwd``: 400 columns, no OPENAI_API_KEY unless ``env`` gives one."""
    base = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    return subprocess.run(
        [str(PROCTOR), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        check=False,
        env={**base, "COLUMNS": "400", **(env or {})},
    )


def output(done: subprocess.CompletedProcess[str]) -> str:
    """All a command printed, stdout then stderr: the message of a failed assertion."""
    return done.stdout + done.stderr


def run_args(scenarios: Path, sid: str, results: Path, label: str, *extra: str) -> list[str | Path]:
    """``proctor run`` of the one scenario ``sid`` into ``results/<label>``."""
    return [
        "run", "--scenarios", scenarios, "--only", sid,
        "--results", results, "--label", label, *extra,
    ]  # fmt: skip
