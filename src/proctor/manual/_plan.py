"""The schedule: every case x repetition, with the arms' order rotating by repetition."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import NamedTuple

from proctor.errors import ManualError
from proctor.manual._manifest import Manifest

ARM = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
CI_VARIABLES = (
    "CI",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "BUILDKITE",
    "CIRCLECI",
    "TRAVIS",
    "JENKINS_URL",
    "TEAMCITY_VERSION",
    "TF_BUILD",
    "BUILD_NUMBER",
)
"""Variables that mark a CI machine; the protocol never runs on one."""


def refuse_ci() -> None:
    """Refuse to run under CI: the protocol is an operator's, by hand.

    Raises:
        ManualError: naming the variable that marks this machine as CI.
    """
    for name in CI_VARIABLES:
        value = os.environ.get(name, "")
        if value and value.lower() not in ("0", "false", "no"):
            raise ManualError(
                f"proctor manual does not run under CI ({name}={value!r} is set): the manual "
                "comparison is run by an operator, by hand; unset it on the operator's machine"
            )


def parse_arms(text: str) -> list[str]:
    """``a,b,c`` as arm names, distinct and well-formed.

    Raises:
        ManualError: naming the arm that is not valid.
    """
    arms = [a.strip() for a in text.split(",") if a.strip()]
    if not arms:
        raise ManualError("--arms needs at least one arm name, e.g. --arms claude,operator,gpt")
    for arm in arms:
        if not ARM.match(arm):
            raise ManualError(
                f"arm {arm!r} is not a valid name: 1-40 of a-z 0-9 _ -, starting with a letter "
                "or digit"
            )
    twice = sorted({a for a in arms if arms.count(a) > 1})
    if twice:
        raise ManualError(f"arm names must be distinct: {', '.join(twice)} is given twice")
    return arms


def check_arm(arm: str) -> str:
    """One arm name, checked like each of ``parse_arms``.

    Raises:
        ManualError: naming it when it is not valid.
    """
    if "," in arm or not ARM.match(arm):
        raise ManualError(
            f"arm {arm!r} is not a valid name: 1-40 of a-z 0-9 _ -, starting with a letter or digit"
        )
    return arm


class Slot(NamedTuple):
    """One case to run: its repetition, its place in that repetition, the arm and the task."""

    repetition: int
    order: int
    arm: str
    task: str


def rotation(arms: Sequence[str], repetition: int) -> list[str]:
    """The arms' order in ``repetition`` (from 1): A/B/C, then B/C/A, then C/A/B..."""
    shift = (repetition - 1) % len(arms)
    return [*arms[shift:], *arms[:shift]]


def schedule(manifest: Manifest, arms: Sequence[str]) -> list[Slot]:
    """Every case of the manifest for every arm and repetition, in the order to run them.

    Within a repetition each case is run by every arm, in that repetition's rotation.
    """
    slots: list[Slot] = []
    for repetition in range(1, manifest.repetitions + 1):
        order = rotation(arms, repetition)
        n = 0
        for case in manifest.cases:
            for arm in order:
                n += 1
                slots.append(Slot(repetition, n, arm, case.id))
    return slots
