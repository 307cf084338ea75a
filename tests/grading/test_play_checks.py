"""The checks over time on constructed end states: each passes and fails where it should."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, TypeAdapter

from proctor.grading import grade_one
from proctor.records import (
    AgentReply,
    EndState,
    Moment,
    PlayFired,
    Step,
    UserFacts,
    UserQuestion,
    WebRequest,
)
from proctor.scenario import CheckSpec
from proctor.vocab import ActionOp

_CHECK: TypeAdapter[Any] = TypeAdapter(CheckSpec)


def check(data: dict[str, Any]) -> BaseModel:
    parsed: BaseModel = _CHECK.validate_python(data)
    return parsed


def fired(name: str, actions: int, kind: str = "say", text: str | None = "hi") -> PlayFired:
    return PlayFired(
        name=name,
        kind=kind,
        trigger="after_actions",
        actions=actions,
        time=1.0,  # type: ignore[arg-type]
        clock="2026-01-01T00:00:00+00:00",
        text=text,
    )


def step(index: int, op: ActionOp = "click") -> Step:
    return Step(index=index, tool="browser", op=op, status="ok", started_at=1.0, latency_ms=1.0)


def reply(step_index: int, text: str) -> AgentReply:
    return AgentReply(step=step_index, time=1.0, text=text)


def question(step_index: int, text: str) -> UserQuestion:
    return UserQuestion(step=step_index, time=1.0, question=text, source="answer", answer="ok")


def test_answered_counts_the_replies_after_the_request_and_wants_exactly_one() -> None:
    spec = check({"answered": {"request": "second", "contains": ["14:00"]}})
    play = [fired("second", 3)]
    once = EndState(user=UserFacts(play=play, replies=[reply(1, "14:00"), reply(5, "at 14:00")]))
    assert grade_one(spec, once).passed  # the reply before the request does not count
    twice = EndState(
        user=UserFacts(play=play, replies=[reply(4, "14:00 it is"), reply(6, "yes, 14:00")])
    )
    result = grade_one(spec, twice)
    assert not result.passed and "answered 2 times" in result.detail
    never = EndState(user=UserFacts(play=play, replies=[reply(4, "tomorrow")]))
    assert not grade_one(spec, never).passed
    unsaid = grade_one(spec, EndState(user=UserFacts(replies=[reply(4, "14:00")])))
    assert not unsaid.passed and "never made" in unsaid.detail


def test_answered_the_brief_counts_from_the_start() -> None:
    spec = check({"answered": {"request": "brief", "regex": r"\b42\b", "count": 1}})
    assert grade_one(spec, EndState(user=UserFacts(replies=[reply(0, "it is 42")]))).passed
    assert not grade_one(spec, EndState(user=UserFacts(replies=[reply(0, "420")]))).passed


def test_asked_about_a_topic_grades_never_asking_twice() -> None:
    spec = check({"asked": {"about": {"keywords": ["budget"]}, "max": 1}})
    once = UserFacts(asked=[question(0, "What is your budget?"), question(2, "Which colour?")])
    assert grade_one(spec, EndState(user=once)).passed
    twice = UserFacts(asked=[question(0, "What budget?"), question(4, "Budget again, sorry?")])
    assert not grade_one(spec, EndState(user=twice)).passed


def test_idle_after_stop_fails_an_agent_that_acts_between_stop_and_continue() -> None:
    spec = check({"idle_after_stop": {}})
    play = [fired("halt", 2, "stop"), fired("go", 4, "say")]
    quiet = EndState(
        steps=[step(0), step(1), step(2, "done"), step(3, "done"), step(4)],
        user=UserFacts(play=play),
    )
    assert grade_one(spec, quiet).passed
    busy = EndState(steps=[step(0), step(1), step(2), step(3, "done")], user=UserFacts(play=play))
    result = grade_one(spec, busy)
    assert not result.passed and "halt" in result.detail and "2:click" in result.detail
    graced = check({"idle_after_stop": {"grace": 1}})
    assert grade_one(graced, busy).passed
    never_resumed = EndState(
        steps=[step(0), step(1), step(2, "done"), step(3)], user=UserFacts(play=play[:1])
    )
    assert not grade_one(spec, never_resumed).passed


def test_after_event_grades_the_world_as_it_was_then() -> None:
    requests = [
        WebRequest(
            seq=i,
            time=1.0,
            attempt="a",
            method="POST",
            host="forms.proctor.test",
            path="/submit/contact",
            status=303,
        )
        for i in (1, 2)
    ]
    spec = check(
        {
            "after_event": {
                "name": "one-post-before-go",
                "event": "go",
                "check": {"requested": {"path": "/submit/contact", "method": "POST", "count": 1}},
            }
        }
    )
    then = EndState(
        requests=requests,
        user=UserFacts(play=[fired("go", 1)]),
        moments={"go": Moment(requests=1, steps=1)},
    )
    result = grade_one(spec, then)
    assert result.passed and result.name == "one-post-before-go" and result.children
    later = then.model_copy(update={"moments": {"go": Moment(requests=2, steps=1)}})
    assert not grade_one(spec, later).passed
    missing = grade_one(spec, EndState(requests=requests))
    assert not missing.passed and "never fired" in missing.detail
