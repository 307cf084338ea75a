"""What one evaluator finds: the outcome of one check over the end state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from proctor.records import EndState


@dataclass(frozen=True)
class CheckOutcome:
    """One leaf check's verdict, before it is recorded as a ``CheckResult``."""

    passed: bool
    expected: Any = None
    """What the check wanted, as the result shows it."""
    actual: Any = None
    """What the end state held, as the result shows it."""
    detail: str = ""
    """Why it failed, or what is worth knowing; empty when there is nothing to add."""


Evaluator = Callable[[Any, EndState], CheckOutcome]
"""An evaluator: (the check's argument model, the end state) -> its outcome."""
