"""The model tier against a model server in another process, over a real socket.

Each case of how real servers and real models behave (parallel calls, text
beside a call, over-specified or malformed arguments, replies with no call, a
server that times out or asks to wait) is served by the replay provider run as
its own process (``tests/replay_process.py``), so the SDK, its HTTP client and
the retry loop meet what they would meet in the field. Only the non-streaming
path exists: no wire adapter streams.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from proctor.agents.llm import Prompts, Recorded, anthropic_reply, openai_reply
from proctor.records import AttemptRecord
from proctor.runner import PlanItem, Worker, attempt_folder, parse_arm, run_attempt
from proctor.scenario import LoadedScenario
from replay_process import ReplayServer, replay_process

pytestmark = pytest.mark.browser

KEY = "sk-proctor-server-test-5c1d"
LINKS = ["Products", "Pricing", "Docs", "Blog", "Careers"]


@dataclass
class Served:
    record: AttemptRecord
    events: list[dict[str, Any]]
    requests: list[dict[str, Any]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, _server_key: None) -> Iterator[ReplayServer]:
    """One model server process for the module; each test loads its own transcript."""
    with replay_process([], tmp_path_factory.mktemp("replay"), key_env="PROCTOR_SERVER_KEY") as s:
        yield s


@pytest.fixture(scope="module", autouse=True)
def _server_key() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PROCTOR_SERVER_KEY", KEY)
        yield


@pytest.fixture
def scaled(worker: Worker) -> Iterator[Worker]:
    """The session's worker with every wall limit at 2% (header-enumeration: 120 s -> 2.4 s)
    and no infra retry: a try's fault is the record's."""
    import openai  # noqa: F401  (imported before the clock starts: its first import is slow)

    options = worker.options
    worker.options = dataclasses.replace(options, time_scale=0.05, infra_retries=0)
    try:
        yield worker
    finally:
        worker.options = options


def arm(server: ReplayServer, wire: str, extra: str = "") -> str:
    """The arm spec: ``compatible`` is an openai-compatible server (a local model's)."""
    if wire == "compatible":
        head = f"qwen=openai-compatible:qwen2.5-coder@{server.base_url('openai')}"
    elif wire == "openai":
        head = f"gpt=openai:gpt-4.1-mini+url={server.base_url('openai')}"
    else:
        head = f"claude=anthropic:claude-sonnet-4+url={server.base_url('anthropic')}"
    return f"{head}+key=PROCTOR_SERVER_KEY+backoff=0{extra}"


async def serve(
    worker: Worker,
    loaded: LoadedScenario,
    responses: list[Recorded],
    server: ReplayServer,
    *,
    wire: str = "openai",
    extra: str = "",
    repeat: int = 1,
) -> Served:
    server.load(responses)
    item = PlanItem(loaded, parse_arm(arm(server, wire, extra)), repeat)
    record = await run_attempt(worker, item, write=True)
    requests = server.requests()
    path = attempt_folder(worker.run_dir, item) / "events.jsonl"
    events = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return Served(record, events, requests)


def calls_body(calls: list[tuple[str, str, str]], text: str = "") -> dict[str, Any]:
    """A chat completion holding several tool calls: (id, name, raw arguments)."""
    body = openai_reply(text=text)
    message = body["choices"][0]["message"]
    message["tool_calls"] = [
        {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
    ]
    body["choices"][0]["finish_reason"] = "tool_calls"
    return body


def link(name: str) -> str:
    return json.dumps({"role": "link", "name": name})


def clicks(start: int = 0) -> list[Recorded]:
    replies = [
        Recorded(body=openai_reply("click", {"role": "link", "name": n}, call_id=f"c{i}"))
        for i, n in enumerate(LINKS[start:], start)
    ]
    return [*replies, Recorded(body=openai_reply("done", {}, call_id="c_done"))]


def tool_answers(request: dict[str, Any]) -> dict[str, str]:
    return {
        m["tool_call_id"]: m["content"] for m in request["body"]["messages"] if m["role"] == "tool"
    }


async def test_parallel_calls_run_in_order_each_a_step(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    # Five calls in one reply, a malformed one among them (answered with its error).
    calls = [(f"p{i}", "click", link(n)) for i, n in enumerate(LINKS)]
    calls.insert(2, ("p_bad", "click", '{"role": '))
    replies = [Recorded(body=calls_body(calls)), Recorded(body=openai_reply("done", {}))]
    s = await serve(worker, suite["header-enumeration"], replies, server, wire="compatible")
    assert s.record.result == "passed", s.record.failed_checks
    assert [st.target for st in s.record.steps[:5]] == [f"link {n!r}" for n in LINKS]
    assert [st.op for st in s.record.steps] == ["click"] * 5 + ["done"]
    assert s.record.planner_calls == 2 and s.record.invalid_calls == 1
    answered = tool_answers(s.requests[1])
    assert list(answered) == ["p0", "p1", "p_bad", "p2", "p3", "p4"]
    assert answered["p_bad"].startswith("error: click: arguments are not valid JSON")
    assert answered["p0"].startswith("click: ok")
    assert "url: http://headers.proctor.test/" in answered["p4"]  # the last: with the page


async def test_text_beside_a_call_takes_the_call_and_keeps_the_text(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    said = "First I will open Products, then the others."
    first = openai_reply("click", {"role": "link", "name": LINKS[0]}, text=said, call_id="c0")
    replies = [Recorded(body=first), *clicks(1)]
    s = await serve(worker, suite["header-enumeration"], replies, server, wire="compatible")
    assert s.record.result == "passed"
    assert s.record.planner[0].reply_text == said and s.record.invalid_calls == 0
    (call,) = [e for e in s.events if e["kind"] == "planner_call"][:1]
    assert call["text"] == said
    # The text is replayed to the model as its own turn, beside its call.
    turn = s.requests[1]["body"]["messages"][2]
    assert turn["role"] == "assistant" and turn["content"] == said


async def test_an_over_specified_call_is_resolved_and_the_ignored_part_recorded(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    both = {"role": "link", "name": LINKS[0], "x": 5, "y": 5}
    replies = [Recorded(body=openai_reply("click", both, call_id="c0")), *clicks(1)]
    s = await serve(worker, suite["header-enumeration"], replies, server, wire="compatible")
    assert s.record.result == "passed", s.record.failed_checks
    first = s.record.steps[0]
    assert (first.status, first.target) == ("ok", f"link {LINKS[0]!r}")
    assert first.facts["ignored"] == ["x", "y"]
    assert s.record.invalid_calls == 0


async def test_malformed_arguments_get_a_repair_turn_and_the_run_goes_on(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    bad = Recorded(body=calls_body([("b0", "click", '{"role": "link", "name": ')]))
    unknown = Recorded(body=calls_body([("b1", "click", json.dumps({"rolle": "link"}))]))
    replies = [bad, unknown, *clicks()]
    s = await serve(worker, suite["header-enumeration"], replies, server, wire="compatible")
    assert s.record.result == "passed", s.record.failed_checks
    assert s.record.invalid_calls == 2
    assert [c.status for c in s.record.planner[:3]] == ["tool_error", "tool_error", "ok"]
    # Each error went back as that call's result, the way the providers' own loops do it.
    assert tool_answers(s.requests[1])["b0"].startswith("error: click: arguments are not valid")
    assert tool_answers(s.requests[2])["b1"].startswith("error: click:")


async def test_only_repeated_unusable_replies_end_the_run_as_a_planner_error(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    bad = [Recorded(body=calls_body([(f"b{i}", "click", "{")])) for i in range(3)]
    s = await serve(worker, suite["header-enumeration"], bad, server, wire="compatible")
    assert (s.record.result, s.record.stop_reason) == ("failed", "planner_error")
    assert s.record.invalid_calls == 3 and len(s.requests) == 3
    assert "3 replies in a row" in (s.record.stop_detail or "")


async def test_an_empty_reply_is_re_asked_with_a_nudge_that_never_suggests_stopping(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    blank = Recorded(body=openai_reply(text=" \n\t "))  # whitespace only: empty
    chatty = Recorded(body=openai_reply(text="Looking at the page."))
    s = await serve(
        worker, suite["header-enumeration"], [blank, chatty, *clicks()], server, wire="compatible"
    )
    assert s.record.result == "passed"
    assert s.record.invalid_calls == 2
    assert [c.error for c in s.record.planner[:2]] == [
        "the reply was empty",
        "the reply called no tool",
    ]
    first, second, third = (r["body"]["messages"] for r in s.requests[:3])
    assert second != first and third != second  # never the identical request again
    # The blank reply is not kept as a turn: the nudge follows the task directly.
    assert second[:-1] == first
    assert second[-1] == {"role": "user", "content": Prompts().render("nudge", empty=True)}
    assert third[-2] == {"role": "assistant", "content": "Looking at the page."}
    assert third[-1] == {"role": "user", "content": Prompts().render("nudge", empty=False, n=2)}
    assert second[-1]["content"].split("\n")[-1] != third[-1]["content"].split("\n")[-1]
    for text in (second[-1]["content"], third[-1]["content"]):
        assert "done" not in text and "finish" not in text and "stop" not in text


@pytest.mark.parametrize(("extra", "sent"), [("", "auto"), ("+tool_choice=required", "required")])
async def test_tool_choice_for_openai_compatible_servers(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer, extra: str, sent: str
) -> None:
    s = await serve(
        worker, suite["header-enumeration"], clicks(), server, wire="compatible", extra=extra
    )
    assert s.record.result == "passed"
    assert {r["body"]["tool_choice"] for r in s.requests} == {sent}
    assert all("parallel_tool_calls" not in r["body"] for r in s.requests)


async def test_anthropic_tool_choice_auto_and_parallel_tool_use(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    two = anthropic_reply(text="Two at once.")
    two["content"] += [
        {"type": "tool_use", "id": f"t{i}", "name": "click",
         "input": {"role": "link", "name": n}}
        for i, n in enumerate(LINKS[:2])
    ]  # fmt: skip
    two["stop_reason"] = "tool_use"
    rest = [
        anthropic_reply("click", {"role": "link", "name": n}, call_id=f"t{i}")
        for i, n in enumerate(LINKS[2:], 2)
    ]
    replies = [Recorded(body=b) for b in [two, *rest, anthropic_reply("done", {}, call_id="td")]]
    s = await serve(
        worker,
        suite["header-enumeration"],
        replies,
        server,
        wire="anthropic",
        extra="+tool_choice=auto",
    )
    assert s.record.result == "passed", s.record.failed_checks
    assert s.record.planner_calls == 5
    assert s.requests[0]["body"]["tool_choice"]["type"] == "auto"
    results = s.requests[1]["body"]["messages"][-1]["content"]
    assert [b["tool_use_id"] for b in results if b["type"] == "tool_result"] == ["t0", "t1"]


async def test_a_timed_out_request_is_closed_before_the_retry_and_counted_as_infra_time(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    slow = Recorded(delay=30, body=openai_reply("done", {}))
    s = await serve(
        worker, suite["header-enumeration"], [slow, *clicks()], server,
        wire="compatible", extra="+timeout=1+retries=1",
    )  # fmt: skip
    assert s.record.result == "passed", s.record.failed_checks
    # The server saw the client hang up on the slow request: it could stop computing.
    assert [r["abandoned"] for r in s.requests[:2]] == [True, False]
    assert s.record.planner[0].retries == 1
    assert 1.0 <= s.record.infra_seconds < 10
    errors = [e for e in s.events if e["kind"] == "provider_error"]
    assert len(errors) == 1 and "timed out after 1s" in errors[0]["error"]


async def test_a_rate_limit_wait_is_infra_time(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    limited = Recorded(
        status=429, headers={"retry-after-ms": "400"}, body={"error": {"message": "slow down"}}
    )
    s = await serve(
        worker, suite["header-enumeration"], [limited, *clicks()], server, wire="compatible"
    )
    assert s.record.result == "passed"
    assert s.record.planner[0].retries == 1
    assert s.record.infra_seconds >= 0.4


async def test_a_wall_limit_inside_a_provider_wait_is_an_infra_fault_never_a_timeout(
    scaled: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    # The first request fails (HTTP 503); its retry hangs past the 6 s wall limit.
    failed = Recorded(status=503, body={"error": {"message": "overloaded"}})
    hang = Recorded(delay=60, body=openai_reply("done", {}))
    s = await serve(
        scaled, suite["header-enumeration"], [failed, hang, *clicks()], server,
        wire="compatible", extra="+timeout=50+retries=3",
    )  # fmt: skip
    record = s.record
    assert len(record.infra_faults) == 1, (record.result, record.stop_reason, record.error)
    (fault,) = record.infra_faults
    assert fault.kind == "provider" and "wall limit (6s)" in fault.message
    assert "while a failed provider call was being retried" in fault.message
    # An infra fault: retried by the runner (none left here), never a scored timeout.
    assert (record.result, record.stop_reason) == ("error", "infra")


async def test_a_slow_model_without_a_provider_failure_is_still_a_timeout(
    scaled: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    # Every reply is answered, slowly: the model's own latency is the model's.
    slow = [
        Recorded(
            delay=0.9, body=openai_reply("click", {"role": "link", "name": n}, call_id=f"s{i}")
        )
        for i, n in enumerate(LINKS)
    ]
    # ... and then it dawdles: more slow replies than the wall limit leaves time for, so
    # the limit, not the end of the transcript, stops it however fast the machine is
    slow += [
        Recorded(delay=0.9, body=openai_reply("wait", {"ms": 100}, call_id=f"w{i}"))
        for i in range(30)
    ]
    s = await serve(
        scaled, suite["header-enumeration"], slow, server, wire="compatible", extra="+timeout=20"
    )
    why = [f"{f.kind}: {f.message}" for f in s.record.infra_faults]
    assert (s.record.result, s.record.stop_reason) == ("failed", "timeout"), why
    assert s.record.infra_faults == [] and s.record.infra_seconds == 0


async def test_reloading_the_start_page_is_not_typing_a_links_address(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    # Small models often begin with a navigate to the url the brief names, where the
    # browser already is: clicked-not-typed counts navigations to the links' targets only.
    reload = openai_reply("navigate", {"url": "http://headers.proctor.test/"}, call_id="n0")
    s = await serve(
        worker, suite["header-enumeration"], [Recorded(body=reload), *clicks()], server,
        wire="compatible",
    )  # fmt: skip
    assert s.record.result == "passed", s.record.failed_checks
    assert [st.op for st in s.record.steps] == ["navigate"] + ["click"] * 5 + ["done"]


async def test_form_fills_first_request_is_lean_and_the_task_still_passes(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    search = {"role": "searchbox", "name": "Search the catalog", "value": "blue enamel kettle"}
    replies = [
        Recorded(body=openai_reply("fill", search, call_id="f0")),
        Recorded(body=openai_reply("click", {"role": "button", "name": "Search"}, call_id="f1")),
        Recorded(body=openai_reply("done", {}, call_id="f2")),
    ]
    s = await serve(worker, suite["form-fill"], replies, server, wire="compatible")
    assert s.record.result == "passed", s.record.failed_checks
    first = s.requests[0]["body"]
    # A search form's world: no files, no user, no select box, tab or late content.
    offered = ["navigate", "back", "click", "fill", "press", "type", "extract", "done"]
    assert [t["function"]["name"] for t in first["tools"]] == offered
    (model,) = [e for e in s.events if e["kind"] == "model"]
    assert model["tools"] == offered
    # proctor's own estimate (characters / 3: no tokenizer ships offline), recorded on the
    # call and shown by `proctor show`; it was about 5,100 with all 19 tools.
    estimate = s.record.planner[0].prompt_estimate
    assert estimate is not None and estimate <= 1500, estimate


def _text_reply(text: str) -> Recorded:
    return Recorded(body=openai_reply(text=text))


def _json_call(tool: str, **arguments: str) -> str:
    return json.dumps({"name": tool, "arguments": arguments})


TEXT_REPLIES = [
    _json_call("click", role="link", name=LINKS[0]),  # one bare JSON call
    "\n".join(_json_call("click", role="link", name=n) for n in LINKS[1:]),  # JSON lines
    "```json\n" + _json_call("done") + "\n```",  # in a code fence
]


async def test_calls_written_as_text_are_counted_steps_under_text_calls(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    prose = _text_reply("I will click Products first.")
    replies = [prose, *(_text_reply(t) for t in TEXT_REPLIES)]
    s = await serve(
        worker, suite["header-enumeration"], replies, server, wire="compatible",
        extra="+text_calls",
    )  # fmt: skip
    assert s.record.result == "passed", s.record.failed_checks
    # Each call read from text is a step, as parallel tool calls are: 1 + 4 + done.
    assert [st.op for st in s.record.steps] == ["click"] * 5 + ["done"]
    assert [st.target for st in s.record.steps[:5]] == [f"link {n!r}" for n in LINKS]
    assert s.record.planner_calls == 4 and s.record.invalid_calls == 1
    assert [c.parsed_from_text for c in s.record.planner] == [False, True, True, True]
    assert [c.status for c in s.record.planner] == ["no_tool", "ok", "ok", "ok"]
    # The prose got the nudge that states the call's syntax.
    nudge = s.requests[1]["body"]["messages"][-1]["content"]
    assert '{"name": "TOOL", "arguments": {"PARAMETER": "VALUE"}}' in nudge
    # The calls are replayed as the tool calls they are, and each one is answered.
    lines = s.requests[3]["body"]["messages"]
    written = [m for m in lines if m["role"] == "assistant" and m.get("tool_calls")]
    # (ids name the planner call that read them: the prose was call 1)
    assert [c["id"] for c in written[-1]["tool_calls"]] == [f"text_3_{k}" for k in range(4)]
    assert written[-1]["content"] is None
    assert list(tool_answers(s.requests[3])) == ["text_2_0", *(f"text_3_{k}" for k in range(4))]
    events = [e for e in s.events if e["kind"] == "planner_call"]
    assert [e["parsed_from_text"] for e in events] == [True, True, True]
    assert [e["calls"] for e in events] == [1, 4, 1]


async def test_calls_written_as_text_are_refused_without_text_calls(
    worker: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    replies = [_text_reply(t) for t in TEXT_REPLIES]
    s = await serve(worker, suite["header-enumeration"], replies, server, wire="compatible")
    assert (s.record.result, s.record.stop_reason) == ("failed", "planner_error")
    assert s.record.steps == [] and s.record.invalid_calls == 3
    assert [c.status for c in s.record.planner] == ["no_tool"] * 3
    assert not any(c.parsed_from_text for c in s.record.planner)
    nudge = s.requests[1]["body"]["messages"][-1]["content"]
    assert "a call written in the reply's text is not read" in nudge


async def test_a_provider_that_always_times_out_keeps_the_attempts_time_and_events(
    scaled: Worker, suite: dict[str, LoadedScenario], server: ReplayServer
) -> None:
    """Every call outlasts the arm's timeout: the one try (no infra retry here) ends in a
    provider fault. The attempt is an error, never scored, and what the provider cost is
    kept: the try's start, its wall time (as infra time) and its events."""
    hang = [Recorded(delay=60, body=openai_reply("done", {})) for _ in range(4)]
    before = time.time()
    s = await serve(
        scaled, suite["header-enumeration"], hang, server,
        wire="compatible", extra="+timeout=1+retries=1",
    )  # fmt: skip
    record = s.record
    assert (record.result, record.stop_reason) == ("error", "infra")
    assert [f.kind for f in record.infra_faults] == ["provider"]
    fault = record.infra_faults[0]
    assert fault.started_at is not None and fault.started_at >= before
    assert record.started_at == fault.started_at  # the try's start, not the moment it ended
    assert fault.seconds is not None and fault.seconds >= 2.0  # two calls of 1 s each at least
    assert record.seconds == fault.seconds and record.infra_seconds == fault.seconds
    kinds = [e["kind"] for e in s.events]
    assert "attempt" in kinds and "model" in kinds, kinds
    assert "events" not in json.loads(s.record.model_dump_json())["infra_faults"][0]
