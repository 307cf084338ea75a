"""The frozen manifest: the tasks, boundaries, repetitions, limits and fixtures of the protocol.

``manifest.json`` ships in this package and its SHA-256 is pinned here, so every
operator runs exactly the reviewed protocol: a changed file is refused by every
command, with the way to re-pin it in a reviewed revision.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from proctor.errors import ManualError
from proctor.scenario import SUITE_ROOT, FileSeed, LoadedScenario, load_scenario
from proctor.vocab import ManualBoundaryStop

PINNED = "0736eea859dabef8cdd0eab2c770be5d32d20790508040db05e11f3420807073"
"""The SHA-256 of the reviewed manifest.json."""

MANIFEST = "manifest.json"


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Limits(_Spec):
    seconds: float = Field(gt=0, description="Wall limit of one case, from begin.")
    tool_calls: int = Field(ge=1, description="Tool calls one case may make.")


class Task(_Spec):
    """One case of the protocol: a shipped scenario, graded on the state checks it names."""

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    scenario: str = Field(description="The id of a shipped local scenario.")
    checks: list[str] = Field(min_length=1, description="Its checks that grade this case.")
    covers: str = Field(description="What the case exercises, in a few words.")


class Boundary(Task):
    """A case that must end at a boundary with ``stop`` and no crossing."""

    stop: ManualBoundaryStop


class Manifest(_Spec):
    version: int
    title: str
    repetitions: int = Field(ge=1)
    limits: Limits
    fixtures: list[FileSeed] = Field(min_length=1)
    tasks: list[Task] = Field(min_length=1)
    boundaries: list[Boundary] = Field(default_factory=list)

    @model_validator(mode="after")
    def _distinct(self) -> Manifest:
        ids = [c.id for c in self.cases]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"case ids must be distinct: {', '.join(twice)}")
        return self

    @property
    def cases(self) -> list[Task]:
        """Every case: the tasks, then the boundaries."""
        return [*self.tasks, *self.boundaries]

    def case(self, task: str) -> Task:
        for case in self.cases:
            if case.id == task:
                return case
        raise ManualError(
            f"no task {task!r} in the manifest; its tasks: {', '.join(c.id for c in self.cases)}"
        )


def manifest_bytes() -> bytes:
    return resources.files("proctor.manual").joinpath(MANIFEST).read_bytes()


def manifest_hash() -> str:
    """The SHA-256 of the manifest as shipped now (``proctor manual pin`` prints it)."""
    return hashlib.sha256(manifest_bytes()).hexdigest()


def load_manifest() -> Manifest:
    """The manifest, refused unless its SHA-256 is the pinned one.

    Raises:
        ManualError: the file changed since it was pinned, or it does not parse.
    """
    found = manifest_hash()
    if found != PINNED:
        raise ManualError(
            f"the manual manifest changed: its SHA-256 is {found}, the pinned one is {PINNED}. "
            "Every case must run the reviewed protocol, so no command runs on it. If the "
            "change is meant, re-pin it in a reviewed revision: set PINNED in "
            "src/proctor/manual/_manifest.py to the hash `proctor manual pin` prints"
        )
    return _parsed(found)


@cache
def _parsed(digest: str) -> Manifest:
    try:
        return Manifest.model_validate(json.loads(manifest_bytes()))
    except (ValueError, ValidationError) as exc:
        raise ManualError(f"the manual manifest does not parse: {exc}") from exc


def scenario_of(case: Task) -> LoadedScenario:
    """The shipped scenario a case runs, its named checks checked to exist.

    Raises:
        ManualError: the scenario or one of the checks is not there.
    """
    path = SUITE_ROOT / "local" / f"{case.scenario}.yaml"
    if not path.is_file():
        raise ManualError(f"case {case.id}: no shipped local scenario {case.scenario!r}")
    loaded = load_scenario(path)
    names = loaded.scenario.check_names()
    missing = [c for c in case.checks if c not in names]
    if missing:
        raise ManualError(
            f"case {case.id}: scenario {case.scenario} has no check {', '.join(missing)}; "
            f"its checks: {', '.join(names)}"
        )
    return loaded


def package_file() -> Path:
    """Where the shipped manifest is, for messages."""
    return Path(str(resources.files("proctor.manual").joinpath(MANIFEST)))
