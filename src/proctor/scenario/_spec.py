"""The scenario schema: one task, its world, its checks, its oracle and its decoys."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from proctor.computer.actions import Action
from proctor.scenario._apps import Apps
from proctor.scenario._checks import CheckSpec, check_args, check_kind, check_name
from proctor.scenario._desktop import DesktopWorld
from proctor.scenario._files import (
    SCRATCH_HINT,
    FileContent,
    Generated,
    ScratchPath,
    TreeEntry,
    parse_tree,
    scratch_path_error,
    tree_entries,
)
from proctor.scenario._live import LiveWorld
from proctor.scenario._miniwob import MiniwobWorld
from proctor.scenario._play import PlayEvent, play_problems
from proctor.scenario._user import User
from proctor.vocab import (
    STEP_EXPECTS,
    Category,
    Evidence,
    ScenarioDriver,
    ScenarioStatus,
    StepExpect,
    Surface,
    Tier,
)


class SpecIssue(NamedTuple):
    """One cross-field problem of a scenario, located like the YAML: ``decoys[0].fails[1]``."""

    field: str
    message: str
    hint: str = ""


class SpecIssues(ValueError):
    """Cross-field problems; pydantic reports them at the model, so they carry their own paths."""

    def __init__(self, issues: list[SpecIssue]) -> None:
        super().__init__(
            "; ".join(
                f"{i.field}: {i.message}" + (f" ({i.hint})" if i.hint else "") for i in issues
            )
        )
        self.issues = issues


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Limits(_Spec):
    """What the harness enforces for every agent kind."""

    seconds: float = Field(default=120, gt=0, le=3600, description="Wall limit of the agent's run.")
    tool_calls: int = Field(default=150, ge=1, le=10000, description="Calls to the toolset.")
    steps: int = Field(default=60, ge=1, le=10000, description="Actions that change the page.")


class Viewport(_Spec):
    width: int = Field(default=1280, ge=200, le=4000)
    height: int = Field(default=800, ge=200, le=4000)


class BrowserWorld(_Spec):
    """The browser the agent gets."""

    start: str | None = Field(default=None, description="URL opened before the agent starts.")
    deny_origins: list[str] = Field(
        default_factory=list,
        description="Origins (scheme://host) the browser refuses to navigate to.",
    )
    viewport: Viewport = Field(default_factory=Viewport)
    allow_schemes: list[Literal["data", "blob"]] = Field(
        default_factory=list,
        description="Non-http schemes the agent's pages may open (data:, blob:); every "
        "other scheme (javascript:, file:, chrome:, ...) is always refused.",
    )


class FileSeed(_Spec):
    """A file (or a folder tree) written into the scratch folder before the attempt starts.

    Give exactly one of ``text``, ``base64``, ``generate`` or ``tree``. A tree's
    ``path`` is its root folder; inside it, ``name: {text|base64|generate}`` is
    a file and ``name/: {...}`` a sub-folder.
    """

    path: ScratchPath = Field(
        description="Path relative to the scratch folder (no leading /, no .., no backslash)."
    )
    text: str | None = Field(default=None, description="UTF-8 content.")
    base64: str | None = Field(default=None, description="Binary content, base64.")
    generate: Generated | None = Field(
        default=None,
        description="Content built by a builder: text_lines, rich_text (html|rtf), pdf or csv.",
    )
    tree: dict[str, Any] | None = Field(
        default=None,
        description="A folder: name -> {text|base64|generate} for files, name/ -> {...} "
        "for sub-folders.",
    )

    @field_validator("tree")
    @classmethod
    def _tree(cls, tree: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if tree is None else parse_tree(tree)

    @model_validator(mode="after")
    def _one(self) -> FileSeed:
        given = (self.text, self.base64, self.generate, self.tree)
        if sum(v is not None for v in given) != 1:
            raise ValueError("give exactly one of text, base64, generate or tree")
        return self

    def entries(self) -> list[TreeEntry]:
        """What this seed writes: (path, content) per file, (path, None) per folder."""
        root = self.path.rstrip("/")
        if self.tree is None:
            content = FileContent(text=self.text, base64=self.base64, generate=self.generate)
            return [(root, content)]
        return [(root, None), *tree_entries(self.tree, root + "/")]


class World(_Spec):
    """The known state an attempt starts from."""

    sites: list[str] = Field(default_factory=list, description="Fixture sites this task uses.")
    files: list[FileSeed] = Field(default_factory=list)
    dirs: list[ScratchPath] = Field(
        default_factory=list,
        description="Empty folders to create, relative to the scratch folder.",
    )
    apps: Apps = Field(
        default_factory=Apps,
        description="Seeds of the fake apps (mail, calendar, sheets, chat); each app is a site.",
    )
    browser: BrowserWorld = Field(default_factory=BrowserWorld)
    desktop: DesktopWorld | None = Field(
        default=None,
        description="Desktop apps to drive instead of a browser (the desktop surface).",
    )
    miniwob: MiniwobWorld | None = Field(
        default=None,
        description="A MiniWoB++ task and seed, served by the miniwob site (list it in sites).",
    )
    live: LiveWorld | None = Field(
        default=None,
        description="The public hosts a live scenario's browser may reach (tier: live only); "
        "its world is those sites, not the fixture world.",
    )
    seed: int = Field(default=0, description="Seed for any randomness in the world.")

    def site_seeds(self) -> dict[str, Any]:
        """What the sites read as their seeds (``AttemptWorld.seeds``): each app's seed,
        and the peer suite's task (``miniwob``)."""
        seeds: dict[str, Any] = dict(self.apps)
        if self.miniwob is not None:
            seeds["miniwob"] = self.miniwob
        return seeds

    @model_validator(mode="after")
    def _miniwob_site(self) -> World:
        if self.miniwob is not None and "miniwob" not in self.sites:
            raise ValueError("world.miniwob needs the miniwob site: add miniwob to world.sites")
        return self

    @model_validator(mode="after")
    def _live_alone(self) -> World:
        if self.live is None:
            return self
        other = [
            name
            for name, used in (
                ("world.sites", bool(self.sites)),
                ("world.desktop", self.desktop is not None),
                ("world.miniwob", self.miniwob is not None),
            )
            if used
        ]
        if other:
            raise ValueError(
                f"world.live is a world of public hosts; drop {', '.join(other)} "
                "(a live attempt's browser does not reach the fixture world)"
            )
        return self

    @model_validator(mode="after")
    def _apps_are_sites(self) -> World:
        missing = [name for name in self.apps.seeded() if name not in self.sites]
        if missing:
            raise ValueError(
                f"world.apps seeds {', '.join(missing)} but world.sites does not list "
                f"{'it' if len(missing) == 1 else 'them'}: add {', '.join(missing)} to world.sites"
            )
        return self


class Decoy(_Spec):
    """A known-wrong path that must fail on the checks it names.

    Every step must run ok when the decoy is replayed, unless it says how it ends:
    ``expect: error`` (it fails, e.g. a click on a button that does not exist) or
    ``expect: refused`` (the harness will not run it, e.g. a navigation to a denied
    origin); ``expect_error: true`` is the older spelling of ``expect: error``. The
    markers are taken off the steps and kept in ``expect_error`` and ``expect_refused``.

    A decoy must also change the world beyond what the null agent does (a request, an
    app's state, a file, an answer, a question to the user), or it proves nothing the
    null agent does not; one whose point is to stop early says ``inert: true``.
    """

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    steps: list[Action] = Field(min_length=1)
    fails: list[str] = Field(min_length=1, description="Names of the checks it must fail.")
    expect_error: list[int] = Field(
        default_factory=list,
        description="Sorted 0-based indexes of the steps expected to fail when the decoy is "
        "replayed. Derived from `expect: error` (or `expect_error: true`) written on those "
        "steps (decoy steps only; a solution step may not carry it).",
    )
    expect_refused: list[int] = Field(
        default_factory=list,
        description="Sorted 0-based indexes of the steps the harness is expected to refuse "
        "when the decoy is replayed. Derived from `expect: refused` written on those steps "
        "(decoy steps only).",
    )
    inert: bool = Field(
        default=False,
        description="The decoy is meant to leave the world as the null agent does (its point "
        "is to stop early, e.g. to claim done without acting). Without it, `proctor verify` "
        "flags a decoy whose world ends as the null agent's as inert.",
    )

    @property
    def expected(self) -> dict[int, StepExpect]:
        """How each marked step is expected to end, by index."""
        marks: dict[int, StepExpect] = dict.fromkeys(self.expect_error, "error")
        return marks | dict.fromkeys(self.expect_refused, "refused")

    @model_validator(mode="before")
    @classmethod
    def _markers(cls, data: Any) -> Any:
        """Move each step's ``expect`` (or ``expect_error``) marker into the decoy's lists."""
        if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
            return data
        marked: dict[StepExpect, list[int]] = {"error": [], "refused": []}
        steps: list[Any] = []
        changed = False
        for i, step in enumerate(data["steps"]):
            if isinstance(step, dict) and ("expect" in step or "expect_error" in step):
                changed = True
                step = dict(step)
                mark = _step_mark(i, step.pop("expect", None), step.pop("expect_error", None))
                if mark is not None:
                    marked[mark].append(i)
            steps.append(step)
        if not changed:
            return data
        lists = {"expect_error": marked["error"], "expect_refused": marked["refused"]}
        out = {**data, "steps": steps}
        for key, found in lists.items():
            explicit = data.get(key, [])
            if not isinstance(explicit, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in explicit
            ):
                continue  # pydantic reports the malformed list
            out[key] = sorted({*explicit, *found})
        return out

    @model_validator(mode="after")
    def _in_range(self) -> Decoy:
        for key, marks in (
            ("expect_error", self.expect_error),
            ("expect_refused", self.expect_refused),
        ):
            if marks != sorted(set(marks)):
                raise ValueError(f"{key} must list step indexes once each, in order")
            wrong = [i for i in marks if not 0 <= i < len(self.steps)]
            if wrong:
                raise ValueError(
                    f"{key} names step {wrong[0]}, but the decoy has {len(self.steps)} "
                    "steps (0-based)"
                )
        both = sorted(set(self.expect_error) & set(self.expect_refused))
        if both:
            raise ValueError(
                f"step {both[0]} is in both expect_error and expect_refused: a step ends one way"
            )
        return self


def _step_mark(index: int, expect: object, expect_error: object) -> StepExpect | None:
    """The one marker a decoy step carries (``expect``, or the older ``expect_error``)."""
    if expect is not None and expect_error is not None:
        raise ValueError(
            f"steps[{index}] has both expect and expect_error; expect_error: true is the "
            "older spelling of expect: error: keep only expect"
        )
    if expect_error is not None:
        if not isinstance(expect_error, bool):
            raise ValueError(
                f"steps[{index}].expect_error must be true or false, not {short_repr(expect_error)}"
            )
        return "error" if expect_error else None
    if expect not in STEP_EXPECTS:
        raise ValueError(
            f"steps[{index}].expect must be {' or '.join(STEP_EXPECTS)}, not {short_repr(expect)}"
        )
    return expect


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


def short_repr(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about raw YAML values."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print in decimal
        return "a number too large to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _kinds(check: BaseModel) -> list[str]:
    """The check types in one check, through all/any."""
    kind = check_kind(check)
    if kind in ("all", "any"):
        return [k for child in getattr(check, kind) for k in _kinds(child)]
    return [kind]
