"""The timeline at run time, on a real attempt world without a browser: order, triggers,
the run clock, wake-ups, knobs, deliveries, and the schema's refusals."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from proctor.computer import AgentReset
from proctor.computer.actions import Schedule
from proctor.errors import WorldError
from proctor.records import Step, UserFacts, WebRequest
from proctor.scenario import PlayEvent, Scenario
from proctor.world import AttemptWorld, TimelineHooks, all_sites
from proctor.world._timeline import Timeline

START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)


def world(tmp_path: Path, seeds: dict[str, Any] | None = None) -> AttemptWorld:
    w = AttemptWorld(attempt="t/a-1#1", seed=0, clock=START, scratch=tmp_path, seeds=seeds or {})
    for name, site in all_sites().items():
        w.sites[name] = site.new_state(w)
    return w


def timeline(
    w: AttemptWorld, events: list[dict[str, Any]], requests: list[WebRequest] | None = None
) -> tuple[Timeline, list[tuple[str, dict[str, Any]]]]:
    traced: list[tuple[str, dict[str, Any]]] = []
    hooks = TimelineHooks(
        world=w,
        sites=all_sites(),
        requests=lambda: requests or [],
        apps=lambda: {},
        call=lambda fn: fn(),
        trace=lambda kind, **data: traced.append((kind, data)),
    )
    play = [PlayEvent.model_validate(e) for e in events]
    return Timeline(play, hooks, "Europe/Berlin", UserFacts), traced


def post(seq: int, host: str, path: str) -> WebRequest:
    """A logged POST of the attempt."""
    return WebRequest(
        seq=seq, time=1.0, attempt="t", method="POST", host=host, path=path, status=303
    )


def test_events_fire_in_order_each_only_after_the_one_before(tmp_path: Path) -> None:
    t, _ = timeline(
        world(tmp_path),
        [
            {"name": "a", "after_actions": 3, "say": "third"},
            {"name": "b", "after_actions": 1, "say": "first?"},
        ],
    )
    t.after_step(1)
    assert t.fired == []  # b is due, but a comes first
    t.after_step(3)
    assert [f.name for f in t.fired] == ["a", "b"]
    assert [text for _, text in t.take_messages()] == ["third", "first?"]


def test_a_request_condition_fires_once_the_log_has_a_match(tmp_path: Path) -> None:
    log: list[WebRequest] = []
    t, _ = timeline(
        world(tmp_path),
        [
            {
                "name": "posted",
                "when": {"request": {"path": "/submit/*", "method": "POST"}},
                "say": "got it",
            }
        ],
        log,
    )
    t.after_step(1)
    assert not t.fired
    log.append(post(1, "forms.proctor.test", "/submit/contact"))
    t.after_step(2)
    assert [f.name for f in t.fired] == ["posted"]


def test_a_request_condition_can_wait_for_the_nth_match(tmp_path: Path) -> None:
    log: list[WebRequest] = []
    t, _ = timeline(
        world(tmp_path),
        [{"name": "second", "when": {"request": {"path": "/compose", "count": 2}}, "say": "x"}],
        log,
    )

    log.append(post(1, "mail.proctor.test", "/compose"))
    t.after_step(1)
    assert not t.fired
    log.append(post(2, "mail.proctor.test", "/compose"))
    t.after_step(2)
    assert [f.name for f in t.fired] == ["second"]


def test_idle_fires_until_the_agent_has_a_message_and_no_further(tmp_path: Path) -> None:
    w = world(tmp_path)
    t, _ = timeline(
        w,
        [
            {
                "name": "cheaper",
                "on_idle": True,
                "set": {"site": "shop", "key": "price.CH-65W", "value": 30},
            },
            {"name": "go", "on_idle": True, "say": "go on"},
            {"name": "later", "on_idle": True, "say": "not yet"},
        ],
    )
    assert t.idle(2) is True
    assert [f.name for f in t.fired] == ["cheaper", "go"]
    assert "44.99 -> 30.00" in t.fired[0].detail
    t.take_messages()
    assert t.idle(4) is True and t.fired[-1].name == "later"
    t.take_messages()
    assert t.idle(5) is False  # nothing left: the attempt is over


def test_advance_moves_the_clock_and_wakes_schedules_in_time_order(tmp_path: Path) -> None:
    w = world(tmp_path, {"mail": {"tz": "Europe/Berlin"}})
    t, traced = timeline(
        w,
        [
            {"name": "two-days", "on_idle": True, "advance": {"days": 2}},
            {"name": "noon", "at": {"days": 1}, "say": "a day has passed"},
        ],
    )
    t.schedule(Schedule(at="+1d", note="second"), step=0)
    t.schedule(Schedule(at="2026-03-03T09:30", note="first"), step=1)  # Berlin: 08:30 UTC
    t.schedule(Schedule(at="+3d", note="too late"), step=2)
    assert t.idle(3) is True
    assert w.clock == START + dt.timedelta(days=2)
    texts = [text for _, text in t.take_messages()]
    assert [x.split("reminder: ")[-1] for x in texts[:2]] == ["first", "second"]
    assert texts[2] == "a day has passed"  # the at-event fired inside the advance
    assert [s.woke for s in t.scheduled()] == [3, 3, None]
    mailbox = w.sites["mail"]
    assert mailbox.now == START + dt.timedelta(days=2)  # the apps' "now" moved too
    assert [k for k, _ in traced].count("wake") == 2


def test_a_schedule_in_the_past_is_the_agents_error(tmp_path: Path) -> None:
    t, _ = timeline(world(tmp_path), [{"name": "x", "on_idle": True, "say": "hi"}])
    with pytest.raises(ValueError, match="not in the future"):
        t.schedule(Schedule(at="2026-03-01T09:00", note="yesterday"), step=0)


def test_a_reset_raises_once_its_moment_is_kept(tmp_path: Path) -> None:
    t, _ = timeline(
        world(tmp_path),
        [{"name": "r", "after_actions": 2, "reset_agent": {"keep_conversation": True}}],
    )
    with pytest.raises(AgentReset) as raised:
        t.after_step(2)
    assert raised.value.keep_conversation and raised.value.event == "r"
    assert t.resets == [2] and "r" in t.moments


def test_deliveries_land_in_the_apps(tmp_path: Path) -> None:
    seeds = {
        "chat": {"people": [{"handle": "ana", "name": "Ana"}], "channels": [{"name": "general"}]},
        "calendar": {"owner": "me@example.test"},
    }
    w = world(tmp_path, seeds)
    t, _ = timeline(
        w,
        [
            {
                "name": "m",
                "after_actions": 1,
                "deliver": {"mail": {"from": "A <a@example.test>", "subject": "Hello"}},
            },
            {
                "name": "c",
                "after_actions": 1,
                "deliver": {"chat": {"channel": "general", "by": "ana", "text": "ping"}},
            },
            {
                "name": "i",
                "after_actions": 1,
                "deliver": {
                    "invite": {
                        "title": "Sync",
                        "start": {"days": 1, "at": "10:00"},
                        "organizer": "dana@example.test",
                    }
                },
            },
        ],
    )
    t.after_step(1)
    assert [m.subject for m in w.sites["mail"].messages] == ["Hello"]
    assert [(p.by, p.text) for p in w.sites["chat"].posts if p.text == "ping"] == [("ana", "ping")]
    invite = w.sites["calendar"].events[-1]
    assert invite.organizer == "dana@example.test"
    assert invite.answer_of("me@example.test") == "needs_action"


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"set": {"site": "shop", "key": "discount.x", "value": 1}}, "no knob 'discount'"),
        ({"set": {"site": "shop", "key": "price.NOPE", "value": 1}}, "no product 'NOPE'"),
        ({"set": {"site": "shop", "key": "price.CH-65W", "value": -2}}, "more than zero"),
        ({"deliver": {"chat": {"channel": "random", "by": "ana", "text": "x"}}}, "no chat channel"),
    ],
)
def test_what_the_world_cannot_do_is_an_infra_fault_naming_the_event(
    tmp_path: Path, event: dict[str, Any], message: str
) -> None:
    t, _ = timeline(world(tmp_path), [{"name": "bad", "after_actions": 1, **event}])
    with pytest.raises(WorldError, match=f"timeline event 'bad'.*{message}"):
        t.after_step(1)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"name": "x", "say": "hi"}, "exactly one trigger"),
        ({"name": "x", "after_actions": 1, "on_idle": True, "say": "hi"}, "exactly one trigger"),
        ({"name": "x", "on_idle": True}, "exactly one of say, stop"),
        ({"name": "x", "on_idle": True, "say": "a", "stop": "b"}, "exactly one of say, stop"),
        ({"name": "x", "on_idle": True, "advance": {}}, "more than zero"),
        ({"name": "x", "on_idle": True, "deliver": {}}, "exactly one of mail, chat or invite"),
    ],
)
def test_a_malformed_event_is_refused_by_name(event: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        PlayEvent.model_validate(event)


BASE: dict[str, Any] = {
    "id": "t",
    "title": "T",
    "brief": "B",
    "tier": "local",
    "category": "regression",
    "solution": [{"op": "done"}],
    "decoys": [{"name": "d", "steps": [{"op": "done"}], "fails": ["answered"]}],
}


def test_a_scenario_names_only_events_it_has_and_stops_bring_their_check() -> None:
    with pytest.raises(ValidationError, match="'gone', which play: does not have"):
        Scenario.model_validate(
            {**BASE, "checks": [{"answered": {"request": "gone", "contains": ["x"]}}]}
        )
    with pytest.raises(ValidationError, match="also used by play"):
        Scenario.model_validate(
            {
                **BASE,
                "play": [{"name": "a", "on_idle": True, "say": "x"}] * 2,
                "checks": [{"answered": {"request": "a", "contains": ["x"]}}],
            }
        )
    stopped = Scenario.model_validate(
        {
            **BASE,
            "play": [{"name": "s", "after_actions": 1, "stop": "stop"}],
            "checks": [{"answered": {"request": "brief", "contains": ["x"]}}],
        }
    )
    assert [c.kind for c in stopped.checks] == ["answered", "idle_after_stop"]


def test_steps_tell_the_timeline_and_done_records_the_reply(tmp_path: Path) -> None:
    from proctor.scenario import User
    from proctor.world import SimulatedUser

    w = world(tmp_path)
    user = SimulatedUser(User())
    t, _ = timeline(w, [{"name": "more", "on_idle": True, "say": "one more thing"}])
    user.timeline = t
    done = Step(
        index=0,
        tool="browser",
        op="done",
        input={"answer": "all set"},
        status="ok",
        started_at=1.0,
        latency_ms=1.0,
    )
    assert user.idle(done) is True
    assert user.messages_due(1) == ["one more thing"]
    facts = user.facts()
    assert [r.text for r in facts.replies] == ["all set"]
    assert [m.text for m in facts.messages] == ["one more thing"]
    assert "you: all set" in user.conversation()
