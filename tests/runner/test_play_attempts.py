"""The timeline (``play:``) through real attempts: the fixture server, Chromium, the
reference loop and a ``command:`` agent over MCP.

One command agent plays every event kind but the reset (say, stop then say, deliver
into mail, chat and calendar, set, advance waking a schedule) and every check over
time; another is reset mid-task, and its process group must be gone while the new
agent finds the persistent folder. The reference loop gets the user's messages in its
observations and carries on after a done the timeline answers.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from proctor.agents.loop import Decision, ReferenceLoop
from proctor.computer.actions import Action, Done, Navigate, Schedule
from proctor.computer.observation import Observation
from proctor.records import AttemptRecord
from proctor.runner import Arm, PlanItem, Worker, attempt_folder, parse_arm, run_attempt
from proctor.scenario import LoadedScenario, load_scenario
from proctor.world import all_sites

pytestmark = pytest.mark.browser

AGENT = Path(__file__).parents[1] / "agents" / "agents_fixtures" / "timeline_agent.py"

KINDS = """
id: timeline-kinds
title: Every timeline event kind but the reset
tier: local
category: regression
limits: {seconds: 120, tool_calls: 60, steps: 40}
brief: Follow what the user says.
world:
  sites: [shop, mail, chat, calendar]
  browser: {start: "{site.shop}/"}
  apps:
    mail: {address: me@example.test, name: Me}
    chat:
      people: [{handle: ana, name: Ana Lima}]
      channels: [{name: general, topic: Team}]
    calendar: {owner: me@example.test, name: Me}
user:
  answers:
    color: {text: Blue., intent: {keywords: [colour]}}
play:
  - {name: hello, after_actions: 1, say: "first message"}
  - name: mail-in
    when: {request: {site: shop, path: /p/CH-30W}}
    deliver: {mail: {from: "Ana Lima <ana@example.test>", subject: New quote, body: "Hi"}}
  - {name: post-in, after_actions: 4, deliver: {chat: {channel: general, by: ana, text: ping}}}
  - name: invite-in
    after_actions: 4
    deliver:
      invite:
        id: sync
        title: Design sync
        start: {days: 1, at: "10:00"}
        organizer: dana@example.test
  - {name: halt, after_actions: 5, stop: "Stop for now."}
  - {name: go-on, on_idle: true, say: "continue, and tell me the price"}
  - {name: cheaper, on_idle: true, set: {site: shop, key: price.CH-65W, value: 30}}
  - {name: next-day, on_idle: true, advance: {days: 1}}
checks:
  - answered: {name: price-told, request: go-on, contains: ["30.00"]}
  - asked: {name: asked-colour-once, about: {keywords: [colour]}, max: 1}
  - after_event:
      name: quote-arrived
      event: mail-in
      check: {requested: {path: /p/CH-30W, count: 1}}
  - after_event:
      name: nothing-sent-when-stopped
      event: halt
      check: {nothing_sent: {app: mail}}
solution:
  - {op: done}
decoys:
  - name: quits
    steps: [{op: wait, ms: 1}]
    fails: [price-told]
"""

KINDS_PLAN: list[list[Any]] = [
    [
        "batch",
        {
            "actions": [
                {"op": "navigate", "url": "http://shop.proctor.test/p/CH-30W"},
                {"op": "navigate", "url": "http://shop.proctor.test/p/CH-65W"},
            ]
        },
    ],
    ["user_messages", {}],
    ["ask_user", {"question": "Which colour do you want?"}],
    ["navigate", {"url": "http://mail.proctor.test/"}],
    ["navigate", {"url": "http://chat.proctor.test/"}],
    ["schedule", {"at": "+1d", "note": "look at the 65W charger's price"}],
    ["done", {"answer": "Stopped."}],
    ["navigate", {"url": "http://shop.proctor.test/p/CH-65W"}],
    ["done", {"answer": "I'll look tomorrow."}],
    ["navigate", {"url": "http://shop.proctor.test/p/CH-65W"}],
    ["done", {"answer": "It costs 30.00 now."}],
]

RESET = """
id: timeline-reset
title: The agent is reset mid-task
tier: local
category: regression
limits: {seconds: 120, tool_calls: 30, steps: 20}
brief: Remember what the user says.
world:
  sites: [forms]
  browser: {start: "{site.forms}/contact"}
play:
  - {name: hint, after_actions: 1, say: "the number is 42"}
  - {name: restart, after_actions: 2, reset_agent: {keep_conversation: true}}
checks:
  - answered: {name: remembered, request: hint, contains: ["42"]}
solution:
  - {op: done, answer: "42"}
decoys:
  - name: forgets
    steps: [{op: done, answer: "no idea"}]
    fails: [remembered]
"""

RESET_PLAN: list[list[list[Any]]] = [
    [
        ["navigate", {"url": "http://forms.proctor.test/contact"}],
        ["remember", {"text": "42"}],
        ["navigate", {"url": "http://forms.proctor.test/contact"}],
        ["linger", {}],
    ],
    [["done", {"answer": "The number is 42."}]],
]


def scenario(tmp_path: Path, text: str, name: str) -> LoadedScenario:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return load_scenario(path, sites=set(all_sites()))


def command_arm(instances: Sequence[list[Any]]) -> Arm:
    plan = json.dumps({"instances": list(instances)})
    line = shlex.join([sys.executable, str(AGENT), plan])
    return parse_arm(f"timeline=command:{line}")


def trace(worker: Worker, loaded: LoadedScenario, arm: Arm) -> list[dict[str, Any]]:
    folder = attempt_folder(worker.run_dir, PlanItem(loaded, arm, 1))
    return [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]


def stdout(events: list[dict[str, Any]]) -> list[str]:
    return [e["line"] for e in events if e["kind"] == "stdout"]


async def test_a_command_agent_lives_through_every_event_kind(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = scenario(tmp_path, KINDS, "timeline-kinds")
    arm = command_arm([KINDS_PLAN])
    record = await run_attempt(worker, PlanItem(loaded, arm, 1), write=True)
    events = trace(worker, loaded, arm)
    said = stdout(events)
    assert record.result == "passed", (record.failed_checks, record.error, said[-20:])
    assert record.stop_reason == "done"
    user = record.end_state.user
    assert [p.name for p in user.play] == [
        "hello",
        "mail-in",
        "post-in",
        "invite-in",
        "halt",
        "go-on",
        "cheaper",
        "next-day",
    ]
    # say: the first message rides on the result of the call after which it fired, and
    # stops a batch planned without hearing it
    batch = next(line for line in said if line.startswith("batch:"))
    assert "message from the user: first message" in batch
    assert "stopped: 1 of 2 actions ran (a message from the user arrived)" in batch
    assert "user_messages: no new messages" in said
    # the seal: nothing of an event is seen before it fires (notifications come just before
    # the result of the call they ride on)
    results = [line for line in said if not line.startswith("NOTE ")]
    first = next(line for line in results if "Stop for now" in line)
    assert first.startswith("schedule:")
    first = next(line for line in results if "tell me the price" in line)
    assert first.startswith("done:")
    # stop: delivered, and the agent's next call was done; done woke it with "continue"
    halt = next(p for p in user.play if p.name == "halt")
    assert [s.op for s in record.steps[halt.actions :]][:1] == ["done"]
    assert any("continue, and tell me the price" in line for line in said if "done:" in line)
    # deliver: mail, a chat post and an invite are in the apps' state
    apps = record.end_state.apps
    assert any(m["subject"] == "New quote" for m in apps["mail"]["messages"])
    assert any(p["text"] == "ping" and p["by"] == "ana" for p in apps["chat"]["posts"])
    sync = next(e for e in apps["calendar"]["events"] if e["id"] == "sync")
    assert sync["organizer"] == "dana@example.test"
    # set and advance: the price changed, a day passed, and the schedule woke the agent
    assert "30.00" in record.end_state.page_text
    wake = user.scheduled[0]
    next_day = next(p for p in user.play if p.name == "next-day")
    assert wake.woke == next_day.actions and wake.idle is not None and wake.idle > wake.woke
    assert next_day.clock > user.play[0].clock
    assert any("Your reminder: look at the 65W charger's price" in line for line in said)
    # checks over time, each read from state
    by_name = {c.name: c for c in record.checks}
    assert by_name["idle-after-stop"].passed
    assert set(record.end_state.moments) == {p.name for p in user.play}
    # the lane's log notification carried the user's words too (the client asked for them)
    notes = [line for line in said if line.startswith("NOTE ")]
    assert "NOTE first message" in notes and "NOTE continue, and tell me the price" in notes


async def test_a_reset_ends_the_process_group_and_the_new_agent_finds_its_folder(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = scenario(tmp_path, RESET, "timeline-reset")
    arm = command_arm(RESET_PLAN)
    record = await run_attempt(worker, PlanItem(loaded, arm, 1), write=True)
    events = trace(worker, loaded, arm)
    said = stdout(events)
    assert record.result == "passed", (record.failed_checks, record.error, said[-20:])
    assert record.end_state.user.resets == [2]
    first = json.loads(next(x for x in said if x.startswith("AGENT 0 ")).removeprefix("AGENT 0 "))
    assert group_gone(first), "the reset agent's process group outlived it"
    # the first agent's tree was ended (nothing left, nothing escaped) before the second began
    kinds = [e["kind"] for e in events]
    order = [k for k in kinds if k in ("command", "command_end", "agent_reset")]
    assert order == ["command", "command_end", "agent_reset", "command", "command_end"]
    ended = next(e for e in events if e["kind"] == "command_end")
    assert ended["left"] == [] and ended["escaped"] == []
    assert not any("linger" in line for line in said)
    # the new agent found the old one's notes, and was told the conversation so far
    assert "REMEMBERED 42" in said
    assert any(line.startswith("HOME ") and "memory.txt" in line for line in said[1:])
    brief = [line for line in said if line.startswith("BRIEF ")]
    assert len(brief) == 2 and "the number is 42" in brief[1] and "restarted" in brief[1]


def group_gone(agent: dict[str, Any]) -> bool:
    """No process of the agent's group is left (a jailed agent: none of its namespace)."""
    if agent["ns"] != os.readlink("/proc/self/ns/pid"):
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if os.readlink(entry / "ns" / "pid") == agent["ns"]:
                        return False
        return True
    try:
        os.killpg(agent["pgid"], 0)
    except ProcessLookupError:
        return True
    return False


@dataclass
class Listening:
    """A policy that acts a script and keeps the notes of every observation it was shown."""

    actions: list[Action]
    seen: list[tuple[str, ...]] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)
    """The snapshot of every observation it decided on (index: actions taken)."""

    async def decide(self, observation: Observation, history: Sequence[Any]) -> Decision:
        self.seen.append(observation.notes)
        self.pages.append(observation.snapshot)
        if not self.actions:
            return Decision(None, "out of actions")
        return Decision(self.actions.pop(0))


LOOP = """
id: timeline-loop
title: The reference loop hears the user through every event kind
tier: local
category: regression
limits: {seconds: 90, tool_calls: 40, steps: 30}
brief: Wait for the user.
world:
  sites: [forms, shop, mail]
  browser: {start: "{site.forms}/contact"}
  apps:
    mail: {address: me@example.test}
play:
  - {name: ping, after_actions: 1, say: "are you there?"}
  - name: note-in
    after_actions: 1
    deliver: {mail: {from: "Ana <ana@example.test>", subject: A note}}
  - {name: halt, after_actions: 2, stop: "hold on"}
  - {name: go, on_idle: true, say: "go on"}
  - {name: cheaper, on_idle: true, set: {site: shop, key: price.MS-2, value: 9.5}}
  - {name: later, on_idle: true, advance: {hours: 2}}
  - {name: restart, after_actions: 6, reset_agent: {keep_conversation: false}}
checks:
  - answered: {name: replied, request: ping, contains: ["yes"]}
  - after_event:
      name: note-seen-later
      event: go
      check: {requested: {path: /p/MS-2, count: 0}}
solution:
  - {op: done, answer: "yes"}
decoys:
  - name: silent
    steps: [{op: done}]
    fails: [replied]
"""


async def test_the_reference_loop_hears_the_user_through_every_event_kind(
    worker: Worker, tmp_path: Path
) -> None:
    loaded = scenario(tmp_path, LOOP, "timeline-loop")
    policy = Listening(
        [
            Navigate(url="http://mail.proctor.test/"),
            Schedule(at="+1h", note="check again"),
            Done(answer="yes, stopping"),
            Navigate(url="http://shop.proctor.test/p/MS-2"),
            Done(answer="checked"),
            Navigate(url="http://shop.proctor.test/p/MS-2"),
            Navigate(url="http://mail.proctor.test/"),
            Done(answer="done"),
        ]
    )
    made: list[ReferenceLoop] = []

    def factory(_: object) -> ReferenceLoop:
        made.append(ReferenceLoop(policy, label="listening"))
        return made[-1]

    arm = Arm("listening", "listening", factory)
    record: AttemptRecord = await run_attempt(worker, PlanItem(loaded, arm, 1), write=False)
    assert record.result == "passed", (record.failed_checks, record.error, record.stop_detail)
    assert record.stop_reason == "done"
    notes = [n for seen in policy.seen for n in seen]
    assert notes[:3] == [
        "message from the user: are you there?",
        "message from the user: hold on",
        "message from the user: go on",
    ]
    assert any("Your reminder: check again" in n for n in notes)
    user = record.end_state.user
    assert [p.name for p in user.play][-1] == "restart" and user.resets == [6]
    assert len(made) == 2  # the reset made a new agent from the arm
    # set: the price the agent saw after the change (on its last look at the product)
    assert "$9.50" in policy.pages[6] and "$19.99" in policy.pages[4]
    assert any(m["subject"] == "A note" for m in record.end_state.apps["mail"]["messages"])
    assert by_name(record)["idle-after-stop"].passed
    assert [r.text for r in user.replies] == ["yes, stopping", "checked", "done"]


def by_name(record: AttemptRecord) -> dict[str, Any]:
    return {c.name: c for c in record.checks}
