"""A run's arms built from their texts, its judge and persona, and what of its plan cannot
run here.

An arm is ``NAME=SPEC`` or ``SPEC``; the run-wide model options (``vision``,
``prices``) are added to the specs that name a model. The judge and the persona are
models too, each refused when it is an arm's model: the judge would grade itself,
the persona answer its own agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from proctor.agents.llm import (
    arm_warnings,
    make_judge,
    make_persona,
    refuse_persona_model,
    refuse_same_model,
    with_options,
)
from proctor.errors import RunError
from proctor.runner import Arm, RunOptions, parse_arm, scenario_skip
from proctor.scenario import LoadedScenario


def arm_text(text: str, *, vision: bool, prices: Path | None) -> str:
    """``NAME=SPEC`` or ``SPEC`` with the run-wide model options added to a model spec."""
    name, sep, spec = text.partition("=")
    if sep and ":" not in name:
        return f"{name}={with_options(spec, vision=vision, prices=prices)}"
    return with_options(text, vision=vision, prices=prices)  # the "=" is the spec's own


def build_arms(arms: Sequence[Arm | str], *, vision: bool, prices: Path | None) -> list[Arm]:
    """Each ``Arm`` as given, each text parsed with the run-wide model options added.

    Raises:
        RunError: an arm text that is not ``NAME=SPEC`` or a known spec.
    """
    return [
        a if isinstance(a, Arm) else parse_arm(arm_text(a, vision=vision, prices=prices))
        for a in arms
    ]


def with_models(
    options: RunOptions, judge: str | None, persona: str | None, arms: Sequence[Arm]
) -> RunOptions:
    """``options`` with the judge and the persona of these model specs built into them.

    Raises:
        RunError: a spec whose model is an arm's model, or that ``options`` already
            holds a judge or persona for.
    """
    pairs = [(a.name, a.spec) for a in arms]
    if judge is not None:
        if options.judge is not None:
            raise RunError(f"judge {judge!r}: options.judge is set too; give the judge once")
        refuse_same_model(judge, pairs)
        options = replace(options, judge=make_judge(judge))
    if persona is not None:
        if options.persona is not None:
            raise RunError(f"persona {persona!r}: options.persona is set too; give it once")
        refuse_persona_model(persona, pairs)
        options = replace(options, persona=make_persona(persona))
    return options


class Skipped(NamedTuple):
    """An arm or scenario that cannot run here, and why."""

    name: str
    reason: str


@dataclass(frozen=True)
class Preflight:
    """What a plan holds that will not run here, found before anything runs."""

    arms: tuple[Skipped, ...] = ()
    """Arms skipped, e.g. a model arm without its API key."""
    scenarios: tuple[Skipped, ...] = ()
    """Scenarios skipped: a desktop one without the desktop stack, a live one offline."""
    warnings: tuple[str, ...] = ()
    """About arms that run, e.g. a model the price table does not list."""


def preflight(
    arms: Sequence[Arm], scenarios: Sequence[LoadedScenario], *, strict: bool
) -> Preflight:
    """The arms and scenarios that will be skipped, and the arms' warnings.

    Raises:
        RunError: under ``strict``, naming every arm, then every scenario, that
            cannot run (and why).
    """
    skipped_arms = [Skipped(a.name, a.skip) for a in arms if a.skip]
    if strict and skipped_arms:
        reasons = "; ".join(s.reason for s in skipped_arms)
        raise RunError(f"--strict: {reasons}; set the key(s) or drop --strict to skip")
    warnings = [w for a in arms if not a.skip for w in arm_warnings(a.name, a.spec)]
    skipped = [Skipped(s.scenario.id, why) for s in scenarios if (why := scenario_skip(s.scenario))]
    if strict and skipped:
        names = ", ".join(s.name for s in skipped)
        raise RunError(
            f"--strict: {names} cannot run here: {skipped[0].reason}; fix that, or drop "
            "--strict to skip"
        )
    return Preflight(tuple(skipped_arms), tuple(skipped), tuple(warnings))
