"""The scenario schema: one task, its world, its checks, its oracle and its decoys.

The parts live beside it: ``_world`` (what an attempt starts from), ``_decoy`` (the
known-wrong paths) and ``_issues`` (cross-field problems); this module holds the
scenario itself, its limits and judge criteria, and the checks across its parts.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proctor.computer.actions import Action
from proctor.scenario._apps import Apps
from proctor.scenario._checks import CheckSpec, check_args, check_kind, check_name
from proctor.scenario._decoy import Decoy
from proctor.scenario._files import (
    SCRATCH_HINT,
    scratch_path_error,
)
from proctor.scenario._issues import SpecIssue, SpecIssues
from proctor.scenario._play import PlayEvent, play_problems
from proctor.scenario._user import User
from proctor.scenario._world import World
from proctor.vocab import (
    Category,
    Evidence,
    ScenarioDriver,
    ScenarioStatus,
    Surface,
    Tier,
)


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Limits(_Spec):
    """What the harness enforces for every agent kind."""

    seconds: float = Field(default=120, gt=0, le=3600, description="Wall limit of the agent's run.")
    tool_calls: int = Field(default=150, ge=1, le=10000, description="Calls to the toolset.")
    steps: int = Field(default=60, ge=1, le=10000, description="Actions that change the page.")


def _default_evidence() -> list[Evidence]:
    return ["page_text", "answer"]


class JudgeCriterion(_Spec):
    """A criterion code cannot decide, left to the independent judge (off by default)."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    criterion: str = Field(min_length=1, description="What must hold, in a sentence.")
    evidence: list[Evidence] = Field(
        default_factory=_default_evidence,
        min_length=1,
        description="The only end-state facts the judge is shown.",
    )


class Scenario(_Spec):
    """One task: a brief, a world, checks over the end state, an oracle and decoys."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="Equals the file name.")
    title: str = Field(min_length=1)
    brief: str = Field(min_length=1, description="What the agent is asked to do.")
    tier: Tier
    also_in: list[Tier] = Field(
        default_factory=list,
        description="Other tiers that also list this scenario (e.g. a local errand run by models).",
    )
    category: Category
    status: ScenarioStatus = "scored"
    capabilities: list[str] = Field(default_factory=list)
    limits: Limits = Field(default_factory=Limits)
    driver: ScenarioDriver = Field(
        default="direct",
        description=(
            "How scripted steps (solution, decoys) are replayed: direct, each step through "
            "the toolset; loop, as a scripted policy's decisions inside the reference "
            "decision loop, with its guards and boundaries."
        ),
    )
    world: World = Field(default_factory=World)
    user: User = Field(default_factory=User)
    checks: list[CheckSpec] = Field(min_length=1)
    solution: list[Action] = Field(min_length=1, description="Oracle steps: must pass.")
    decoys: list[Decoy] = Field(min_length=1, description="Known-wrong paths: must fail.")
    play: list[PlayEvent] = Field(
        default_factory=list,
        description="The timeline: events that happen while the agent works (messages from "
        "the user, a stop, mail arriving, a value changing, the clock moving on, a reset).",
    )
    judge: list[JudgeCriterion] = Field(
        default_factory=list,
        description="Criteria for the independent judge (run with --judge); reported beside "
        "the checks, never merged into them.",
    )

    @model_validator(mode="before")
    @classmethod
    def _stop_check(cls, data: Any) -> Any:
        """A timeline that stops the agent gets the built-in ``idle-after-stop`` check."""
        if not isinstance(data, dict):
            return data
        play, checks = data.get("play"), data.get("checks")
        stops = isinstance(play, list) and any(isinstance(e, dict) and "stop" in e for e in play)
        if not stops or not isinstance(checks, list):
            return data
        if any(isinstance(c, dict) and "idle_after_stop" in c for c in checks):
            return data
        return {**data, "checks": [*checks, {"idle_after_stop": {"name": "idle-after-stop"}}]}

    @model_validator(mode="after")
    def _names(self) -> Scenario:
        names = [check_name(c) for c in self.checks]
        issues: list[SpecIssue] = []
        issues.extend(SpecIssue(where, message) for where, message in play_problems(self.play))
        fired = {e.name for e in self.play} | {"brief"}
        for where, event in _event_names(self.checks):
            if event not in fired:
                close = difflib.get_close_matches(event, sorted(fired), n=1, cutoff=0.5)
                issues.append(
                    SpecIssue(
                        where,
                        f"the check names the timeline event {event!r}, which play: does not have",
                        (f"did you mean {close[0]!r}? " if close else "")
                        + f"events are: {', '.join(sorted(fired))}",
                    )
                )
        for i, name in enumerate(names):
            first = names.index(name)
            if first != i:
                issues.append(
                    SpecIssue(
                        f"checks[{i}]",
                        f"check name {name!r} is also used by checks[{first}]",
                        "give each check a distinct `name:` inside its arguments",
                    )
                )
        for i, decoy in enumerate(self.decoys):
            for j, name in enumerate(decoy.fails):
                if name not in names:
                    close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
                    issues.append(
                        SpecIssue(
                            f"decoys[{i}].fails[{j}]",
                            f"decoy {decoy.name!r} fails on {name!r}, which is not a check",
                            (f"did you mean {close[0]!r}? " if close else "")
                            + f"checks are: {', '.join(names)}",
                        )
                    )
        decoy_names = [d.name for d in self.decoys]
        for i, name in enumerate(decoy_names):
            first = decoy_names.index(name)
            if first != i:
                issues.append(
                    SpecIssue(
                        f"decoys[{i}].name",
                        f"decoy name {name!r} is also used by decoys[{first}]",
                        "give each decoy a distinct name",
                    )
                )
        issues.extend(
            issue for i, check in enumerate(self.checks) for issue in _path_issues(check, i)
        )
        if issues:
            raise SpecIssues(issues)
        return self

    @model_validator(mode="after")
    def _live_tier(self) -> Scenario:
        """A live scenario names its public hosts, and no other tier reaches any."""
        issues: list[SpecIssue] = []
        if self.tier == "live" and self.world.live is None:
            issues.append(
                SpecIssue(
                    "world.live",
                    "a live scenario needs world.live.hosts: the public hosts its browser may "
                    "reach",
                    "e.g. world: {live: {hosts: [docs.python.org]}}",
                )
            )
        if self.tier != "live" and self.world.live is not None:
            issues.append(
                SpecIssue(
                    "world.live",
                    f"world.live is for tier: live; this scenario's tier is {self.tier}",
                    "set tier: live, or drop world.live",
                )
            )
        if "live" in self.also_in:
            issues.append(
                SpecIssue(
                    "also_in",
                    "the live tier lists only its own scenarios (tier: live, with world.live)",
                    "drop live from also_in",
                )
            )
        if issues:
            raise SpecIssues(issues)
        return self

    @model_validator(mode="after")
    def _paired(self) -> Scenario:
        """``nothing_sent`` passes for an agent that does nothing, so it needs a positive check."""
        kinds = [(i, kind) for i, c in enumerate(self.checks) for kind in _kinds(c)]
        negative = {"nothing_sent", "not_submitted"}
        alone = [i for i, kind in kinds if kind == "nothing_sent"]
        if alone and all(kind in negative for _, kind in kinds):
            raise SpecIssues(
                [
                    SpecIssue(
                        f"checks[{alone[0]}]",
                        "nothing_sent is the only kind of check, so an agent that does nothing "
                        "passes",
                        "pair it with a check that the task's precondition happened, "
                        "e.g. draft_exists, sheet_cells or chat_posted",
                    )
                ]
            )
        return self

    @model_validator(mode="after")
    def _surface_ops(self) -> Scenario:
        """Every step of the oracle and the decoys is an action of the scenario's surface."""
        surface = self.surface
        issues: list[SpecIssue] = []
        paths = [("solution", self.solution)] + [
            (f"decoys[{i}].steps", d.steps) for i, d in enumerate(self.decoys)
        ]
        for where, steps in paths:
            for j, step in enumerate(steps):
                if surface not in type(step).surfaces:
                    other = "a desktop" if surface == "browser" else "a browser"
                    issues.append(
                        SpecIssue(
                            f"{where}[{j}]",
                            f"{step.op} is an action of {other}; this scenario drives "
                            f"{'desktop apps' if surface == 'desktop' else 'a browser'}",
                            "world.desktop makes a scenario a desktop one: its actions are "
                            "press, set_value, type, key, activate, read, wait and done"
                            if surface == "desktop"
                            else "without world.desktop, use the browser's actions",
                        )
                    )
        if issues:
            raise SpecIssues(issues)
        return self

    @model_validator(mode="after")
    def _one_zone(self) -> Scenario:
        """Date placeholders resolve in one zone: user.tz, or the one the seeded apps share."""
        zones = _app_zones(self.world.apps)
        if self.user.tz is not None or len(set(zones.values())) < 2:
            return self
        if _USES_DATES.search(self.model_dump_json(exclude={"id", "title"})) is None:
            return self
        shown = ", ".join(f"{app} {zone}" for app, zone in zones.items())
        raise SpecIssues(
            [
                SpecIssue(
                    "user.tz",
                    f"date placeholders need the user's time zone, and the seeded apps' zones "
                    f"differ ({shown})",
                    "set user.tz, e.g. user: {tz: Europe/Paris}",
                )
            ]
        )

    @property
    def zone(self) -> str:
        """The user's time zone, in which date placeholders resolve: ``user.tz``, else the zone
        the seeded apps share, else UTC."""
        if self.user.tz is not None:
            return self.user.tz
        zones = set(_app_zones(self.world.apps).values())
        return zones.pop() if len(zones) == 1 else "UTC"

    @property
    def surface(self) -> Surface:
        """What the agent drives: a desktop when ``world.desktop`` is set, else a browser."""
        return "desktop" if self.world.desktop is not None else "browser"

    def in_tier(self, tier: str) -> bool:
        """Whether the scenario belongs to ``tier`` or is also listed in it."""
        return tier == self.tier or tier in self.also_in

    def check_names(self) -> list[str]:
        return [check_name(c) for c in self.checks]


_SCRATCH_CHECKS = (
    "file_sha256",
    "file_unchanged",
    "file_exists",
    "file_text",
    "pdf",
    "csv",
    "rich_text",
    "dir_listing",
)
"""Check types whose ``path`` is relative to the scratch folder."""


def _event_names(checks: list[Any], where: str = "checks") -> Iterator[tuple[str, str]]:
    """(where, event name) for every timeline event a check names (through all/any)."""
    for i, check in enumerate(checks):
        kind = check_kind(check)
        field = f"{where}[{i}]"
        if kind in ("all", "any"):
            yield from _event_names(getattr(check, kind), f"{field}.{kind}")
        elif kind == "after_event":
            yield f"{field}.after_event.event", check.after_event.event
            yield from _event_names([check.after_event.check], f"{field}.after_event.check")
        elif kind == "answered":
            yield f"{field}.answered.request", check.answered.request


def _path_issues(check: BaseModel, index: int | str) -> Iterator[SpecIssue]:
    """Scratch paths of a check (through all/any) that would leave the scratch folder."""
    kind = check_kind(check)
    field = f"checks[{index}]" if isinstance(index, int) else index
    if kind in ("all", "any"):
        for j, child in enumerate(getattr(check, kind)):
            yield from _path_issues(child, f"{field}.{kind}[{j}]")
        return
    if kind == "after_event":
        yield from _path_issues(check.after_event.check, f"{field}.after_event.check")  # type: ignore[attr-defined]
        return
    args = check_args(check)
    paths: list[tuple[str, str]] = []
    if kind in _SCRATCH_CHECKS:
        paths.append((f"{field}.{kind}.path", args.path))
    if kind == "submitted":
        paths.extend((f"{field}.submitted.files.{name}", path) for name, path in args.files.items())
    for where, path in paths:
        error = scratch_path_error(path, root=kind == "dir_listing")
        if error:
            yield SpecIssue(where, error, SCRATCH_HINT)


_USES_DATES = re.compile(r"(?<!\{)\{date[:}]")
"""A date placeholder somewhere in a scenario's JSON."""


def _app_zones(apps: Apps) -> dict[str, str]:
    """The time zone of each seeded app that has one: app name -> IANA zone."""
    seeds = (("mail", apps.mail), ("calendar", apps.calendar), ("chat", apps.chat))
    return {name: seed.tz for name, seed in seeds if seed is not None}


def _kinds(check: BaseModel) -> list[str]:
    """The check types in one check, through all/any."""
    kind = check_kind(check)
    if kind in ("all", "any"):
        return [k for child in getattr(check, kind) for k in _kinds(child)]
    return [kind]
