"""How a run is made: the one keyword list that ``run``, ``gate`` and ``models`` share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proctor.errors import RunError
from proctor.report import Targets
from proctor.runner import RunOptions
from proctor.vocab import ExecutorKind


@dataclass(frozen=True, kw_only=True)
class RunSettings:
    """Where a run goes, how often each attempt runs, where, and what holds it back.

    ``proctor.run``, ``proctor.models`` and ``proctor.gate`` take these; a gate
    runs inline in one new run, so it refuses the fields it cannot honour.
    """

    repeat: int = 1
    """Attempts per scenario x arm (a gate needs five to reach NO-GO)."""
    results: Path = Path("results")
    """The results folder; the run is ``results/<label>/``."""
    label: str | None = None
    """The run's label: 1-100 of A-Z a-z 0-9 . _ -; None: the time."""
    resume: bool = False
    """Continue the run ``label``, skipping its done attempts."""
    options: RunOptions = field(default_factory=RunOptions)
    """How attempts run: retries, scratch, screenshots, time scale, the clock."""
    vision: bool = False
    """Send model arms a screenshot with each observation (``+vision``)."""
    prices: Path | None = None
    """A price table (TOML) for model arms instead of the shipped one (``+prices=``)."""
    judge: str | None = None
    """Model spec of the independent judge for scenarios' ``judge:`` criteria, built into
    ``options.judge``; refused when it is an arm's model."""
    persona: str | None = None
    """Model spec that plays the simulated user where its script has no answer, built into
    ``options.persona``; refused when it is an arm's model."""
    strict: bool = False
    """Refuse an arm or scenario that cannot run here instead of skipping it, and let live
    failures fail the run."""
    targets: Targets | None = None
    """The bars the report holds the run to; None: no bars."""
    reports: bool = True
    """Write summary.json, report.md, report.html and history.jsonl (calibrate does not)."""
    executor: ExecutorKind = "inline"
    """Where attempts run; the results tree is the same."""
    workers: int = 1
    ray_address: str | None = None
    """A Ray cluster to join (``executor="ray"``); None: a local one."""
    budget_usd: float | None = None
    """No attempt starts once spent $ plus the in-flight estimate would pass it."""
    config: Mapping[str, Any] = field(default_factory=dict)
    """Entries run.json's config holds before the plan's own (the command's selection)."""


def refuse_unhonoured(settings: RunSettings, names: tuple[str, ...], what: str) -> None:
    """Refuse settings ``names`` that differ from their defaults: ``what`` ignores them.

    Raises:
        RunError: naming every such setting.
    """
    default = RunSettings()
    changed = [name for name in names if getattr(settings, name) != getattr(default, name)]
    if changed:
        raise RunError(f"{what} cannot honour {', '.join(changed)}; leave them at their defaults")
