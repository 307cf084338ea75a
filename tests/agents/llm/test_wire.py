"""Both wire adapters against the replay provider: exact requests, usage, retries, faults."""

from __future__ import annotations

import time
from typing import Any

import pytest

from proctor.agents.llm import (
    Recorded,
    ReplayProvider,
    Transcript,
    action_tools,
    anthropic_reply,
    make_wire,
    openai_reply,
    parse_model_spec,
)
from proctor.agents.llm._call import call_model
from proctor.agents.llm._messages import AssistantTurn, ToolCall, ToolResults, Usage, UserText
from proctor.agents.llm._wire import Request
from proctor.errors import ProviderFault

KEY = "sk-proctor-test-0d9c"
CONVERSATION = (
    UserText("Task: open Docs"),
    AssistantTurn(
        "Opening Docs.", (ToolCall("call_1", "click", '{"role": "link", "name": "Docs"}'),)
    ),
    ToolResults((("call_1", "click: ok"),)),
)


def spec(kind: str, replay: ReplayProvider, extra: str = "") -> str:
    model = "gpt-4.1-mini" if kind == "openai" else "claude-sonnet-4"
    url = replay.base_url("anthropic" if kind == "anthropic" else "openai")
    return f"{kind}:{model}+url={url}+key=PROCTOR_TEST_KEY+backoff=0{extra}"


async def ask(spec_text: str, tools: bool = True) -> Any:
    config = parse_model_spec(spec_text)
    wire = make_wire(config)
    events: list[tuple[str, dict[str, Any]]] = []
    try:
        request = Request("RULES", CONVERSATION, action_tools() if tools else [])
        answered = await call_model(
            wire, request, config, trace=lambda kind, **data: events.append((kind, data))
        )
    finally:
        await wire.close()
    return answered, events


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCTOR_TEST_KEY", KEY)


async def test_openai_request_is_exact_and_usage_is_read() -> None:
    reply = openai_reply("click", {"role": "link", "name": "Blog"}, usage=(1200, 30, 1000, 7))
    async with ReplayProvider(
        Transcript(label="t", responses=[Recorded(body=reply)]), key=KEY
    ) as rp:
        answered, _ = await ask(spec("openai", rp))
    body = rp.requests[0].body
    assert rp.requests[0].authorized
    assert body["messages"] == [
        {"role": "system", "content": "RULES"},
        {"role": "user", "content": "Task: open Docs"},
        {
            "role": "assistant",
            "content": "Opening Docs.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "click", "arguments": '{"role": "link", "name": "Docs"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "click: ok"},
    ]
    assert body["tools"] == [t.openai() for t in action_tools()]
    assert (body["model"], body["tool_choice"], body["parallel_tool_calls"]) == (
        "gpt-4.1-mini", "required", False,
    )  # fmt: skip
    assert body["max_completion_tokens"] == 1024 and "temperature" not in body
    reply_ = answered.reply
    assert reply_.calls == (ToolCall("call_1", "click", '{"role": "link", "name": "Blog"}'),)
    assert reply_.usage == Usage(input=1200, output=30, cached=1000, reasoning=7)
    assert reply_.recording == "t" and answered.retries == 0


async def test_anthropic_request_is_exact_and_usage_is_read() -> None:
    reply = anthropic_reply("click", {"role": "link", "name": "Blog"}, usage=(500, 40, 1500, 300))
    async with ReplayProvider(
        Transcript(label="t", responses=[Recorded(body=reply)]), key=KEY
    ) as rp:
        answered, _ = await ask(spec("anthropic", rp, "+temperature=0"))
    body = rp.requests[0].body
    assert rp.requests[0].path == "/v1/messages" and rp.requests[0].authorized
    assert body["system"] == "RULES"
    assert body["messages"] == [
        {"role": "user", "content": "Task: open Docs"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Opening Docs."},
                {"type": "tool_use", "id": "call_1", "name": "click",
                 "input": {"role": "link", "name": "Docs"}},
            ],
        },
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "call_1", "content": "click: ok"}
        ]},
    ]  # fmt: skip
    assert body["tools"] == [t.anthropic() for t in action_tools()]
    assert body["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}
    assert (body["max_tokens"], body["temperature"]) == (1024, 0)
    assert answered.reply.usage == Usage(input=2300, output=40, cached=1500, cache_write=300)
    assert answered.reply.calls[0].name == "click"


@pytest.mark.parametrize("status", [429, 500])
async def test_429_and_500_are_retried_and_counted(status: int) -> None:
    responses = [
        Recorded(status=status, headers={"retry-after": "0"}),
        Recorded(status=status),
        Recorded(body=openai_reply("done")),
    ]
    async with ReplayProvider(Transcript(label="t", responses=responses), key=KEY) as rp:
        answered, events = await ask(spec("openai", rp, "+retries=2"))
    assert len(rp.requests) == 3
    assert answered.retries == 2
    assert [kind for kind, _ in events] == ["provider_error", "provider_error"]
    assert events[0][1]["error"].startswith(f"HTTP {status}")


async def test_retries_stop_at_the_limit_with_a_provider_fault() -> None:
    responses = [Recorded(status=503) for _ in range(3)]
    async with ReplayProvider(Transcript(label="t", responses=responses), key=KEY) as rp:
        with pytest.raises(ProviderFault, match=r"HTTP 503.*after 2 tries.*not counted"):
            await ask(spec("anthropic", rp, "+retries=1"))
    assert len(rp.requests) == 2


async def test_a_timeout_is_retried_then_a_provider_fault() -> None:
    responses = [Recorded(delay=10, body=openai_reply("done")) for _ in range(2)]
    async with ReplayProvider(Transcript(label="t", responses=responses), key=KEY) as rp:
        t0 = time.monotonic()
        with pytest.raises(ProviderFault, match=r"timed out after 0\.3s"):
            await ask(spec("openai", rp, "+retries=1+timeout=0.3"))
        assert time.monotonic() - t0 < 10  # each try would otherwise wait the 10 s delay
    assert len(rp.requests) == 2


async def test_a_bad_key_is_not_retried_and_never_echoed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCTOR_TEST_KEY", "sk-wrong-key-55")
    async with ReplayProvider(Transcript(label="t", responses=[]), key=KEY) as rp:
        with pytest.raises(ProviderFault) as caught:
            await ask(spec("openai", rp, "+retries=3"))
    assert len(rp.requests) == 1 and not rp.requests[0].authorized
    assert "check PROCTOR_TEST_KEY" in str(caught.value)
    assert "sk-wrong-key-55" not in str(caught.value)
