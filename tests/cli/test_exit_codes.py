"""Exit codes that mean what they say (docs/results.md, "Exit codes"): one test per row."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import Proctor, probe

SCENARIOS = [probe("probe-exit")]


@pytest.mark.parametrize("command", ["list", "run", "verify"])
def test_an_unknown_tier_is_a_usage_error(command: str, results: Path, proctor: Proctor) -> None:
    done = proctor(
        command, "--tier", "bogus", *(["--results", results] if command == "run" else [])
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "--tier 'bogus': not a tier; use local, model, live, desktop" in done.stderr
