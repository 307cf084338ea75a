"""Guards of the reference loop: each stops the loop with its own stop reason.

A guard sees the history of (action, observation fingerprint before, after) and
says whether the NEXT action may run (``before``) or whether the loop must stop
after the last one (``after``). Guards read observations, never the DOM, so they
work on any surface.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from proctor.computer.actions import Action, Scroll
from proctor.computer.observation import Observation
from proctor.vocab import GuardReason, RunStopReason

_REF = re.compile(r"\s*\[ref=[^\]]+\]")
_ACTIVE = re.compile(r" \[(?:active|focused)\]")
"""Where the focus is: ``[active]`` in an aria snapshot; ``[focused]`` (and the active
window's ``[active]``) in a desktop outline."""


def fingerprint(obs: Observation, *, focus: bool = True) -> str:
    """What counts as an observable change: url, active tab, tab count and the snapshot text.

    Refs are dropped: they name elements, they are not state. With ``focus=False``
    the focus markers (``[active]``, a desktop's ``[focused]``) are dropped too:
    clicking a dead button moves the focus to it, which is not progress.
    """
    snapshot = _REF.sub("", obs.snapshot)
    if not focus:
        snapshot = _ACTIVE.sub("", snapshot)
    text = f"{obs.url}\n{obs.active}\n{len(obs.tabs)}\n{snapshot}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Turn:
    """One executed action and the observation fingerprints around it."""

    action: Action
    before: str
    after: str
    failed: bool = False
    """The step did not run as asked (status error or refused)."""
    errored: bool = False
    """The step errored (status error): the action itself failed."""
    focus_only: bool = False
    """The only change was where the focus is: a change (Tab, Tab is not a stuck repeat),
    but not progress."""

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @property
    def progressed(self) -> bool:
        return self.changed and not self.focus_only


@dataclass(frozen=True)
class Stop:
    """A guard's (or a boundary's) decision to stop, with its reason and a human sentence."""

    reason: RunStopReason
    detail: str


def _same(a: Action, b: Action) -> bool:
    return a.model_dump() == b.model_dump()


@dataclass(frozen=True)
class RepeatGuard:
    """The same action again right after it changed nothing: stop before running it."""

    reason: GuardReason = "repeated_action"

    def before(self, history: Sequence[Turn], action: Action) -> Stop | None:
        if history and _same(history[-1].action, action) and not history[-1].changed:
            return Stop(
                self.reason,
                f"{action.op} was repeated although the last one changed nothing",
            )
        return None

    def after(self, history: Sequence[Turn]) -> Stop | None:
        return None


@dataclass(frozen=True)
class ScrollOscillationGuard:
    """Scrolling back and forth: stop once ``limit`` scrolls alternate up and down."""

    limit: int = 5
    reason: GuardReason = "scroll_oscillation"

    def before(self, history: Sequence[Turn], action: Action) -> Stop | None:
        return None

    def after(self, history: Sequence[Turn]) -> Stop | None:
        streak = 0
        last: str | None = None
        for turn in reversed(history):
            act = turn.action
            if not isinstance(act, Scroll) or act.direction not in ("up", "down"):
                break
            if last is not None and act.direction == last:
                break
            streak += 1
            last = act.direction
        if streak >= self.limit:
            return Stop(self.reason, f"{streak} scrolls alternated up and down")
        return None


@dataclass(frozen=True)
class NoProgressGuard:
    """``limit`` different actions in a row, each leaving the observation unchanged.

    A focus move alone is no change here: three dead buttons clicked in turn
    each take the focus, and still nothing happened.
    """

    limit: int = 3
    reason: GuardReason = "no_progress"

    def before(self, history: Sequence[Turn], action: Action) -> Stop | None:
        return None

    def after(self, history: Sequence[Turn]) -> Stop | None:
        tail = list(history[-self.limit :])
        if len(tail) < self.limit or any(t.progressed for t in tail):
            return None
        for i, turn in enumerate(tail):
            if any(_same(turn.action, other.action) for other in tail[i + 1 :]):
                return None
        return Stop(self.reason, f"{self.limit} different actions in a row changed nothing")


@dataclass(frozen=True)
class StepBudgetGuard:
    """The loop's own budget of decisions."""

    budget: int
    reason: GuardReason = "step_budget"

    def before(self, history: Sequence[Turn], action: Action) -> Stop | None:
        if len(history) >= self.budget:
            return Stop(self.reason, f"the step budget ({self.budget}) is used up")
        return None

    def after(self, history: Sequence[Turn]) -> Stop | None:
        return None


Guard = RepeatGuard | ScrollOscillationGuard | NoProgressGuard | StepBudgetGuard


def default_guards(budget: int = 40) -> tuple[Guard, ...]:
    return (StepBudgetGuard(budget), RepeatGuard(), ScrollOscillationGuard(), NoProgressGuard())
