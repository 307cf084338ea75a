"""Scenarios (``proctor.scenario``): tiers, statuses, decoy steps, the timeline,
placeholders, live reads."""

from __future__ import annotations

from typing import Literal, get_args

Tier = Literal["local", "model", "live", "desktop", "peer"]
"""Where a scenario runs: local fixtures, a model, the live web, a desktop, or a peer suite
(``peer``: MiniWoB++'s own task pages, graded by its own reward)."""

Category = Literal["regression", "capability"]
"""regression: a scenario that should keep passing (gate material); capability: a stretch."""

ScenarioStatus = Literal["scored", "calibrating", "gap"]
"""A scenario's ``status:``: scored (calibrated: it may gate), calibrating (run and reported,
never gate material), or gap (also never gated)."""

ScenarioDriver = Literal["direct", "loop"]
"""How a scenario's scripted steps (solution, decoys) are replayed: direct, each step
through the toolset; loop, as a scripted policy's decisions inside the reference loop."""

StepExpect = Literal["error", "refused"]
"""What a decoy step is expected to end as when replayed (``expect:`` on the step): error (it
fails, e.g. a click on a button that is not there) or refused (the harness will not run it,
e.g. a navigation to a denied origin). Any other step must run ok."""

VerifyRole = Literal["oracle", "decoy", "null"]
"""What a verify obligation runs: the oracle must pass, each decoy and the null agent fail."""

PlayKind = Literal["say", "stop", "deliver", "set", "advance", "reset_agent"]
"""What a timeline event (``play:``) does: say (a user message), stop (a message telling the
agent to stop), deliver (mail, a chat post or an invite arrives), set (a site's value
changes), advance (the run clock moves on), reset_agent (a new agent replaces the old one)."""

TriggerKind = Literal["after_actions", "at", "when", "on_idle"]
"""What makes a timeline event fire: the agent's Nth action, a run-clock offset, a condition
on the world (a matching request), or the agent going idle (done)."""

DateUnit = Literal["d", "w", "h", "min"]
"""The unit of a date placeholder's offset: days, weeks, hours, minutes."""

HeadingTag = Literal["h1", "h2", "h3", "h4", "h5", "h6"]
"""A heading level a live read may extract (``live_read``'s ``headings``)."""

LiveCompare = Literal["all", "any", "first", "equals"]
"""How the values read are held against the answer (case and runs of white space ignored):
all: every value is in the answer; any: at least one is; first: the first value is;
equals: the answer is the first value, and nothing else."""

LiveSource = Literal["text", "body"]
"""What ``pattern`` is searched in: text, the page's visible text (an HTML page's text
outside scripts, styles and ``<head>``, white space collapsed; another type's body as it
is); body, the response body as it came."""

TIERS: tuple[Tier, ...] = get_args(Tier)
CATEGORIES: tuple[Category, ...] = get_args(Category)
STEP_EXPECTS: tuple[StepExpect, ...] = get_args(StepExpect)
VERIFY_ROLES: tuple[VerifyRole, ...] = get_args(VerifyRole)
PLAY_KINDS: tuple[PlayKind, ...] = get_args(PlayKind)
TRIGGER_KINDS: tuple[TriggerKind, ...] = get_args(TriggerKind)
DATE_UNITS: tuple[DateUnit, ...] = get_args(DateUnit)
