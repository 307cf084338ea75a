"""What the CLI tests and the runner tests share: the probe scenario, its file, the CLI.

``probe(sid)`` opens the fixture index and answers 42 (well under a second an
attempt); it uses no fixture site, only the loopback index, so it holds whatever
sites ship. ``five_words(sid)`` asks for six decisions that load no page (five words
typed in turn into the canary's field, then done), for model arms replayed call by
call: a click that opens a page costs about twice as much. ``write_scenario`` writes
a scenario as the loader reads it, and ``run_proctor`` runs the installed ``proctor``
in a subprocess, so the bytes checked are the bytes a terminal would get.
``tests/cli/conftest.py`` wraps these in fixtures.
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


WORDS = ("alpha", "bravo", "charlie", "delta", "echo")
"""What ``five_words`` asks for, in this order."""


def five_words(sid: str) -> dict[str, Any]:
    """The model-tier scenario ``sid``: fill the Word field with each of ``WORDS``, then done.

    Its check ``typed-five`` wants five fills; ``finished`` wants the agent to say done.
    """
    fills = [{"op": "fill", "role": "textbox", "name": "Word", "value": w} for w in WORDS]
    return {
        "id": sid,
        "title": "Type five words in turn into one field",
        "tier": "model",
        "category": "capability",
        "capabilities": ["browser", "forms"],
        "limits": {"seconds": 120, "tool_calls": 20, "steps": 10},
        "brief": (
            "On {site.canary}/, fill the Word field with each of "
            + ", ".join(WORDS[:-1])
            + f" and {WORDS[-1]} in turn, then finish."
        ),
        "world": {"sites": ["canary"], "browser": {"start": "{site.canary}/"}},
        "checks": [
            {"step": {"op": "fill", "min": len(WORDS), "name": "typed-five"}},
            {"stop_reason": {"equals": "done", "name": "finished"}},
        ],
        "solution": [*fills, {"op": "done"}],
        "decoys": [  # inert: a word typed and never sent leaves the world as null's
            {
                "name": "one-word",
                "inert": True,
                "steps": [fills[0], {"op": "done"}],
                "fails": ["typed-five"],
            }
        ],
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
