"""What the user says mid-task reaches a model as the user's own turn, on every wire."""

from __future__ import annotations

import pytest

from proctor.agents.llm import (
    Recorded,
    ReplayProvider,
    Transcript,
    _anthropic,
    _openai,
    openai_reply,
)
from proctor.agents.llm._messages import AssistantTurn, Message, ToolCall, ToolResults, UserText
from proctor.agents.llm._responses import Items
from proctor.runner import PlanItem, Worker, parse_arm, run_attempt
from proctor.scenario import LoadedScenario

KEY = "sk-proctor-user-turns-3f1a"

SAID = "message from the user: make it Friday"
CONVERSATION: list[Message] = [
    UserText("the task"),
    AssistantTurn("", (ToolCall("c1", "click", '{"ref": "e1"}'),)),
    ToolResults((("c1", "ok: clicked"),), said=(SAID,)),
]


def test_anthropic_adds_a_text_block_after_the_tool_results() -> None:
    last = _anthropic.messages(CONVERSATION)[-1]
    assert last["role"] == "user"
    assert last["content"][0]["type"] == "tool_result"
    assert last["content"][0]["content"] == "ok: clicked"  # never inside the tool's output
    assert last["content"][-1] == {"type": "text", "text": SAID}


def test_chat_completions_adds_a_user_message_after_the_tool_message() -> None:
    out = _openai.messages("system", CONVERSATION)
    assert out[-2] == {"role": "tool", "tool_call_id": "c1", "content": "ok: clicked"}
    assert out[-1] == {"role": "user", "content": SAID}


def test_responses_adds_a_user_input_after_the_function_output() -> None:
    calls = {"c1": ToolCall("c1", "click", "{}")}
    out = Items().results(CONVERSATION[-1], calls)  # type: ignore[arg-type]
    assert out[0] == {"type": "function_call_output", "call_id": "c1", "output": "ok: clicked"}
    assert out[-1] == {"role": "user", "content": [{"type": "input_text", "text": SAID}]}


def test_nothing_is_added_when_the_user_said_nothing() -> None:
    quiet = [*CONVERSATION[:2], ToolResults((("c1", "ok: clicked"),))]
    assert _openai.messages("system", quiet)[-1]["role"] == "tool"
    assert all(b["type"] == "tool_result" for b in _anthropic.messages(quiet)[-1]["content"])


STEER = [
    ("click", {"role": "link", "name": "Compose"}),
    ("fill", {"role": "textbox", "name": "To", "value": "tom@nair-design.example.test"}),
    ("fill", {"role": "textbox", "name": "Cc", "value": "ana@nair-design.example.test"}),
    ("fill", {"role": "textbox", "name": "Subject", "value": "Studio review"}),
    ("fill", {"role": "textbox", "name": "Message", "value": "Friday at 10:00 then. Priya"}),
    ("click", {"role": "button", "name": "Send"}),
    ("done", {"answer": "Sent, Friday at 10:00, Ana copied."}),
]


@pytest.mark.browser
async def test_a_model_hears_the_steering_message_as_a_user_turn(
    worker: Worker, suite: dict[str, LoadedScenario], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROCTOR_TEST_KEY", KEY)
    replies = [
        Recorded(body=openai_reply(op, args, call_id=f"call_{i}"))
        for i, (op, args) in enumerate(STEER)
    ]
    loaded = suite["steer-mid-task"]
    async with ReplayProvider(Transcript(label="steer", responses=replies), key=KEY) as replay:
        url = replay.base_url("openai")
        arm = parse_arm(f"gpt=openai:gpt-4.1-mini+url={url}+key=PROCTOR_TEST_KEY+backoff=0")
        record = await run_attempt(worker, PlanItem(loaded, arm, 1), write=False)
        bodies = [r.body["messages"] for r in replay.requests]
    assert record.result == "passed", (record.failed_checks, record.error, record.stop_detail)
    # after the second action the user's words arrive: a user message after the tool result
    third = bodies[2]
    assert third[-2]["role"] == "tool" and "change of plan" not in third[-2]["content"]
    assert third[-1]["role"] == "user" and "change of plan" in third[-1]["content"]
    assert not any(m["role"] == "user" and "change of plan" in str(m["content"]) for m in bodies[1])
    assert "schedule" in {t["function"]["name"] for t in replay.requests[0].body["tools"]}
