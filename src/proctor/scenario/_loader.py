"""Load scenario files: YAML to a validated, frozen ``Scenario``.

Every problem becomes a ``Problem`` naming the file, the field path (e.g.
``checks[2].submitted.route``) or the line, and a hint. ``load_scenario`` raises
a ``ScenarioError`` listing all of them; ``problems_in`` returns them.

Turning pydantic's errors into such problems is ``_errors``'s job.

A file goes through, in order: the hardened YAML reader (``_yaml``: no aliases,
no duplicate keys, bounded depth, no NUL), the placeholder grammar
(``_placeholders``), then pydantic. Each pass is linear in the file's size.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from proctor.errors import ScenarioError
from proctor.scenario._errors import Problem, closest, problem_of, validation_problems
from proctor.scenario._issues import short_repr
from proctor.scenario._placeholders import placeholder_issues
from proctor.scenario._references import reference_problems
from proctor.scenario._spec import Scenario
from proctor.scenario._yaml import YamlProblem, read_yaml, walk

__all__ = ["LoadedScenario", "Problem", "load_scenario", "problems_in", "try_load"]


@dataclass(frozen=True)
class LoadedScenario:
    """A validated scenario and where it came from."""

    scenario: Scenario
    path: Path
    sha256: str


def _site_problems(declared: list[str], file: str, sites: Collection[str]) -> list[Problem]:
    problems: list[Problem] = []
    for i, site in enumerate(declared):
        if site not in sites:
            guess = closest(site, sites)
            problems.append(
                Problem(
                    file,
                    f"world.sites[{i}]",
                    f"unknown site {site!r}",
                    (f"did you mean {guess!r}? " if guess else "")
                    + f"sites: {', '.join(sorted(sites))}",
                )
            )
    return problems


def _declared(data: dict[Any, Any]) -> list[str]:
    """The site names a raw document declares in world.sites."""
    world = data.get("world")
    declared = world.get("sites", []) if isinstance(world, dict) else []
    return [s for s in declared if isinstance(s, str)] if isinstance(declared, list) else []


def try_load(
    path: Path, sites: Collection[str] | None = None
) -> tuple[LoadedScenario | None, list[Problem]]:
    """The scenario and no problems, or None and every problem; parses the file once."""
    try:
        return _load(path, sites), []
    except _Invalid as exc:
        return None, exc.problems


def problems_in(path: Path, sites: Collection[str] | None = None) -> list[Problem]:
    """Every problem in one scenario file; empty when it is valid."""
    try:
        _load(path, sites)
    except _Invalid as exc:
        return exc.problems
    return []


class _Invalid(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems


def _load(path: Path, sites: Collection[str] | None) -> LoadedScenario:
    file = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise _Invalid([Problem(file, "", f"cannot read the file: {exc.strerror}")]) from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        problem = Problem(file, f"line {line}", "not UTF-8 text", "save the file as UTF-8")
        raise _Invalid([problem]) from None
    try:
        document = read_yaml(text, raw)
    except YamlProblem as exc:
        raise _Invalid([Problem(file, exc.where, exc.message, exc.hint)]) from None
    data = document.data
    if not isinstance(data, dict):
        raise _Invalid(
            [Problem(file, "", "a scenario file must be a YAML mapping", "start with `id: ...`")]
        )
    walked = walk(data, document.duplicates)
    problems = [problem_of(file, issue) for issue in walked.issues]
    stem = path.stem
    if data.get("id") != stem:
        sid = data.get("id")
        problems.append(
            Problem(
                file,
                "id",
                f"id {short_repr(sid)} differs from the file name {stem!r}",
                f"set `id: {stem}`"
                + (f" or rename the file to {sid}.yaml" if isinstance(sid, str) else ""),
            )
        )
    declared = _declared(data)
    problems.extend(problem_of(file, i) for i in placeholder_issues(walked.braced, declared))
    if sites is not None:
        problems.extend(_site_problems(declared, file, sites))
    if walked.blocking:
        raise _Invalid(problems)
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        problems.extend(validation_problems(file, exc, data, problems))
        raise _Invalid(problems) from exc
    problems.extend(reference_problems(scenario, file, sites))
    if problems:
        raise _Invalid(problems)
    return LoadedScenario(scenario, path, hashlib.sha256(raw).hexdigest())


def load_scenario(path: Path, sites: Collection[str] | None = None) -> LoadedScenario:
    """Load and validate one scenario file.

    Raises:
        ScenarioError: listing every problem, each with file, field and hint.
    """
    try:
        return _load(path, sites)
    except _Invalid as exc:
        lines = "\n".join(f"  {p}" for p in exc.problems)
        raise ScenarioError(f"{path} is not a valid scenario:\n{lines}") from None
