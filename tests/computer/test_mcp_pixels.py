"""Pixel agents over MCP: the screenshot tool, coordinates only, and plain tool text.

The end-to-end tests run tests/agents/agents_fixtures/pixel_agent.py as a
``command:`` arm through the real runner, fixture server and Chromium. Its page
(a data: URL) has a green text field, and a yellow scroll pane whose blue submit
button starts out of sight; the agent sees only PNGs, finds the blocks by colour,
clicks and types at the green block, scrolls at the yellow pane, then clicks the
blue block. The form posts to the forms site, so the grade is the server's.
"""

from __future__ import annotations

import base64
import json
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from cli_support import write_scenario
from proctor.agents import Computer, Outcome
from proctor.computer.mcp_lane import DESKTOP_INSTRUCTIONS, INSTRUCTIONS, McpLane, tools
from proctor.errors import LimitReached
from proctor.records import AttemptRecord
from proctor.runner import Arm, PlanItem, Worker, attempt_folder, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, Scenario, load_scenario
from proctor.vocab import SURFACES
from proctor.world import DOMAIN, all_sites

AGENT = Path(__file__).parents[1] / "agents" / "agents_fixtures" / "pixel_agent.py"

GREEN_BOX = (120, 140, 480, 204)
"""The green field's CSS box (x0, y0, x1, y1), as the page's style places it."""
BLUE_BOX = (860, 520, 1060, 600)
"""The blue button's CSS box once the yellow pane (at 760,420) is scrolled down 600 px."""

PAGE = f"""<!doctype html><html><head><title>Pixels</title><style>
html, body {{ margin: 0; height: 100%; overflow: hidden; background: #ffffff; }}
#name {{ position: fixed; left: 120px; top: 140px; width: 360px; height: 64px;
  box-sizing: border-box; border: 0; outline: none; padding: 0 12px;
  background: #00c853; color: #000000; font: 28px sans-serif; }}
#pane {{ position: fixed; left: 760px; top: 420px; width: 400px; height: 300px;
  overflow: auto; background: #ffd600; }}
#send {{ display: block; margin: 700px 0 400px 100px; width: 200px; height: 80px;
  border: 0; background: #2962ff; }}
</style></head><body>
<form method="post" action="http://forms.{DOMAIN}/submit/contact">
<input type="hidden" name="email" value="pat@example.test">
<input type="hidden" name="topic" value="billing">
<input type="hidden" name="message" value="Sent by pixels.">
<input id="name" name="name" autocomplete="off" aria-label="Name">
<div id="pane"><button id="send" type="submit" aria-label="Send"></button></div>
</form></body></html>"""


def pixel_scenario(folder: Path, tool_calls: int = 20) -> LoadedScenario:
    start = "data:text/html;base64," + base64.b64encode(PAGE.encode()).decode()
    spec: dict[str, Any] = {
        "id": "pixel-form",
        "title": "Type a name and send it, seeing the page only as pixels",
        "tier": "local",
        "category": "regression",
        "limits": {"seconds": 60, "tool_calls": tool_calls, "steps": 10},
        "brief": "Type Pixel Pat into the green field, then press the blue button in the "
        "yellow pane (scroll the pane to find it).",
        "world": {
            "sites": ["forms"],
            "browser": {"start": start, "allow_schemes": ["data"]},
        },
        "checks": [
            {"submitted": {"route": "contact", "fields": {"name": "Pixel Pat"}, "name": "sent"}},
            {"stop_reason": {"equals": "done"}},
        ],
        "solution": [
            {"op": "click", "x": 300, "y": 172},
            {"op": "type", "text": "Pixel Pat"},
            {"op": "scroll", "x": 960, "y": 570, "direction": "down", "amount": 600},
            {"op": "click", "x": 960, "y": 560},
            {"op": "done"},
        ],
        "decoys": [
            {
                "name": "scrolls-the-page",
                "steps": [
                    {"op": "click", "x": 300, "y": 172},
                    {"op": "type", "text": "Pixel Pat"},
                    {"op": "scroll", "direction": "down", "amount": 600},
                    {"op": "done"},
                ],
                "fails": ["sent"],
            }
        ],
    }
    return load_scenario(write_scenario(folder, spec), sites=set(all_sites()))


@pytest.fixture
def pixels(tmp_path_factory: pytest.TempPathFactory) -> LoadedScenario:
    """The scenario, in a folder of its own (the jail hides a scenario's folder)."""
    return pixel_scenario(tmp_path_factory.mktemp("pixel-scenario"))


def arm(mode: str) -> Arm:
    return parse_arm(f"pixels-{mode}=command:{shlex.join([sys.executable, str(AGENT), mode])}")


async def run(worker: Worker, loaded: LoadedScenario, mode: str) -> tuple[AttemptRecord, Trace]:
    chosen = arm(mode)
    record = await run_attempt(worker, PlanItem(loaded, chosen, 1), write=True)
    folder = attempt_folder(worker.run_dir, PlanItem(loaded, chosen, 1))
    lines = (folder / "events.jsonl").read_text().splitlines()
    stored = json.loads((folder / "attempt.json").read_text())
    assert stored["tool_calls"] == record.tool_calls and stored["inputs"] == record.inputs
    return record, Trace([json.loads(line) for line in lines])


@dataclass
class Trace:
    events: list[dict[str, Any]]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["kind"] == kind]

    def said(self, prefix: str) -> list[str]:
        return [e["line"] for e in self.of("stdout") if e["line"].startswith(prefix)]


def coordinates(record: AttemptRecord) -> list[tuple[str, str | None]]:
    return [(s.op, s.target) for s in record.steps]


@pytest.mark.browser
async def test_a_pixel_agent_finds_blocks_by_colour_and_passes(
    worker: Worker, pixels: LoadedScenario
) -> None:
    record, trace = await run(worker, pixels, "solve")
    stderr = [e["line"] for e in trace.of("stderr")]
    assert record.result == "passed", (record.failed_checks, record.error, stderr[-20:])
    assert record.stop_reason == "done"
    # Found in the decoded PNG where the page's style puts them, in CSS pixels.
    assert trace.said("VIEWPORT") == ["VIEWPORT 1280x800 scale=1"] * 2
    assert trace.said("FOUND green") == ["FOUND green {},{},{},{}".format(*GREEN_BOX)]
    assert trace.said("FOUND blue") == ["FOUND blue {},{},{},{}".format(*BLUE_BOX)]
    # Only coordinates: the clicks landed at the blocks' centres, the type went to the focus.
    assert coordinates(record) == [
        ("click", "(300,172)"),
        ("type", None),
        ("scroll", "(960,570)"),  # the yellow pane's centre (760,420)-(1160,720)
        ("click", "(960,560)"),
        ("done", None),
    ]
    assert all(s.status == "ok" for s in record.steps)
    assert record.steps[2].facts["scroll"]["box"] == {"x": 0, "y": 600}
    # screenshot, click, type, scroll, screenshot, click, done; the late screenshot is refused
    assert (record.tool_calls, record.inputs, record.observations) == (7, 3, 0)
    assert trace.said("SENT") == ["SENT tool_calls=7 inputs=3 screenshots=2"]
    late = trace.said("LATE")
    assert late == ["LATE error=True refused: the attempt has ended (done); stop calling tools"]
    # Each screenshot is in the trace with its sizes and the hash of the PNG the agent got.
    shots = trace.of("screenshot")
    got = [line.removeprefix("SHOT ") for line in trace.said("SHOT")]
    assert [s["sha256"] for s in shots] == got and len(set(got)) == 2
    for shot in shots:
        assert (shot["width"], shot["height"]) == (1280, 800)
        assert (shot["png_width"], shot["png_height"]) == (1280, 800)
        assert shot["surface"] == "browser" and shot["bytes"] > 0
    calls = [(e["tool"], e["error"]) for e in trace.of("mcp_call")]
    assert calls[0] == ("screenshot", False) and calls.count(("screenshot", False)) == 2
    assert trace.of("mcp_refused") == [
        {"time": trace.of("mcp_refused")[0]["time"], "kind": "mcp_refused",
         "tool": "screenshot", "reason": "done"}
    ]  # fmt: skip
    sent = next(c for c in record.checks if c.name == "sent")
    assert sent.passed


@pytest.mark.browser
async def test_a_wrong_coordinate_fails_the_grade(worker: Worker, pixels: LoadedScenario) -> None:
    record, trace = await run(worker, pixels, "miss")
    assert record.result == "failed"
    assert record.failed_checks == ["sent"]
    assert trace.said("FOUND green") == ["FOUND green {},{},{},{}".format(*GREEN_BOX)]
    assert coordinates(record)[0] == ("click", "(0,172)")  # white page, not the field
    assert (record.tool_calls, record.inputs) == (7, 3)


@pytest.mark.browser
async def test_scrolling_the_page_does_not_scroll_the_pane(
    worker: Worker, pixels: LoadedScenario
) -> None:
    record, trace = await run(worker, pixels, "page-scroll")
    assert trace.said("NO BLUE") == ["NO BLUE"]  # the pane did not move, so no blue pixel
    assert [s.op for s in record.steps] == ["click", "type", "scroll", "done"]
    assert "box" not in record.steps[2].facts["scroll"]
    assert record.failed_checks == ["sent"]
    assert (record.tool_calls, record.inputs) == (6, 2)


@pytest.mark.browser
async def test_the_scenario_oracle_passes_and_its_decoy_fails(
    worker: Worker, pixels: LoadedScenario
) -> None:
    plan = PlanItem(pixels, parse_arm("oracle=scripted"), 1)
    oracle = await run_attempt(worker, plan, write=False)
    assert oracle.result == "passed", oracle.failed_checks
    decoy = PlanItem(pixels, parse_arm("decoy=decoy:scrolls-the-page"), 1)
    assert (await run_attempt(worker, decoy, write=False)).failed_checks == ["sent"]


@dataclass
class Looker:
    """Takes screenshots in the harness's loop until the lane refuses them."""

    calls: int
    results: list[types.CallToolResult] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return "lane-looker"

    async def run(self, brief: str, computer: Computer) -> Outcome:
        async with McpLane(computer) as lane, Client(lane.url) as client:
            for _ in range(self.calls):
                self.results.append(await client.call_tool("screenshot", {}))
        # As the command agent does: the limit that ended the lane ends the run.
        assert lane.end is not None and isinstance(lane.end.error, LimitReached)
        raise lane.end.error


@pytest.mark.browser
async def test_screenshots_count_against_the_tool_call_limit(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = pixel_scenario(tmp_path, tool_calls=2)
    agent = Looker(calls=4)

    def factory(scenario: Scenario) -> Looker:
        return agent

    record = await run_attempt(
        worker, PlanItem(loaded, Arm(name="look", spec="look", factory=factory), 1), write=False
    )
    first, second, third, fourth = agent.results
    assert not first.is_error and not second.is_error
    assert [c.type for c in first.content] == ["image", "text"]
    image = first.content[0]
    assert isinstance(image, types.ImageContent) and image.mime_type == "image/png"
    assert base64.b64decode(image.data).startswith(b"\x89PNG\r\n\x1a\n")
    assert first.structured_content == {
        "viewport": {"width": 1280, "height": 800},
        "image": {"width": 1280, "height": 800},
    }
    said = "".join(getattr(c, "text", "") for c in first.content)
    assert said.startswith("screenshot: the viewport, 1280 x 800 CSS pixels (width x height)")
    assert third.is_error and "".join(getattr(c, "text", "") for c in third.content) == (
        "tool_limit: the tool-call limit (2) is used up. The attempt has ended; stop calling tools."
    )
    assert fourth.is_error and "the attempt has ended (tool_limit)" in str(fourth.content)
    assert record.stop_reason == "tool_limit"
    assert (record.tool_calls, record.inputs, record.steps) == (2, 0, [])


# ----- what the lane serves is plain text ---------------------------------------------------

RST = re.compile(r"``|:[a-z]+:`|\.\. [a-z]+::|`")
"""Inline literals, roles (:class:`X`), directives, and any other backtick markup."""


def _texts_and_enums(node: Any, where: str) -> tuple[list[tuple[str, str]], list[str]]:
    """Every description in a schema (with where it is), and every enum property without one."""
    texts: list[tuple[str, str]] = []
    bare: list[str] = []
    if isinstance(node, dict):
        if isinstance(node.get("description"), str):
            texts.append((where, node["description"]))
        for name, prop in (node.get("properties") or {}).items():
            options = [prop, *prop.get("anyOf", []), *prop.get("oneOf", [])]
            enum = any("enum" in o or "const" in o for o in options if isinstance(o, dict))
            if enum and not prop.get("description"):
                bare.append(f"{where}.{name}")
        for key, value in node.items():
            t, b = _texts_and_enums(value, f"{where}.{key}")
            texts += t
            bare += b
    elif isinstance(node, list):
        for i, value in enumerate(node):
            t, b = _texts_and_enums(value, f"{where}[{i}]")
            texts += t
            bare += b
    return texts, bare


def test_every_served_text_is_plain_and_every_enum_is_described() -> None:
    texts = [("instructions", INSTRUCTIONS), ("desktop instructions", DESKTOP_INSTRUCTIONS)]
    bare: list[str] = []
    for surface in SURFACES:
        served = tools(surface)
        assert "screenshot" in [t.name for t in served]
        for tool in served:
            where = f"{surface}:{tool.name}"
            texts.append((where, tool.description or ""))
            found, missing = _texts_and_enums(tool.input_schema, where)
            texts += found
            bare += missing
    marked = [f"{where}: {text!r}" for where, text in texts if RST.search(text)]
    assert marked == []
    assert bare == []
    said = {text for _, text in texts}
    assert "The action this member runs: the scroll tool." in said  # the batch's members
    assert any(text.startswith("list: show the open tabs;") for text in said)


def test_the_walk_catches_markup_and_bare_enums() -> None:
    schema = {
        "properties": {
            "a": {"enum": ["x", "y"]},
            "b": {"anyOf": [{"enum": ["x"]}, {"type": "null"}], "description": "b: x or none."},
            "c": {"description": "See :class:`Target`."},
            "d": {"description": "Give ``value``."},
        }
    }
    texts, bare = _texts_and_enums(schema, "t")
    assert bare == ["t.a"]
    assert [w for w, text in texts if RST.search(text)] == ["t.properties.c", "t.properties.d"]
