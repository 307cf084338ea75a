"""The check kinds, their argument models and their evaluators are one set, entry for entry."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import pytest

from proctor.grading import EVALUATORS, CheckOutcome
from proctor.scenario import CHECK_ARGS, CHECK_MODELS, CHECK_TYPES, AllCheck, AnyCheck


def test_kinds_models_and_evaluators_are_the_same_set() -> None:
    assert set(CHECK_ARGS) == set(EVALUATORS)
    assert set(CHECK_MODELS) == set(CHECK_ARGS) | {"all", "any", "after_event"}
    assert tuple(CHECK_MODELS) == CHECK_TYPES
    assert (CHECK_MODELS["all"], CHECK_MODELS["any"]) == (AllCheck, AnyCheck)


@pytest.mark.parametrize("kind", sorted(CHECK_ARGS))
def test_each_evaluator_takes_its_kinds_arguments_and_returns_an_outcome(kind: str) -> None:
    evaluator = EVALUATORS[kind]
    hints = typing.get_type_hints(evaluator)
    first = next(iter(inspect.signature(evaluator).parameters))
    assert hints[first] is CHECK_ARGS[kind]
    assert hints["return"] is CheckOutcome


@pytest.mark.parametrize("kind", sorted(CHECK_ARGS))
def test_each_wrapper_is_the_one_key_mapping_of_its_arguments(kind: str) -> None:
    model = CHECK_MODELS[kind]
    assert model.kind == kind
    assert list(model.model_fields) == [kind]
    assert model.model_fields[kind].annotation is CHECK_ARGS[kind]
    assert model.model_config.get("extra") == "forbid"


def test_an_outcome_is_frozen() -> None:
    outcome = CheckOutcome(True, 1, 1, "")
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.passed = False  # type: ignore[misc]
