"""``summary``: per arm, against the manifest's denominators, nulls kept, boundaries apart.

Each arm's task denominator is the manifest's tasks x repetitions (8 x 3 = 24),
whatever was run: a case never prepared, or prepared and never graded, is
missing, and counts as not passed. Boundary cases have their own denominator.
A count an arm hides stays null: the median is over the cases that gave it, and
how many hid it is said.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

from pydantic import ValidationError

from proctor.errors import ManualError
from proctor.manual._case import CASE, GRADE
from proctor.manual._grade import CaseGrade
from proctor.manual._manifest import Manifest


def find_cases(roots: Iterable[Path]) -> list[Path]:
    """Every case folder at or under ``roots`` (a folder holding case.json).

    Raises:
        ManualError: a root does not exist, or no root holds a case: a summary of
            nothing would read as every case missing.
    """
    found: list[Path] = []
    roots = list(roots)
    for root in roots:
        if not root.exists():
            raise ManualError(f"{root}: no such folder")
        if (root / CASE).is_file():
            found.append(root)
            continue
        found += sorted(p.parent for p in root.rglob(CASE))
    if not found:
        where = ", ".join(str(r) for r in roots) or "no folder given"
        raise ManualError(
            f"no case folder (one holding {CASE}) in {where}; name the folder that holds "
            "the cases, or make one with `proctor manual prepare FOLDER ARM TASK REPETITION`"
        )
    return found


def read_grade(folder: Path) -> CaseGrade | None:
    path = folder / GRADE
    if not path.is_file():
        return None
    try:
        return CaseGrade.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, ValidationError) as exc:
        raise ManualError(f"{path} is not a valid grade ({exc}); run grade again") from exc


@dataclass
class Metric:
    """One count over an arm's graded cases, with how many hid it."""

    values: list[float] = field(default_factory=list)
    hidden: int = 0

    def text(self, unit: str = "") -> str:
        if not self.values:
            return "null" + (f" (hidden in {self.hidden})" if self.hidden else "")
        shown = f"median {median(self.values):g}{unit} over {len(self.values)}"
        return shown + (f"; null in {self.hidden}" if self.hidden else "")


@dataclass
class ArmSummary:
    arm: str
    expected: int
    boundary_expected: int
    passed: int = 0
    failed: list[str] = field(default_factory=list)
    unavailable: int = 0
    over_limit: int = 0
    incomplete: int = 0
    boundaries_held: int = 0
    boundaries_broken: list[str] = field(default_factory=list)
    seconds: Metric = field(default_factory=Metric)
    tool_calls: Metric = field(default_factory=Metric)
    model_calls: Metric = field(default_factory=Metric)
    inputs: Metric = field(default_factory=Metric)
    cost: Metric = field(default_factory=Metric)
    interventions: int = 0
    rescued: int = 0
    seen: set[tuple[str, str, int]] = field(default_factory=set)
    """(kind, task, repetition) of each graded case."""
    duplicates: list[str] = field(default_factory=list)

    @property
    def missing(self) -> int:
        """Task cases of the manifest with no grade (never run, or not graded)."""
        return self.expected - len([k for k in self.seen if k[0] == "task"])

    @property
    def boundary_missing(self) -> int:
        return self.boundary_expected - len([k for k in self.seen if k[0] == "boundary"])


def summarize(
    manifest: Manifest, folders: Sequence[Path], arms: Sequence[str] = ()
) -> list[ArmSummary]:
    """Per arm (those given, then any other found), the manifest's denominators filled in."""
    grades = [(f, read_grade(f)) for f in folders]
    names = list(arms) + sorted({g.arm for _, g in grades if g is not None} - set(arms))
    expected = len(manifest.tasks) * manifest.repetitions
    bounds = len(manifest.boundaries) * manifest.repetitions
    out = {a: ArmSummary(a, expected, bounds) for a in names}
    for folder, g in grades:
        if g is None or g.arm not in out:
            continue
        s = out[g.arm]
        label = f"{g.task}#{g.repetition} ({folder})"
        key = (g.kind, g.task, g.repetition)
        if key in s.seen:
            s.duplicates.append(label)  # one case run twice: only the first counts
            continue
        s.seen.add(key)
        if g.kind == "boundary":
            if g.boundary is not None and g.boundary.held and g.verdict == "passed":
                s.boundaries_held += 1
            else:
                s.boundaries_broken.append(f"{label}: {'; '.join(g.reasons) or g.verdict}")
            continue
        match g.verdict:
            case "passed":
                s.passed += 1
            case "failed":
                s.failed.append(f"{label}: {'; '.join(g.reasons)}")
            case "unavailable":
                s.unavailable += 1
            case "over_limit":
                s.over_limit += 1
                s.failed.append(f"{label}: {'; '.join(g.reasons)}")
            case "incomplete":
                s.incomplete += 1
        s.interventions += g.interventions
        s.rescued += g.rescued
        if g.seconds is not None:
            s.seconds.values.append(g.seconds)
        for metric, value in (
            (s.tool_calls, g.counts.get("tool_calls")),
            (s.model_calls, g.counts.get("model_calls")),
            (s.inputs, g.counts.get("primitive_inputs")),
            (s.cost, g.cost_usd),
        ):
            if value is None:
                metric.hidden += 1
            else:
                metric.values.append(float(value))
    return list(out.values())


def render(summaries: Sequence[ArmSummary]) -> str:
    """The summary as text: one block per arm."""
    lines: list[str] = []
    for s in summaries:
        lines.append(f"arm {s.arm}")
        lines.append(
            f"  tasks: {s.passed}/{s.expected} passed; {len(s.failed)} failed "
            f"({s.over_limit} over a limit), {s.unavailable} unavailable, "
            f"{s.incomplete} incomplete, {s.missing} missing"
        )
        if s.unavailable and s.unavailable == s.expected - s.missing:
            lines.append("  the arm was unavailable on every case it ran")
        lines.append(f"  seconds: {s.seconds.text(' s')}")
        lines.append(f"  tool calls: {s.tool_calls.text()}")
        lines.append(f"  model calls: {s.model_calls.text()}")
        lines.append(f"  primitive inputs: {s.inputs.text()}")
        lines.append(f"  cost: {s.cost.text(' USD')}")
        lines.append(f"  interventions: {s.interventions} ({s.rescued} rescued the task)")
        lines.append(
            f"  boundaries: {s.boundaries_held}/{s.boundary_expected} held, "
            f"{len(s.boundaries_broken)} broken, {s.boundary_missing} missing"
        )
        lines += [f"    failed {f}" for f in s.failed]
        lines += [f"    counted once, also graded in {d}" for d in s.duplicates]
        lines += [f"    boundary broken {b}" for b in s.boundaries_broken]
    return "\n".join(lines)
