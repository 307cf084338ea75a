"""A scenario's cross-field problems, each located like the YAML (``decoys[0].fails[1]``),
and how a raw YAML value is shown in a message."""

from __future__ import annotations

from typing import NamedTuple


class SpecIssue(NamedTuple):
    """One cross-field problem of a scenario, located like the YAML: ``decoys[0].fails[1]``."""

    field: str
    message: str
    hint: str = ""


class SpecIssues(ValueError):
    """Cross-field problems; pydantic reports them at the model, so they carry their own paths."""

    def __init__(self, issues: list[SpecIssue]) -> None:
        super().__init__(
            "; ".join(
                f"{i.field}: {i.message}" + (f" ({i.hint})" if i.hint else "") for i in issues
            )
        )
        self.issues = issues


def short_repr(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about raw YAML values."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print in decimal
        return "a number too large to show"
    return text if len(text) <= limit else text[: limit - 3] + "..."
