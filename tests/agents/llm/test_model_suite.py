"""The shipped model tier: its three scenarios exist and the catalog's tier filter finds them.

Their obligations (oracle passes, decoys fail as named, null fails) are proven per
scenario by tests/runner/test_verify_suite.py, which covers every shipped tier.
"""

from __future__ import annotations

from proctor.scenario import LoadedScenario, load_catalog
from proctor.world import all_sites


def test_the_model_tier_ships_its_scenarios(suite: dict[str, LoadedScenario]) -> None:
    model = {s.scenario.id for s in suite.values() if s.scenario.tier == "model"}
    assert {"header-enumeration", "form-fill", "model-verification-gate"} <= model


def test_tier_model_also_selects_local_errands_listed_for_it() -> None:
    picked = {s.scenario.id for s in load_catalog(sites=set(all_sites())).select(tiers=["model"])}
    assert {"header-enumeration", "reply-drafts", "slack-catchup"} <= picked
    assert "manual-frame-audit" not in picked
