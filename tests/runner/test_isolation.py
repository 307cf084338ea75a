"""Attempts in one worker are isolated; infra faults are retried; wall and tool limits stop."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from proctor.records import AttemptRecord
from proctor.runner import PlanItem, RunOptions, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, dump_scenario, load_scenario
from proctor.world import Site, world_of
from proctor.world._site import required

pytestmark = pytest.mark.browser

_notes = itertools.count(1)
_flaky_calls = itertools.count(1)


async def iso(request: Request) -> Response:
    """Shows what this attempt's server and browser already hold, then leaves marks."""
    world = world_of(request)
    cookie = "yes" if request.cookies.get("seen") else "no"
    html = f"""<!doctype html><title>Iso</title>
<p id="status">submissions={len(world.submissions)} cookie={cookie}</p>
<p id="storage"></p>
<script>
  const mark = localStorage.getItem('mark');
  document.getElementById('storage').textContent = 'storage=' + (mark ? 'set' : 'none');
  localStorage.setItem('mark', '1');
</script>
<form method="post" action="/submit/note"><input name="text" aria-label="Text">
<button type="submit">Save</button></form>
<a href="/note-file">Get note</a>"""
    response = HTMLResponse(html)
    response.set_cookie("seen", "1", max_age=3600)
    return response


async def note_file(request: Request) -> Response:
    n = next(_notes)
    return PlainTextResponse(
        f"note {n}\n", headers={"content-disposition": f'attachment; filename="note-{n}.txt"'}
    )


async def flaky(request: Request) -> Response:
    if next(_flaky_calls) == 1:
        raise RuntimeError("flaky fixture, first call only")
    return HTMLResponse("<!doctype html><title>Flaky</title><p>steady now</p>")


async def broken(request: Request) -> Response:
    raise RuntimeError("broken fixture")


async def plain(request: Request) -> Response:
    return HTMLResponse("<!doctype html><title>Plain</title><p>plain page</p>")


LAB = Site(
    name="lab",
    routes=[
        Route("/iso", iso),
        Route("/note-file", note_file),
        Route("/flaky", flaky),
        Route("/broken", broken),
        Route("/plain", plain),
    ],
    forms={"note": required("text")},
)


def write_scenario(folder: Path, sid: str, **fields: Any) -> LoadedScenario:
    """Write ``<sid>.yaml`` with sensible defaults and load it against the lab site."""
    data: dict[str, Any] = {
        "id": sid,
        "title": f"Test scenario {sid}",
        "brief": "A test task on {site.lab}.",
        "tier": "local",
        "category": "regression",
        "limits": {"seconds": 30, "tool_calls": 40, "steps": 20},
        "world": {"sites": ["lab"], "browser": {"start": "{site.lab}/plain"}},
        "checks": [{"requested": {"path": "/plain"}}],
        "solution": [{"op": "done"}],
        "decoys": [{"name": "elsewhere", "steps": [{"op": "done"}], "fails": ["requested"]}],
    }
    data.update(fields)
    path = folder / f"{sid}.yaml"
    path.write_text(dump_scenario(data), encoding="utf-8")
    return load_scenario(path, sites={"lab"})


@pytest.fixture(scope="module")
async def worker(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Worker]:
    run_dir = tmp_path_factory.mktemp("isolation-run")
    async with Worker(
        run_dir, RunOptions(screenshots=False, retry_delays=(0.0,)), sites=[LAB]
    ) as w:
        yield w


async def run(worker: Worker, loaded: LoadedScenario, repeat: int = 1) -> AttemptRecord:
    item = PlanItem(loaded, parse_arm("oracle=scripted"), repeat)
    return await run_attempt(worker, item, write=False)


async def test_back_to_back_attempts_start_clean(worker: Worker, tmp_path: Path) -> None:
    loaded = write_scenario(
        tmp_path,
        "iso-state",
        world={"sites": ["lab"], "browser": {"start": "{site.lab}/iso"}},
        checks=[{"submitted": {"route": "note", "count": 1, "fields": {"text": "hello"}}}],
        solution=[
            {"op": "extract", "kind": "text", "selector": "#status"},
            {"op": "extract", "kind": "text", "selector": "#storage"},
            {"op": "fill", "role": "textbox", "name": "Text", "value": "hello"},
            {"op": "click", "role": "button", "name": "Save"},
            {"op": "navigate", "url": "{site.lab}/iso"},
            {"op": "extract", "kind": "text", "selector": "#status"},
            {"op": "extract", "kind": "text", "selector": "#storage"},
            {"op": "click", "role": "link", "name": "Get note"},
            {"op": "done"},
        ],
        decoys=[{"name": "no-save", "steps": [{"op": "done"}], "fails": ["submitted"]}],
    )
    first = await run(worker, loaded, repeat=1)
    second = await run(worker, loaded, repeat=2)
    for record in (first, second):
        assert record.result == "passed", (record.error, record.failed_checks)
        assert [s.status for s in record.steps] == ["ok"] * 9
    # within an attempt the marks are seen, so the assertions below can fail
    assert [first.steps[i].data for i in (0, 1, 5, 6)] == [
        "submissions=0 cookie=no",
        "storage=none",
        "submissions=1 cookie=yes",
        "storage=set",
    ]
    assert [second.steps[i].data for i in (0, 1)] == ["submissions=0 cookie=no", "storage=none"]
    isos = [r.cookies for r in second.end_state.requests if r.path == "/iso"]
    assert isos == [[], ["seen"]]
    # each attempt's scratch holds its own download only
    first_file = first.steps[7].facts["downloads"][0]
    second_file = second.steps[7].facts["downloads"][0]
    assert first_file != second_file
    assert [p for p in first.end_state.files if p.startswith("output/")] == [first_file]
    assert [p for p in second.end_state.files if p.startswith("output/")] == [second_file]
    # and the server log is split by attempt
    assert {r.attempt for r in first.end_state.requests} == {f"{first.id}#1"}
    assert {r.attempt for r in second.end_state.requests} == {f"{second.id}#1"}


async def test_a_fixture_fault_is_retried_and_recorded_not_scored(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = write_scenario(
        tmp_path,
        "flaky-once",
        world={"sites": ["lab"], "browser": {"start": "{site.lab}/flaky"}},
        checks=[{"page_text": {"contains": "steady now"}}],
        decoys=[
            {
                "name": "leaves",
                "steps": [{"op": "navigate", "url": "{site.lab}/plain"}, {"op": "done"}],
                "fails": ["page_text"],
            }
        ],
    )
    record = await run(worker, loaded)
    assert record.result == "passed", (record.error, record.failed_checks)
    assert [(f.try_number, f.kind) for f in record.infra_faults] == [(1, "fixture")]
    assert record.infra_faults[0].message == (
        "fixture error on GET lab.proctor.test/flaky: RuntimeError: flaky fixture, first call only"
    )
    assert {r.attempt for r in record.end_state.requests} == {f"{record.id}#2"}


async def test_a_fixture_that_always_fails_is_an_infra_error(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = write_scenario(
        tmp_path,
        "always-broken",
        world={"sites": ["lab"], "browser": {"start": "{site.lab}/broken"}},
    )
    record = await run(worker, loaded)
    assert record.result == "error"
    assert record.stop_reason == "infra"
    tries = worker.options.infra_retries + 1
    assert [(f.try_number, f.kind) for f in record.infra_faults] == [
        (n, "fixture") for n in range(1, tries + 1)
    ]
    assert record.error is not None and "RuntimeError: broken fixture" in record.error
    assert record.checks == []


async def test_the_wall_limit_stops_the_agent(worker: Worker, tmp_path: Path) -> None:
    loaded = write_scenario(
        tmp_path,
        "wall-limit",
        limits={"seconds": 1, "tool_calls": 40, "steps": 20},
        checks=[{"stop_reason": {"equals": "done"}}],
        solution=[{"op": "wait", "ms": 10000}, {"op": "done"}],
        decoys=[{"name": "stops", "steps": [{"op": "wait", "ms": 1}], "fails": ["stop_reason"]}],
    )
    record = await run(worker, loaded)
    assert record.stop_reason == "timeout"
    assert record.result == "failed"
    assert record.error == "the wall limit (1s) was reached"
    assert record.agent_seconds < 5
    assert record.infra_faults == []


async def test_the_tool_call_limit_stops_the_agent(worker: Worker, tmp_path: Path) -> None:
    plain = {"op": "navigate", "url": "{site.lab}/plain"}
    loaded = write_scenario(
        tmp_path,
        "tool-limit",
        limits={"seconds": 30, "tool_calls": 2, "steps": 20},
        checks=[{"stop_reason": {"equals": "done"}}],
        solution=[plain, plain, plain, {"op": "done"}],
        decoys=[{"name": "stops", "steps": [plain], "fails": ["stop_reason"]}],
    )
    record = await run(worker, loaded)
    assert record.stop_reason == "tool_limit"
    assert record.result == "failed"
    assert record.tool_calls == 2
    assert [s.op for s in record.steps] == ["navigate", "navigate"]
    assert record.error == "the tool-call limit (2) is used up"
