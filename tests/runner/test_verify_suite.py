"""proctor verify over the whole shipped local tier: oracle passes, decoys fail as named, null fails."""

from __future__ import annotations

import pytest

from proctor.runner import RunOptions, verify
from proctor.scenario import LoadedScenario


@pytest.mark.browser
async def test_every_local_scenario_holds_its_obligations(
    suite: dict[str, LoadedScenario],
) -> None:
    local = [s for s in suite.values() if s.scenario.tier == "local"]
    assert local, "the local tier ships scenarios"
    verdicts = await verify(local, options=RunOptions(screenshots=False))
    violations = [f"{v.scenario} {v.role}: expected {v.expected}, got {v.actual}" for v in verdicts if not v.ok]
    assert violations == []
    roles = {(v.scenario, v.role) for v in verdicts}
    for loaded in local:
        sid = loaded.scenario.id
        assert (sid, "oracle") in roles and (sid, "null") in roles
        for decoy in loaded.scenario.decoys:
            assert (sid, f"decoy:{decoy.name}") in roles
