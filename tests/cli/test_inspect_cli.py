"""proctor inspect through the installed CLI: JSON for scripts, exit 2 naming a bad id."""

from __future__ import annotations

import json

import pytest

from cli_support import Proctor

pytestmark = pytest.mark.browser


def test_inspect_prints_the_observation_after_oracle_steps(proctor: Proctor) -> None:
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
    plain = proctor("inspect", "manual-frame-audit")
    assert plain.returncode == 0 and plain.stdout.startswith("url: http://frames.proctor.test/")
    bad = proctor("inspect", "manual-frame-audti")
    assert bad.returncode == 2
    assert "no scenario 'manual-frame-audti'; did you mean manual-frame-audit?" in bad.stderr
