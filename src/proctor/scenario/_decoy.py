"""A decoy: a known-wrong path that must fail on the checks it names, its steps marked
with how each is expected to end."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proctor.computer.actions import Action
from proctor.scenario._issues import short_repr
from proctor.vocab import (
    STEP_EXPECTS,
    StepExpect,
)


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


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
