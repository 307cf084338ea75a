"""The shipped model tier holds its obligations: each oracle passes, decoys fail as named."""

from __future__ import annotations

import pytest

from proctor.runner import RunOptions, verify
from proctor.scenario import LoadedScenario

pytestmark = pytest.mark.browser


async def test_every_model_scenario_holds_its_obligations(
    suite: dict[str, LoadedScenario],
) -> None:
    model = [s for s in suite.values() if s.scenario.tier == "model"]
    assert {"header-enumeration", "form-fill", "model-verification-gate"} <= {
        s.scenario.id for s in model
    }
    verdicts = await verify(model, options=RunOptions(screenshots=False))
    violations = [f"{v.scenario} {v.role}: {v.actual}" for v in verdicts if not v.ok]
    assert violations == []
    expected = sum(len(s.scenario.decoys) + 2 for s in model)
    assert len(verdicts) == expected
