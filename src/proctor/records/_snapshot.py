"""What every end-state snapshot is (``Snapshot``, its items ``Part``), and reading one.

Grading reads a snapshot through ``EndState.app(MailSnapshot)``, which validates the
raw dict into its model (``read_snapshot``); the models are exact, so a key renamed on
one side fails loudly at the grading boundary.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from proctor.errors import GradingError


class Part(BaseModel):
    """An item inside a snapshot: exact and immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Snapshot(Part):
    """One site's end-state snapshot; ``site`` names its key in ``EndState.apps``."""

    site: ClassVar[str]


S = TypeVar("S", bound=Snapshot)


def read_snapshot(apps: Mapping[str, Any], model: type[S]) -> S | None:
    """``apps[model.site]`` validated into ``model``; None when the site has no snapshot.

    Raises:
        GradingError: the snapshot does not have the model's shape; the message
            names the site and each wrong field.
    """
    raw = apps.get(model.site)
    if raw is None:
        return None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        wrong = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()[:5]
        )
        raise GradingError(
            f"the {model.site} snapshot in the end state does not have the shape grading "
            f"reads ({model.__name__}): {wrong}; the site's snapshot and "
            f"proctor.records.{model.__name__} must change together"
        ) from exc
