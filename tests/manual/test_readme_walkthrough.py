"""The walk-through of one manual case in docs/agents.md runs as written, as a new user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from proctor.manual._plan import CI_VARIABLES

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def _walkthrough() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index("<!-- manual walkthrough -->")
    block = text[text.index("```bash\n", start) + len("```bash\n") :]
    return block[: block.index("```")]


@pytest.mark.slow
def test_the_readme_walkthrough_prepares_serves_grades_and_summarizes(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in CI_VARIABLES}
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '/usr/bin:/bin')}"
    env["TMPDIR"] = str(tmp_path)
    env["COLUMNS"] = "200"
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", _walkthrough()],
        capture_output=True, text=True, timeout=180, cwd=tmp_path, env=env, check=False,
    )  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert "repetition 1 (arms alpha/beta)" in said
    assert "contact-form#1 alpha: passed" in said
    assert "tasks: 1/24 passed" in said and "arm beta" in said
    assert "tool calls: median 6 over 1" in said and "model calls: null (hidden in 1)" in said
