"""verify can't be fooled by broken steps, and explains every violation."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from proctor.runner import ObligationVerdict, RunOptions, Worker, verify_in
from proctor.scenario import LoadedScenario, load_scenario
from proctor.world import Site
from proctor.world._site import required

pytestmark = pytest.mark.browser


async def page(request: Request) -> Response:
    return HTMLResponse(
        """<!doctype html><title>Note</title>
<form method="post" action="/submit/note"><input name="text" aria-label="Text">
<button type="submit">Save</button></form>"""
    )


NOTE = Site(name="note", routes=[Route("/", page)], forms={"note": required("text")})

SAVE = [
    {"op": "fill", "role": "textbox", "name": "Text", "value": "hello"},
    {"op": "click", "role": "button", "name": "Save"},
]
TYPO = {"op": "click", "role": "button", "name": "Sav", "exact": True}
WRONG = [
    {"op": "fill", "role": "textbox", "name": "Text", "value": "bye"},
    SAVE[1],
    {"op": "done"},
]
OFFWORLD = {"op": "navigate", "url": "http://elsewhere.example/"}


def scenario(folder: Path, sid: str, **fields: Any) -> LoadedScenario:
    data: dict[str, Any] = {
        "id": sid,
        "title": f"Verify probe {sid}",
        "brief": "Save the note hello on {site.note}.",
        "tier": "local",
        "category": "regression",
        "limits": {"seconds": 30, "tool_calls": 40, "steps": 20},
        "world": {"sites": ["note"], "browser": {"start": "{site.note}/"}},
        "checks": [{"submitted": {"route": "note", "count": 1, "fields": {"text": "hello"}}}],
        "solution": [*SAVE, {"op": "done"}],
        "decoys": [{"name": "wrong-text", "steps": WRONG, "fails": ["submitted"]}],
    }
    data.update(fields)
    path = folder / f"{sid}.yaml"
    plain = json.loads(json.dumps(data))  # no shared objects, so the dump has no aliases
    path.write_text(yaml.safe_dump(plain, sort_keys=False), encoding="utf-8")
    return load_scenario(path, sites={"note"})


@pytest.fixture(scope="module")
async def worker(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Worker]:
    run_dir = tmp_path_factory.mktemp("verify-steps")
    async with Worker(
        run_dir, RunOptions(screenshots=False, retry_delays=(0.0,)), sites=[NOTE]
    ) as w:
        yield w


def by_role(verdicts: list[ObligationVerdict]) -> dict[str, ObligationVerdict]:
    return {v.label: v for v in verdicts}


async def test_a_decoy_whose_step_breaks_is_a_violation(worker: Worker, tmp_path: Path) -> None:
    loaded = scenario(
        tmp_path,
        "broken-decoy",
        decoys=[{"name": "typo", "steps": [SAVE[0], TYPO, {"op": "done"}], "fails": ["submitted"]}],
    )
    verdicts = by_role(await verify_in(worker, [loaded]))
    typo = verdicts["decoy:typo"]
    assert not typo.ok
    assert "its own step broke (step 1 click errored" in typo.actual
    # The scripted agent stopped at the broken step: the done after it never ran.
    assert typo.record.stop_reason == "step_failed"
    assert [s.op for s in typo.record.steps] == ["fill", "click"]
    assert typo.record.stop_detail and "step 1 (click) failed" in typo.record.stop_detail
    assert any(line.startswith("step 1 click errored") for line in typo.why), typo.why
    assert any(line.startswith("check submitted: expected") for line in typo.why), typo.why
    assert verdicts["oracle"].ok and verdicts["null"].ok


async def test_a_decoy_step_marked_expect_error_may_fail(worker: Worker, tmp_path: Path) -> None:
    marked = {**TYPO, "expect_error": True}
    loaded = scenario(
        tmp_path,
        "marked-decoy",
        decoys=[
            {"name": "typo", "steps": [WRONG[0], marked, *WRONG[1:]], "fails": ["submitted"]},
            # marked, but the step works: the decoy's premise is gone, and verify says so
            {
                "name": "stale-mark",
                "steps": [SAVE[0], {**SAVE[1], "expect_error": True}, {"op": "done"}],
                "fails": ["submitted"],
            },
        ],
    )
    verdicts = by_role(await verify_in(worker, [loaded]))
    assert verdicts["decoy:typo"].ok, verdicts["decoy:typo"].why
    assert verdicts["decoy:typo"].record.stop_reason == "done"
    stale = verdicts["decoy:stale-mark"]
    assert not stale.ok
    assert "step 1 click is marked expect: error but ran ok" in stale.actual


async def test_an_oracle_with_a_failing_step_is_a_violation_even_if_it_passes(
    worker: Worker, tmp_path: Path
) -> None:
    # The typo'd click fails; a fixed script would go on and still save the note.
    loaded = scenario(
        tmp_path, "stumbling-oracle", solution=[SAVE[0], TYPO, SAVE[1], {"op": "done"}]
    )
    oracle = by_role(await verify_in(worker, [loaded]))["oracle"]
    assert not oracle.ok
    assert oracle.actual.startswith("a step failed (step 1 click errored")
    assert oracle.record.stop_reason == "step_failed"
    assert len(oracle.record.steps) == 2  # it did not act on after the failure


async def test_the_loop_driver_stops_a_script_at_its_failed_step_too(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = scenario(
        tmp_path,
        "loop-broken-decoy",
        driver="loop",
        decoys=[{"name": "typo", "steps": [SAVE[0], TYPO, {"op": "done"}], "fails": ["submitted"]}],
    )
    verdicts = by_role(await verify_in(worker, [loaded]))
    typo = verdicts["decoy:typo"]
    assert not typo.ok
    assert typo.record.stop_reason == "step_failed"
    assert typo.record.stop_detail and typo.record.stop_detail.startswith("step 1 (click) failed")
    assert [s.op for s in typo.record.steps] == ["fill", "click"]
    assert verdicts["oracle"].ok, verdicts["oracle"].why


async def test_a_decoy_that_does_nothing_is_inert(worker: Worker, tmp_path: Path) -> None:
    # The three decoys verify once certified: each fails `submitted` only as null does.
    done = {"op": "done"}
    loaded = scenario(
        tmp_path,
        "inert-decoys",
        decoys=[
            {
                "name": "only-waits",
                "steps": [{"op": "wait", "ms": 50}, done],
                "fails": ["submitted"],
            },
            {
                "name": "clicks-nothing",
                "steps": [{"op": "click", "role": "textbox", "name": "Text"}, done],
                "fails": ["submitted"],
            },
            {
                "name": "refused-navigate",
                "steps": [{**OFFWORLD, "expect": "refused"}, done],
                "fails": ["submitted"],
            },
            # stopping early is the point of this one, and it says so
            {"name": "stops-early", "steps": [done], "fails": ["submitted"], "inert": True},
            {"name": "wrong-text", "steps": WRONG, "fails": ["submitted"]},
        ],
    )
    verdicts = by_role(await verify_in(worker, [loaded]))
    for name in ("only-waits", "clicks-nothing", "refused-navigate"):
        verdict = verdicts[f"decoy:{name}"]
        assert not verdict.ok, name
        assert verdict.actual.startswith("inert: its world ended as the null agent's"), verdict
        assert verdict.record.result == "failed"
        assert verdict.record.failed_checks == ["submitted"]
    refused = verdicts["decoy:refused-navigate"].record
    assert [(s.op, s.status) for s in refused.steps] == [("navigate", "refused"), ("done", "ok")]
    assert any(r.refused == "offworld" for r in refused.end_state.requests)
    assert verdicts["decoy:stops-early"].ok, verdicts["decoy:stops-early"].why
    assert verdicts["decoy:wrong-text"].ok, verdicts["decoy:wrong-text"].why
    assert verdicts["oracle"].ok and verdicts["null"].ok
    labels = [v.label for v in await verify_in(worker, [loaded], roles={"decoy"})]
    assert labels == [f"decoy:{d.name}" for d in loaded.scenario.decoys]


async def test_a_refused_decoy_step_is_a_violation_unless_marked(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = scenario(
        tmp_path,
        "refused-decoy",
        decoys=[
            {"name": "unmarked", "steps": [OFFWORLD, *WRONG], "fails": ["submitted"]},
            {
                "name": "marked",
                "steps": [{**OFFWORLD, "expect": "refused"}, *WRONG],
                "fails": ["submitted"],
            },
            # marked refused, but the step errors: not the way the decoy says it ends
            {
                "name": "errs-instead",
                "steps": [{**TYPO, "expect": "refused"}, *WRONG],
                "fails": ["submitted"],
            },
        ],
    )
    verdicts = by_role(await verify_in(worker, [loaded]))
    unmarked = verdicts["decoy:unmarked"]
    assert not unmarked.ok
    assert unmarked.actual.startswith("its own step broke (step 0 navigate was refused: ")
    assert verdicts["decoy:marked"].ok, verdicts["decoy:marked"].why
    errs = verdicts["decoy:errs-instead"]
    assert not errs.ok
    assert "step 0 click is marked expect: refused but errored: " in errs.actual
    assert errs.record.stop_reason == "step_failed"  # the script stops at an unexpected error
