"""proctor inspect through the CLI: JSON for scripts, the plain text, a bad id named.

The JSON comes from the installed CLI in a subprocess (the bytes a script reads); the
plain text and the refusal from the CLI in this process, which skips an interpreter's
start but not the world's.
"""

from __future__ import annotations

import json

import pytest

from cli_support import Invoke, Proctor
from proctor.errors import RunError

pytestmark = pytest.mark.browser


def test_inspect_prints_the_observation_after_oracle_steps(
    proctor: Proctor, invoke: Invoke
) -> None:
    done = proctor("inspect", "manual-frame-audit", "--at", "2", "--json")
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["scenario"] == "manual-frame-audit" and seen["surface"] == "browser"
    assert [(s["index"], s["op"], s["status"]) for s in seen["steps"]] == [
        (1, "click", "ok"), (2, "click", "ok")
    ]  # fmt: skip
    assert seen["stopped"] is None
    # The second click posted the review form: the generic page after a post shows it.
    assert seen["observation"].startswith("url: http://frames.proctor.test/submitted/audit-review/")
    plain = invoke("inspect", "manual-frame-audit", "--at", "1")
    assert plain.exit_code == 0, plain.output
    lines = plain.output.splitlines()
    assert lines[:2] == ["step 1: click ok", "url: http://frames.proctor.test/audit"], lines[:5]
    bad = invoke("inspect", "manual-frame-audti")
    assert isinstance(bad.exception, RunError), bad.output
    assert "no scenario 'manual-frame-audti'; did you mean manual-frame-audit?" in str(
        bad.exception
    )
