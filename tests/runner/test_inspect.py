"""proctor inspect: the world of a scenario comes up and its observation is printed.

In process against the session's worker (real fixture server and Chromium): the
observation at the start page, after N oracle steps, on another page of the world,
and the refusals of a bad --at or --url; then every shipped scenario once.
"""

from __future__ import annotations

import os

import pytest

from proctor.errors import RunError
from proctor.runner import Worker, inspect_in, scenario_skip
from proctor.scenario import LoadedScenario, load_catalog
from proctor.world import all_sites

pytestmark = pytest.mark.browser

CATALOG = sorted(load_catalog(sites=set(all_sites())).scenarios.items())
PEER_SAMPLE = {"miniwob-click-widget-s1", "miniwob-choose-list-s1", "miniwob-enter-text-s1"}
"""The peer suite's scenarios share one site and page builder: three stand for them all."""
SHIPPED = [
    loaded for sid, loaded in CATALOG if loaded.scenario.world.miniwob is None or sid in PEER_SAMPLE
]


async def test_the_start_page_then_after_oracle_steps_then_another_page(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    audit = suite["manual-frame-audit"]
    start = await inspect_in(worker, audit)
    assert start.steps == [] and start.stopped is None and start.surface == "browser"
    lines = start.observation.splitlines()
    assert lines[:3] == ["url: http://frames.proctor.test/audit", "title: Audit AUD-5521",
                         "snapshot:"]  # fmt: skip
    assert '- button "Mark audit reviewed" [ref=e8]' in start.observation
    assert 'status [ref=e5]: "Figures: awaiting approval. Review: not reviewed."' in (
        start.observation
    )
    # After the first oracle step (a click at the frame's button) the frame says so.
    after = await inspect_in(worker, audit, at=1)
    assert [(s.index, s.op, s.status) for s in after.steps] == [(1, "click", "ok")]
    assert 'cell "approved"' in after.observation and 'cell "approved"' not in start.observation
    # Another page of the world: a path on the start page's site, or {site.NAME}/path.
    other = await inspect_in(worker, suite["manual-selectors"], url="{site.forms}/contact")
    assert other.observation.startswith("url: http://forms.proctor.test/contact")


async def test_a_bad_at_or_url_is_refused_before_the_world_comes_up(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    audit = suite["manual-frame-audit"]
    with pytest.raises(RunError, match="has 3 oracle steps; give 0 to 3"):
        await inspect_in(worker, audit, at=4)
    with pytest.raises(RunError, match="oracle step 3 of manual-frame-audit is done"):
        await inspect_in(worker, audit, at=3)
    with pytest.raises(RunError, match="give a path"):
        await inspect_in(worker, audit, url="ftp://frames.proctor.test/")


@pytest.mark.parametrize("loaded", SHIPPED, ids=[x.scenario.id for x in SHIPPED])
async def test_every_shipped_scenario_can_be_inspected(
    worker: Worker, loaded: LoadedScenario
) -> None:
    if loaded.scenario.world.live is not None:
        pytest.skip("a live scenario's world is public sites: the tests never need the internet")
    why = scenario_skip(loaded.scenario)
    if why is not None and os.environ.get("CI", "").lower() not in ("1", "true", "yes"):
        pytest.skip(why)
    seen = await inspect_in(worker, loaded)
    assert seen.stopped is None
    first = seen.observation.splitlines()[0]
    if loaded.scenario.world.desktop is not None:
        assert seen.surface == "desktop" and first.startswith("app: ")
        assert "[ref=d" in seen.observation
    else:
        assert seen.surface == "browser" and first.startswith("url: http")
        assert "[ref=" in seen.observation
