"""The timeline at run time: fires a scenario's ``play:`` events while the agent works.

One ``Timeline`` per attempt, owned by the simulated user. The computer tells the
user of every recorded step (``after_step``) and of the agent going idle with
``done`` (``idle``); the timeline then fires the events now due, strictly in the
order written (an event's trigger is looked at only once the one before it has
fired). What the world changes (mail arriving, a price, the run clock) is done
on the fixture server's thread (``Hooks.call``), where the sites' handlers run.

Right after an event fires, the world is read into a ``Moment`` (requests and
steps so far, apps, scratch files, what passed with the user), which
``after_event`` checks grade. A ``reset_agent`` event raises ``AgentReset``
once its moment is kept.

The run clock (``AttemptWorld.clock``) stands still while the agent works and
moves only by ``advance``: an ``at`` event and a wake-up the agent scheduled
fire inside the advance that passes them, wake-ups in time order.
"""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from proctor.computer.actions import RELATIVE_AT, Schedule
from proctor.computer.user import AgentReset
from proctor.errors import WorldError
from proctor.records import Moment, PlayFired, Scheduled, UserFacts, WebRequest
from proctor.scenario import Delivery, PlayEvent, Setting
from proctor.world._kit._time import run_now
from proctor.world._scratch import snapshot_dirs, snapshot_files
from proctor.world._site import AttemptWorld, Site
from proctor.world.apps import arrive

_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


@dataclass(frozen=True)
class Hooks:
    """What the runner lends the timeline.

    Attributes:
        world: The attempt's world on the fixture server.
        sites: The server's sites by name (their knobs).
        requests: The attempt's requests so far, in order.
        apps: The apps' and sites' snapshots now.
        call: Runs a function on the fixture server's thread.
        trace: Adds an event to the attempt's trace.
    """

    world: AttemptWorld
    sites: dict[str, Site[Any]]
    requests: Callable[[], Sequence[WebRequest]]
    apps: Callable[[], dict[str, Any]]
    call: Callable[[Callable[[], Any]], Any]
    trace: Callable[..., None]


@dataclass
class _Wake:
    when: dt.datetime
    record: Scheduled


@dataclass
class Timeline:
    """The attempt's ``play:`` events and what they did.

    Attributes:
        events: The scenario's timeline, placeholders resolved.
        hooks: The world, the server and the trace.
        tz: The user's zone: a scheduled time without an offset is read there.
        facts: The user's facts now, for the moments.
    """

    events: Sequence[PlayEvent]
    hooks: Hooks
    tz: str
    facts: Callable[[], UserFacts]
    start: dt.datetime = field(init=False)
    fired: list[PlayFired] = field(default_factory=list)
    inbox: list[tuple[int, str]] = field(default_factory=list)
    """(actions when it was said, text): messages not yet shown to the agent."""
    wakes: list[_Wake] = field(default_factory=list)
    resets: list[int] = field(default_factory=list)
    moments: dict[str, Moment] = field(default_factory=dict)
    _next: int = 0

    def __post_init__(self) -> None:
        self.start = run_now(self.hooks.world)

    @property
    def now(self) -> dt.datetime:
        return run_now(self.hooks.world)

    # ----- the computer's calls ----------------------------------------------

    def after_step(self, actions: int) -> None:
        """Fire what is due after the agent's ``actions``-th action."""
        self._run(actions, idle=False)

    def idle(self, actions: int) -> bool:
        """The agent went idle: fire what waits for that; True when it has a message now."""
        for wake in self.wakes:
            if wake.record.woke is not None and wake.record.idle is None:
                wake.record = wake.record.model_copy(update={"idle": actions})
        self._run(actions, idle=True)
        return bool(self.inbox)

    def schedule(self, action: Schedule, step: int) -> str:
        """Keep a wake-up; the words that confirm it.

        Raises:
            ValueError: the time is not after the run clock.
        """
        now = self.now
        relative = RELATIVE_AT.match(action.at)
        if relative is not None:
            amount, unit = int(relative.group(1)), relative.group(2)
            when = now + dt.timedelta(**{_UNITS[unit]: amount})
        else:
            parsed = dt.datetime.fromisoformat(action.at)
            if parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=ZoneInfo(self.tz))
            when = parsed.astimezone(dt.UTC)
        if when <= now:
            raise ValueError(
                f"{action.at} is not in the future (it is {self._local(now)} now); "
                "give a later time"
            )
        record = Scheduled(step=step, at=when.isoformat(), note=action.note)
        self.wakes.append(_Wake(when, record))
        self.hooks.trace("scheduled", step=step, at=record.at, note=action.note[:500])
        return f"scheduled for {self._local(when)}: you will be woken then with your note"

    def take_messages(self) -> list[tuple[int, str]]:
        """The messages not yet shown, in order; they count as shown from now."""
        out, self.inbox = self.inbox, []
        return out

    def scheduled(self) -> list[Scheduled]:
        return [w.record for w in self.wakes]

    # ----- firing --------------------------------------------------------------

    def _run(self, actions: int, *, idle: bool) -> None:
        while self._next < len(self.events):
            event = self.events[self._next]
            if not self._due(event, actions, idle=idle and not self.inbox):
                return
            self._next += 1
            self._fire(event, actions)

    def _due(self, event: PlayEvent, actions: int, *, idle: bool) -> bool:
        if event.after_actions is not None:
            return actions >= event.after_actions
        if event.at is not None:
            return self.now >= self.start + event.at.delta()
        if event.when is not None:
            match = event.when.request
            hits = sum(match.matches(r.method, r.host, r.path) for r in self.hooks.requests())
            return hits >= match.count
        return idle

    def _fire(self, event: PlayEvent, actions: int) -> None:
        detail = ""
        if event.text is not None:
            self.inbox.append((actions, event.text))
        elif event.deliver is not None:
            delivery = event.deliver
            detail = self.hooks.call(lambda: self._deliver(event.name, delivery))
        elif event.set is not None:
            setting = event.set
            detail = self.hooks.call(lambda: self._set(event.name, setting))
        elif event.advance is not None:
            detail = self._advance(event.advance.delta(), actions)
        elif event.reset_agent is not None:
            self.resets.append(actions)
            detail = "the agent is ended and a new one started"
        fired = PlayFired(
            name=event.name,
            kind=event.kind,
            trigger=event.trigger,
            actions=actions,
            time=time.time(),
            clock=self.now.isoformat(),
            text=event.text,
            detail=detail,
        )
        self.fired.append(fired)
        self.hooks.trace("play", does=fired.kind, **fired.model_dump(exclude={"time", "kind"}))
        self.moments[event.name] = self._moment(actions)
        if event.reset_agent is not None:
            raise AgentReset(event.name, keep_conversation=event.reset_agent.keep_conversation)

    def _moment(self, actions: int) -> Moment:
        world = self.hooks.world
        return Moment(
            requests=len(self.hooks.requests()),
            steps=actions,
            files=snapshot_files(world.scratch),
            dirs=snapshot_dirs(world.scratch),
            apps=self.hooks.call(self.hooks.apps),
            user=self.facts(),
        )

    def _deliver(self, event: str, delivery: Delivery) -> str:
        try:
            return arrive(self.hooks.world, delivery)
        except (ValueError, WorldError) as exc:
            raise WorldError(f"timeline event {event!r}: deliver failed: {exc}") from exc

    def _set(self, event: str, setting: Setting) -> str:
        site = self.hooks.sites.get(setting.site)
        name, _, argument = setting.key.partition(".")
        knob = site.knobs.get(name) if site is not None else None
        if knob is None:
            raise WorldError(
                f"timeline event {event!r}: the {setting.site} site has no knob {name!r}"
            )
        try:
            return knob(self.hooks.world, argument, setting.value)
        except ValueError as exc:
            raise WorldError(f"timeline event {event!r}: set {setting.key}: {exc}") from exc

    def _advance(self, delta: dt.timedelta, actions: int) -> str:
        world = self.hooks.world
        target = self.now + delta
        due = sorted(
            (w for w in self.wakes if w.record.woke is None and w.when <= target),
            key=lambda w: w.when,
        )
        for wake in due:
            wake.record = wake.record.model_copy(update={"woke": actions})
            self.inbox.append(
                (actions, f"It is {self._local(wake.when)}. Your reminder: {wake.record.note}")
            )
            self.hooks.trace("wake", at=wake.record.at, note=wake.record.note[:500])
        self.hooks.call(lambda: _move_clock(world, target))
        return f"the run clock moved to {target.isoformat()}"

    def _local(self, moment: dt.datetime) -> str:
        return moment.astimezone(ZoneInfo(self.tz)).strftime("%A %d %B %Y, %H:%M")


def _move_clock(world: AttemptWorld, target: dt.datetime) -> None:
    """The run clock and every app's own "now" move to ``target``."""
    clock = world.clock
    world.clock = target if clock.tzinfo is not None else target.replace(tzinfo=None)
    for state in world.sites.values():
        if hasattr(state, "now") and isinstance(state.now, dt.datetime):
            state.now = run_now(world)


def conversation(facts: UserFacts, brief: str) -> str:
    """The conversation so far, as a restarted assistant with a chat history would have it."""
    lines = [f"user: {brief}"]
    entries: list[tuple[int, str]] = []
    for m in facts.messages:
        if m.delivered_step is not None:
            entries.append((m.delivered_step, f"user: {m.text}"))
    for q in facts.asked:
        entries.append((q.step, f"you asked: {q.question}\nuser: {q.answer}"))
    for r in facts.replies:
        entries.append((r.step, f"you: {r.text}"))
    lines.extend(text for _, text in sorted(entries, key=lambda e: e[0]))
    return "\n".join(re.sub(r"\s+\n", "\n", line) for line in lines)
