"""The scenario schema: one task, its world, its checks, its oracle and its decoys."""

from __future__ import annotations

import difflib
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proctor.computer.actions import Action
from proctor.scenario._checks import CheckSpec, check_name

Tier = Literal["local", "model", "live", "desktop"]
Category = Literal["regression", "capability"]
Status = Literal["scored", "calibrating", "gap"]
Driver = Literal["direct", "loop"]
TIERS: tuple[Tier, ...] = ("local", "model", "live", "desktop")


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


class FileSeed(_Spec):
    """A file written into the scratch folder before the attempt starts."""

    path: str = Field(description="Path relative to the scratch folder.")
    text: str | None = Field(default=None, description="UTF-8 content.")
    base64: str | None = Field(default=None, description="Binary content, base64.")

    @model_validator(mode="after")
    def _one(self) -> FileSeed:
        if (self.text is None) == (self.base64 is None):
            raise ValueError("give exactly one of text or base64")
        if self.path.startswith("/") or ".." in self.path.split("/"):
            raise ValueError("path must stay inside the scratch folder (no leading /, no ..)")
        return self


class World(_Spec):
    """The known state an attempt starts from."""

    sites: list[str] = Field(default_factory=list, description="Fixture sites this task uses.")
    files: list[FileSeed] = Field(default_factory=list)
    dirs: list[str] = Field(default_factory=list, description="Empty folders to create.")
    apps: dict[str, Any] = Field(default_factory=dict, description="Fake apps and their seeds.")
    browser: BrowserWorld = Field(default_factory=BrowserWorld)
    seed: int = Field(default=0, description="Seed for any randomness in the world.")


class User(_Spec):
    """The simulated user: scripted answers and approvals."""

    answers: dict[str, str] = Field(default_factory=dict)
    approvals: dict[str, bool] = Field(default_factory=dict)


class Decoy(_Spec):
    """A known-wrong path that must fail on the checks it names."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    steps: list[Action] = Field(min_length=1)
    fails: list[str] = Field(min_length=1, description="Names of the checks it must fail.")


class Scenario(_Spec):
    """One task: a brief, a world, checks over the end state, an oracle and decoys."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="Equals the file name.")
    title: str = Field(min_length=1)
    brief: str = Field(min_length=1, description="What the agent is asked to do.")
    tier: Tier
    category: Category
    status: Status = "scored"
    capabilities: list[str] = Field(default_factory=list)
    limits: Limits = Field(default_factory=Limits)
    driver: Driver = Field(
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

    @model_validator(mode="after")
    def _names(self) -> Scenario:
        names = [check_name(c) for c in self.checks]
        issues: list[SpecIssue] = []
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
        if issues:
            raise SpecIssues(issues)
        return self

    def check_names(self) -> list[str]:
        return [check_name(c) for c in self.checks]
