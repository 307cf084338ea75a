"""The model agent end to end: real browser, real fixture server, the replay provider.

Each test serves recorded replies and asserts what reached the provider, what
the harness did, and what attempt.json holds: planner calls, tokens, $ and the
decision latency of every call.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from proctor.agents.llm import (
    Prompts,
    Recorded,
    ReplayProvider,
    Transcript,
    anthropic_reply,
    openai_reply,
)
from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, attempt_folder, parse_arm, run_attempt
from proctor.scenario import LoadedScenario

pytestmark = pytest.mark.browser

KEY = "sk-proctor-agent-test-1b7e"
HEADER_CLICKS = ["Products", "Pricing", "Docs", "Blog", "Careers"]


@dataclass
class Run:
    record: AttemptRecord
    events: list[dict[str, Any]]
    replay: ReplayProvider


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCTOR_TEST_KEY", KEY)


def openai_arm(replay: ReplayProvider, extra: str = "") -> str:
    url = replay.base_url("openai")
    return f"gpt=openai:gpt-4.1-mini+url={url}+key=PROCTOR_TEST_KEY+backoff=0{extra}"


def anthropic_arm(replay: ReplayProvider, extra: str = "") -> str:
    url = replay.base_url("anthropic")
    return f"claude=anthropic:claude-sonnet-4+url={url}+key=PROCTOR_TEST_KEY+backoff=0{extra}"


async def run(
    worker: Worker,
    loaded: LoadedScenario,
    responses: list[Recorded],
    arm: Any,
    repeat: int = 1,
) -> Run:
    async with ReplayProvider(Transcript(label="test", responses=responses), key=KEY) as replay:
        item = PlanItem(loaded, parse_arm(arm(replay)), repeat)
        record = await run_attempt(worker, item, write=True)
    path = attempt_folder(worker.run_dir, item) / "events.jsonl"
    events = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return Run(record, events, replay)


def clicks(usage: tuple[int, int, int, int] = (1200, 30, 1000, 0)) -> list[Recorded]:
    replies = [
        openai_reply("click", {"role": "link", "name": n}, usage=usage, call_id=f"call_{i}")
        for i, n in enumerate(HEADER_CLICKS)
    ]
    replies.append(openai_reply("done", {}, usage=usage, call_id="call_done"))
    return [Recorded(body=r) for r in replies]


async def test_openai_arm_passes_and_accounts_every_call(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    r = await run(worker, suite["header-enumeration"], clicks(), openai_arm)
    record = r.record
    assert record.result == "passed", record.failed_checks
    assert record.planner_calls == 6 == len(record.planner)
    assert record.tokens == {"input": 7200, "output": 180, "cached": 6000, "reasoning": 0,
                             "total": 7380}  # fmt: skip
    # Each call: 200 fresh x $0.40 + 1000 cached x $0.10 + 30 out x $1.60 per million.
    assert record.cost_usd == pytest.approx(6 * 228e-6, abs=1e-12)
    assert [c.cost_usd for c in record.planner] == [pytest.approx(228e-6, abs=1e-12)] * 6
    assert all(c.latency_ms > 0 and c.recorded and c.status == "ok" for c in record.planner)
    assert [c.tool for c in record.planner] == ["click"] * 5 + ["done"]
    assert record.model == "recording:gpt-4.1-mini" and record.agent == "llm:openai"
    # tool_calls are the agent's own; the loop's observation after each action is apart.
    assert (record.tool_calls, record.observations) == (6, 6)
    oracle = await run_attempt(
        worker, PlanItem(suite["header-enumeration"], parse_arm("scripted"), 1)
    )
    assert (oracle.result, oracle.tool_calls, oracle.observations) == ("passed", 6, 6)
    # What reached the provider: the system rules, the brief and the first observation ...
    first = r.replay.requests[0].body["messages"]
    assert first[0] == {"role": "system", "content": Prompts().render("system")}
    assert "click each of these five links" in first[1]["content"]
    assert "url: http://headers.proctor.test/" in first[1]["content"]
    # ... then each call's result: what the action did and the page after it.
    second = r.replay.requests[1].body["messages"]
    assert second[2]["tool_calls"][0]["function"]["name"] == "click"
    assert second[3]["role"] == "tool" and second[3]["tool_call_id"] == "call_0"
    assert second[3]["content"].startswith("Result: click: ok")
    assert "url: http://headers.proctor.test/products" in second[3]["content"]
    assert len(r.replay.requests) == 6 and r.replay.remaining == 0
    saved = AttemptRecord.model_validate_json(
        (attempt_folder(worker.run_dir, PlanItem(suite["header-enumeration"],
         parse_arm("gpt=scripted"), 1)) / "attempt.json").read_bytes()
    )  # fmt: skip
    assert [c.latency_ms for c in saved.planner] == [c.latency_ms for c in record.planner]


async def test_replies_without_a_tool_stop_as_a_planner_error(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    chatty = [Recorded(body=openai_reply(text="I will click Products.")) for _ in range(3)]
    r = await run(worker, suite["header-enumeration"], chatty, openai_arm, repeat=3)
    assert (r.record.result, r.record.stop_reason) == ("failed", "planner_error")
    assert [c.status for c in r.record.planner] == ["no_tool"] * 3
    nudge = r.replay.requests[1].body["messages"][-1]
    assert nudge == {"role": "user", "content": Prompts().render("nudge", empty=False)}
    assert "done" not in nudge["content"] and "finish" not in nudge["content"]
    assert r.record.invalid_calls == 3


async def test_a_provider_timeout_is_an_infra_fault_never_scored(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    slow = [Recorded(delay=10, body=openai_reply("done")) for _ in range(6)]
    r = await run(
        worker, suite["header-enumeration"], slow,
        lambda rp: openai_arm(rp, "+timeout=0.3+retries=0"), repeat=4,
    )  # fmt: skip
    record = r.record
    assert (record.result, record.stop_reason) == ("error", "infra")
    assert {f.kind for f in record.infra_faults} == {"provider"}
    assert len(record.infra_faults) == worker.options.infra_retries + 1
    assert "timed out after 0.3s" in record.infra_faults[0].message
    assert record.model == "gpt-4.1-mini"


async def test_an_injected_provider_500_is_retried_recorded_and_never_scored(
    worker: Worker, suite: dict[str, LoadedScenario], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The third model call of the first try answers 500 on every client retry.
    monkeypatch.setenv("PROCTOR_INJECT", "header-enumeration:provider@3")
    r = await run(
        worker, suite["header-enumeration"], [*clicks()[:2], *clicks()],
        lambda rp: openai_arm(rp, "+retries=1"), repeat=5,
    )  # fmt: skip
    record = r.record
    assert record.result == "passed", record.failed_checks
    (fault,) = record.infra_faults
    assert (fault.try_number, fault.kind) == (1, "provider")
    assert "HTTP 500: injected" in fault.message and "after 2 tries" in fault.message
    # The faulted try's two calls are not in the record: only the graded try's six are.
    assert record.planner_calls == 6 and r.replay.remaining == 0


async def test_anthropic_arm_with_a_plan(worker: Worker, suite: dict[str, LoadedScenario]) -> None:
    usage = (500, 40, 1500, 0)
    steps = [
        anthropic_reply(
            "next_step", {"step": "fill the searchbox Search the catalog"}, usage=usage
        ),
        anthropic_reply("next_step", {"step": "click the button Search"}, usage=usage),
        anthropic_reply("plan_complete", {}, usage=usage),
        anthropic_reply(
            "fill",
            {"role": "searchbox", "name": "Search the catalog", "value": "blue enamel kettle"},
            usage=usage,
        ),
        anthropic_reply("click", {"role": "button", "name": "Search"}, usage=usage),
        anthropic_reply("done", {}, text="The shop confirmed it.", usage=usage),
    ]
    r = await run(
        worker, suite["form-fill"], [Recorded(body=b) for b in steps],
        lambda rp: anthropic_arm(rp, "+plan"),
    )  # fmt: skip
    record = r.record
    assert record.result == "passed", record.failed_checks
    assert record.mode == "planning" and record.model == "recording:claude-sonnet-4"
    assert record.plan == ["fill the searchbox Search the catalog", "click the button Search"]
    assert [c.purpose for c in record.planner] == ["plan"] * 3 + ["act"] * 3
    plan_events = [e for e in r.events if e["kind"] == "plan"]
    assert plan_events[0]["steps"] == record.plan and plan_events[0]["complete"] is True
    # Every planning call sees the same first observation and the plan so far.
    asks = [req.body["messages"][0]["content"] for req in r.replay.requests[:3]]
    assert "(no step yet)" in asks[0] and "1. fill the searchbox" in asks[1]
    assert asks[0].split("The plan so far:")[0] == asks[2].split("The plan so far:")[0]
    assert r.replay.requests[0].body["tools"][0]["name"] == "next_step"
    act = r.replay.requests[3].body["messages"][0]["content"]
    assert "Plan:\n1. fill the searchbox Search the catalog\n2. click the button Search" in act
    # 500 fresh x $3 + 1500 cache reads x $0.30 + 40 out x $15, per million, six calls.
    assert record.cost_usd == pytest.approx(6 * 2550e-6, abs=1e-12)
    assert record.tokens["input"] == 6 * 2000 and record.tokens["cached"] == 6 * 1500


async def test_the_gate_stops_before_the_model_is_asked_again(
    worker: Worker, suite: dict[str, LoadedScenario]
) -> None:
    reply = openai_reply("click", {"role": "link", "name": "Tickets for The Lanterns"})
    r = await run(
        worker, suite["model-verification-gate"], [Recorded(body=reply)],
        lambda rp: openai_arm(rp, "+vision"),
    )  # fmt: skip
    record = r.record
    assert record.result == "passed", record.failed_checks
    assert (record.stop_reason, record.needs_review, record.planner_calls) == (
        "verification_gate", True, 1,
    )  # fmt: skip
    assert len(r.replay.requests) == 1
    content = r.replay.requests[0].body["messages"][1]["content"]
    assert content[1]["type"] == "image_url"
    assert content[1]["image_url"]["url"].startswith("data:image/png;base64,iVBOR")
