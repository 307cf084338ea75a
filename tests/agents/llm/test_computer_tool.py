"""The providers' native computer-use tools (``+computer``), end to end through real Chromium.

The replay provider speaks Anthropic's beta messages with the ``computer`` tool and
OpenAI's Responses API with its ``computer`` tool. The scenario is the frames
site's fixed-layout audit page (manual-frame-audit), whose buttons sit at known
CSS boxes: a click the model gives in screenshot pixels must land on them after
the screen's scaling is undone, and a coordinate click on the page's "Delete
audit" (a destructive crossing) stops for the owner before anything is sent.
"""

from __future__ import annotations

import base64
import io
import json
from typing import Any

import pytest
from PIL import Image

from proctor.agents.llm import (
    Recorded,
    ReplayProvider,
    Transcript,
    anthropic_reply,
    computer_call,
    function_call,
    responses_reply,
)
from proctor.agents.llm._native import RULES, Screen, fit, from_anthropic, from_openai
from proctor.computer import actions as a
from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, attempt_folder, parse_arm, run_attempt
from proctor.scenario import LoadedScenario

pytestmark = pytest.mark.browser

KEY = "sk-proctor-computer-test-5d1c"
SCENARIO = "manual-frame-audit"
CLICKS = [
    {"type": "click", "button": "left", "x": 175, "y": 261},
    {"type": "click", "button": "left", "x": 682, "y": 221},
]
OPENAI_SCREEN = (1228, 768)
"""1280x800 within OpenAI's rule: the short side at most 768 (x0.96)."""


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCTOR_TEST_KEY", KEY)


async def run(
    worker: Worker, loaded: LoadedScenario, responses: list[Recorded], wire: str, name: str
) -> tuple[AttemptRecord, list[dict[str, Any]], ReplayProvider]:
    async with ReplayProvider(Transcript(label="cu", responses=responses), key=KEY) as replay:
        if wire == "anthropic":
            url = replay.base_url("anthropic")
            spec = f"{name}=anthropic:claude-sonnet-4-6+computer"
        else:
            url = replay.base_url("openai")
            spec = f"{name}=openai:gpt-5.4+computer"
        spec += f"+url={url}+key=PROCTOR_TEST_KEY+backoff=0"
        item = PlanItem(loaded, parse_arm(spec), 1)
        record = await run_attempt(worker, item, write=True)
    path = attempt_folder(worker.run_dir, item) / "events.jsonl"
    events = [json.loads(line) for line in path.read_text().splitlines()]
    return record, events, replay


def png_of(data_url_or_b64: str) -> tuple[int, int]:
    data = base64.b64decode(data_url_or_b64.removeprefix("data:image/png;base64,"))
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def anthropic_turns(*inputs: dict[str, Any]) -> list[Recorded]:
    replies = [
        anthropic_reply("computer", args, call_id=f"toolu_{i}") for i, args in enumerate(inputs)
    ]
    replies.append(anthropic_reply("done", {}, call_id="toolu_done"))
    return [Recorded(body=r, wire="anthropic") for r in replies]


async def test_anthropic_computer_tool_passes_by_pixels(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    responses = anthropic_turns(
        {"action": "screenshot"},
        {"action": "left_click", "coordinate": [182, 272]},  # in the frame: Approve figures
        {"action": "left_click", "coordinate": [710, 230]},  # on the page: Mark audit reviewed
    )
    record, events, replay = await run(worker, suite[SCENARIO], responses, "anthropic", "claude")
    assert record.result == "passed", record.failed_checks
    assert record.stop_reason == "done" and record.invalid_calls == 0
    assert [s.op for s in record.steps] == ["click", "click", "done"]
    assert [s.target for s in record.steps[:2]] == ["(182,272)", "(710,230)"]
    # The screenshot the model asked for is the agent's own tool call; actions are steps.
    assert record.tool_calls == 4 and record.planner_calls == 4
    first = replay.requests[0]
    assert first.path == "/v1/messages" and first.wire == "anthropic"
    tools = first.body["tools"]
    # 1280x800 is within 1568 px and 1.15 MP: the screen is the viewport, unscaled.
    assert tools[0] == {"type": "computer_20251124", "name": "computer",
                        "display_width_px": 1280, "display_height_px": 800}  # fmt: skip
    # Beside it: what a screen cannot show and the end; not the user's tools, since this
    # scenario's user has nothing to answer or approve.
    assert [t["name"] for t in tools[1:]] == ["navigate", "back", "done"]
    assert "snapshot:" not in json.dumps(first.body["messages"])  # pixels, not the aria tree
    image = first.body["messages"][0]["content"][1]
    assert image["type"] == "image" and png_of(image["source"]["data"]) == (1280, 800)
    # The answer to the screenshot request: a tool result holding the image.
    second = replay.requests[1].body["messages"]
    result = second[-1]["content"][-1]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_0"
    assert [c["type"] for c in result["content"]] == ["text", "image"]
    calls = [e for e in events if e["kind"] == "planner_call"]
    assert calls[1]["native"] == {"action": "left_click", "coordinate": [182, 272]}
    assert calls[1]["screen"] == [1280, 800] and calls[1]["viewport"] == [1280, 800]
    assert sum(1 for e in events if e["kind"] == "screenshot") == 1


async def test_openai_computer_tool_scales_the_screen_and_maps_batched_clicks_back(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    w, h = OPENAI_SCREEN
    responses = [
        Recorded(
            wire="responses",
            body=responses_reply(
                computer_call(actions=CLICKS, call_id="call_a"),
                text="Approving, then marking it reviewed.",
                response_id="resp_1",
            ),
        ),
        Recorded(
            wire="responses",
            body=responses_reply(function_call("done", {}, call_id="call_d"), response_id="resp_2"),
        ),
    ]
    record, events, replay = await run(worker, suite[SCENARIO], responses, "openai", "gpt")
    assert record.result == "passed", record.failed_checks
    assert [s.op for s in record.steps] == ["click", "click", "done"]
    # 175,261 and 682,221 in the 1228x768 screen are these CSS pixels of the viewport.
    assert [s.target for s in record.steps[:2]] == ["(182.4,271.9)", "(710.9,230.2)"]
    first, second = (r.body for r in replay.requests)
    assert replay.requests[0].path == "/v1/responses"
    assert first["tools"][0] == {"type": "computer"} and "previous_response_id" not in first
    assert [t["name"] for t in first["tools"][1:4]] == ["navigate", "back", "done"]
    assert first["truncation"] == "auto"
    opening = first["input"][0]["content"]
    assert png_of(opening[1]["image_url"]) == (w, h)
    # The next turn continues the last reply: only the new items, chained by id.
    assert second["previous_response_id"] == "resp_1"
    output = second["input"][0]
    assert output["type"] == "computer_call_output" and output["call_id"] == "call_a"
    assert output["output"]["type"] == "computer_screenshot"
    assert png_of(output["output"]["image_url"]) == (w, h)
    notes = second["input"][1]["content"][0]["text"]
    assert "call_a: click: ok" in notes and "call_a#1: " in notes
    call = next(e for e in events if e["kind"] == "planner_call")
    assert call["screen"] == [w, h] and call["text"] == "Approving, then marking it reviewed."


async def test_openai_preview_tool_declares_its_screen(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    responses = [
        Recorded(wire="responses", body=responses_reply(
            computer_call({"type": "screenshot"}, call_id="c1"), response_id="r1")),
        Recorded(wire="responses", body=responses_reply(
            function_call("done", {}, call_id="c2"), response_id="r2")),
    ]  # fmt: skip
    async with ReplayProvider(Transcript(label="cu", responses=responses), key=KEY) as replay:
        spec = (
            f"pre=openai:computer-use-preview+computer=computer_use_preview"
            f"+url={replay.base_url('openai')}+key=PROCTOR_TEST_KEY+backoff=0"
        )
        record = await run_attempt(worker, PlanItem(suite[SCENARIO], parse_arm(spec), 1))
    assert record.stop_reason == "done" and record.result == "failed"  # it did nothing
    tool = replay.requests[0].body["tools"][0]
    assert tool == {"type": "computer_use_preview", "display_width": 1228,
                    "display_height": 768, "environment": "browser"}  # fmt: skip


async def test_a_coordinate_click_on_a_sensitive_control_stops_for_the_owner(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    for wire in ("anthropic", "openai"):
        if wire == "anthropic":
            responses = anthropic_turns({"action": "left_click", "coordinate": [710, 330]})
        else:  # 682,317 in the 1228x768 screen is 710.9,330.2: the Delete audit button
            responses = [
                Recorded(
                    wire="responses",
                    body=responses_reply(
                        computer_call({"type": "click", "button": "left", "x": 682, "y": 317})
                    ),
                )
            ]
        record, _, _ = await run(worker, suite[SCENARIO], responses, wire, f"del-{wire}")
        assert record.stop_reason == "owner_required", (wire, record.stop_detail)
        assert record.needs_review and "destructive" in (record.stop_detail or "")
        assert record.steps == []  # stopped before the click was sent
        posts = [e for e in record.end_state.requests if e.method == "POST"]
        assert posts == [], wire


def test_screen_rules_and_key_names() -> None:
    assert fit(1280, 800, RULES["anthropic"]) == (1280, 800)
    assert fit(1920, 1080, RULES["anthropic"]) == (1429, 804)  # 1.15 MP at most
    assert fit(2560, 1440, RULES["openai"]) == (1365, 768)
    assert fit(3000, 1000, RULES["openai"]) == (2048, 682)
    screen = Screen(640, 400, 1280, 800)
    assert from_anthropic({"action": "key", "text": "ctrl+A"}, screen) == a.Press(key="Control+a")
    assert from_anthropic({"action": "key", "text": "Return"}, screen) == a.Press(key="Enter")
    assert from_openai({"type": "keypress", "keys": ["CTRL", "L"]}, screen) == a.Press(
        key="Control+l"
    )
    assert from_anthropic({"action": "double_click", "coordinate": [10, 20]}, screen) == a.Click(
        x=20, y=40, clicks=2
    )
    assert from_openai({"type": "scroll", "x": 5, "y": 5, "scroll_x": 0, "scroll_y": 300},
                       screen) == a.Scroll(direction="down", amount=600, x=10, y=10)  # fmt: skip
    with pytest.raises(ValueError, match="off the screen, which is 640x400"):
        from_anthropic({"action": "left_click", "coordinate": [640, 10]}, screen)
    with pytest.raises(ValueError, match="not supported"):
        from_anthropic({"action": "left_mouse_down"}, screen)


def test_a_computer_arm_on_a_desktop_scenario_is_skipped_with_the_reason(
    suite: dict[str, LoadedScenario],
) -> None:
    arm = parse_arm("cu=anthropic:claude-sonnet-4-6+computer+key=PROCTOR_TEST_KEY")
    item = PlanItem(suite["desktop-calculator-deterministic"], arm, 1)
    assert item.skip is not None and item.skip.startswith(
        "arm cu: +computer acts by pixels on a browser's viewport; this is a desktop scenario"
    )
    assert PlanItem(suite[SCENARIO], arm, 1).skip is None
