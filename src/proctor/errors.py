"""The one error tree of proctor.

Every error a user can see is a ``ProctorError``. Third-party errors are
translated where they enter (``raise ComputerError(...) from exc``), so callers
never catch Playwright's, uvicorn's or pydantic's types::

    ProctorError
    ├── ScenarioError      a scenario file is missing, malformed or invalid
    ├── WorldError         the fixture server, its sites or scratch files failed
    ├── ComputerError      the browser could not be launched or driven
    │   └── LimitReached   a tool-call, step or wall limit stopped the agent
    ├── AgentError         an agent could not be built or crashed
    ├── ProviderFault      a model provider failed after retries: infra, never scored
    ├── GradingError       a check could not be evaluated
    └── RunError           a run could not be planned, executed or recorded

Each message says what went wrong, where (file, field, scenario, attempt) and
what to do about it.
"""

from __future__ import annotations


class ProctorError(Exception):
    """Base of every error proctor reports to a user."""


class ScenarioError(ProctorError):
    """A scenario file is missing, malformed or fails validation."""


class WorldError(ProctorError):
    """The fixture world (server, sites, scratch files) failed."""


class ComputerError(ProctorError):
    """The browser could not be launched or driven."""


class LimitReached(ComputerError):
    """A limit of the attempt was reached; ``reason`` is the stop reason."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class AgentError(ProctorError):
    """An agent could not be built, or failed outside the toolset."""


class ProviderFault(ProctorError):
    """A model provider failed (429/5xx/timeout after retries, auth, bad request).

    Like a browser crash it is an infra fault: recorded, retried by the runner
    and never counted against the model.
    """


class GradingError(ProctorError):
    """A check could not be evaluated against the end state."""


class RunError(ProctorError):
    """A run could not be planned, executed or recorded."""


__all__ = [
    "AgentError",
    "ComputerError",
    "GradingError",
    "LimitReached",
    "ProctorError",
    "ProviderFault",
    "RunError",
    "ScenarioError",
    "WorldError",
]
