"""The two sides of a gate as given on the command line: a stored run, or an arm to run.

``--baseline``/``--candidate`` take either a run label (``LABEL``, or
``LABEL/ARM`` for one arm of a run that holds several) or an arm spec
(``scripted``, ``decoy:NAME``, ``command:CMD``, ``NAME=SPEC``). A run label
that exists under the results folder wins over an arm spec of the same text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from proctor.compare import CANARY_ARM
from proctor.errors import ProctorError, RunError
from proctor.records import AttemptRecord
from proctor.report import labels, load_run
from proctor.runner._plan import Arm, parse_arm
from proctor.vocab import SideRole


@dataclass(frozen=True)
class RunSide:
    """A side read from a stored run."""

    role: SideRole
    label: str
    arm: str | None
    """Only this arm's attempts; None when the run holds one arm."""
    records: tuple[AttemptRecord, ...]
    failure: str | None
    """Why the stored run cannot be trusted (it did not finish); None when it did."""
    canary: tuple[AttemptRecord, ...] = ()
    """The run's harness canary attempts (arm ``canary``), in no side's records."""

    @property
    def name(self) -> str:
        return self.label if self.arm is None else f"{self.label}/{self.arm}"


@dataclass(frozen=True)
class ArmSide:
    """A side to run now, with this arm."""

    role: SideRole
    arm: Arm
    title: str = ""
    """How the verdict names the side; ``NAME (SPEC)`` when empty."""

    @property
    def name(self) -> str:
        return self.title or f"{self.arm.name} ({self.arm.spec})"


SideSpec = RunSide | ArmSide


def _run_side(role: SideRole, results: Path, label: str, arm: str | None) -> RunSide:
    run = load_run(results, label)
    canary = tuple(r for r in run.records if r.arm == CANARY_ARM)
    own = [r for r in run.records if r.arm != CANARY_ARM]
    records = [r for r in own if arm is None or r.arm == arm]
    arms = sorted({r.arm for r in own})
    if arm is not None and not records:
        raise RunError(
            f"--{role} {label}/{arm}: run {label!r} has no arm {arm!r}; its arms: {', '.join(arms)}"
        )
    if arm is None and len(arms) > 1:
        raise RunError(
            f"--{role} {label}: the run holds the arms {', '.join(arms)}; "
            f"name one, e.g. --{role} {label}/{arms[0]}"
        )
    failure = None
    if not (run.run_dir / "summary.json").is_file():
        failure = (
            f"results/{label} has no summary.json, so the run did not finish; "
            f"finish it with `proctor run --label {label} --resume`"
        )
    return RunSide(role, label, arm, tuple(records), failure, canary)


def _named(role: SideRole, text: str) -> Arm:
    """The arm of ``text``, named after its role unless ``text`` names it (``NAME=SPEC``)."""
    name, sep, _ = text.partition("=")
    explicit = bool(sep) and ":" not in name and bool(name.strip())
    return parse_arm(text if explicit else f"{role}={text}")


def resolve_side(role: SideRole, text: str, results: Path) -> SideSpec:
    """A stored run when ``text`` names one under ``results``, else an arm spec.

    Raises:
        RunError: when ``text`` is neither, naming the forms and the runs there.
    """
    text = text.strip()
    known = set(labels(results))
    if text in known:
        return _run_side(role, results, text, None)
    head, sep, tail = text.partition("/")
    if sep and head in known and tail and "/" not in tail:
        return _run_side(role, results, head, tail)
    try:
        return ArmSide(role, _named(role, text))
    except ProctorError as exc:
        runs = sorted(known)[-5:]
        raise RunError(
            f"--{role} {text!r}: no run {text!r} under {results}/ "
            f"({'runs: ' + ', '.join(runs) if runs else 'there are no runs'}), "
            f"and not an arm spec: {exc}"
        ) from exc
