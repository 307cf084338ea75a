"""proctor: measures what computer-use and browser agents actually do.

The API (``proctor.run``, ``proctor.gate``, ``proctor.models``, ``RunSettings``, ...)
lives in ``proctor.api`` and is imported on first use, so ``import proctor`` stays light.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from proctor.api import (
        Gate,
        GateResult,
        GateSpec,
        Models,
        ModelsOutcome,
        Run,
        RunFolder,
        RunOutcome,
        RunSettings,
        gate,
        models,
        run,
        select_scenarios,
    )

__version__ = "0.1.0"

_API = (
    "Gate",
    "GateResult",
    "GateSpec",
    "Models",
    "ModelsOutcome",
    "Run",
    "RunFolder",
    "RunOutcome",
    "RunSettings",
    "gate",
    "models",
    "run",
    "select_scenarios",
)

__all__ = [
    "Gate",
    "GateResult",
    "GateSpec",
    "Models",
    "ModelsOutcome",
    "Run",
    "RunFolder",
    "RunOutcome",
    "RunSettings",
    "__version__",
    "gate",
    "models",
    "run",
    "select_scenarios",
]


def __getattr__(name: str) -> Any:
    if name in _API:
        from proctor import api

        return getattr(api, name)
    raise AttributeError(f"module 'proctor' has no attribute {name!r}")
