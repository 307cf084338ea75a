"""The one error tree of proctor.

Every error a user can see is a ``ProctorError``. Third-party errors are
translated where they enter (``raise ComputerError(...) from exc``), so callers
never catch Playwright's, uvicorn's or pydantic's types::

    ProctorError
    ├── ScenarioError      a scenario file is missing, malformed or invalid
    ├── WorldError         the fixture server, its sites or scratch files failed
    │   └── LiveFault      the harness's own read of a live page failed: infra, never scored
    ├── ComputerError      the browser or the desktop could not be launched or driven
    │   ├── LimitReached   a tool-call, step or wall limit stopped the agent
    │   ├── DesktopError   a desktop control could not be found or driven (the step fails)
    │   │   ├── NodeNotFound   no node has that ref, or that role and name
    │   │   └── ActionFailed   the node refused the verb
    │   └── BrowserFault   the browser itself failed (crash, disconnect): infra, never scored
    │       ├── SetupFault the attempt's starting state could not be reached
    │       └── DesktopFault   the desktop itself failed: infra, retried, never scored
    │           ├── DesktopUnavailable  the stack is missing (gi, Xvfb, dbus, at-spi)
    │           ├── SessionStartFailed  Xvfb, the session bus or the AT-SPI bus did not start
    │           ├── AppLaunchFailed     the app could not be started, or died
    │           └── WindowUnavailable   the app ran but showed no window
    ├── AgentError         an agent could not be built or crashed
    ├── ProviderFault      a model provider failed after retries: infra, never scored
    ├── GradingError       a check could not be evaluated
    └── RunError           a run could not be planned, executed or recorded
        └── StorageError   the results folder could not be written (read-only, full, a file)

Each message says what went wrong, where (file, field, scenario, attempt) and
what to do about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from proctor.vocab import LimitReason


class ProctorError(Exception):
    """Base of every error proctor reports to a user."""


class ScenarioError(ProctorError):
    """A scenario file is missing, malformed or fails validation."""


class WorldError(ProctorError):
    """The fixture world (server, sites, scratch files) failed."""


class LiveFault(WorldError):
    """The harness's own read of a live page failed (the network, a timeout, a 5xx or 429
    answer): an infra fault of kind ``live``, retried and never scored."""


class ComputerError(ProctorError):
    """The browser could not be launched or driven."""


class LimitReached(ComputerError):
    """A limit of the attempt was reached; ``reason`` is the stop reason."""

    def __init__(self, reason: LimitReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class BrowserFault(ComputerError):
    """The browser itself failed (crash, disconnect): retried, never scored.

    An infra fault of kind ``browser``; ``proctor.records.InfraFault`` is its record.
    """


class SetupFault(BrowserFault):
    """The attempt's starting state could not be reached (e.g. the start page did not load)."""


class DesktopError(ComputerError):
    """A desktop control could not be found or driven; the step fails, the attempt goes on."""


class NodeNotFound(DesktopError):
    """No node of the observed window matched; ``candidates`` are the nearest lines."""

    def __init__(self, message: str, candidates: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class ActionFailed(DesktopError):
    """The node exists but the verb could not be done on it."""


class DesktopFault(BrowserFault):
    """The desktop session or its app failed: an infra fault, retried and never scored."""


class DesktopUnavailable(DesktopFault):
    """A piece of the desktop stack is missing from this machine."""


class SessionStartFailed(DesktopFault):
    """A step of the session's start (``step``) failed; the message holds its stderr tail."""

    def __init__(self, step: str, message: str) -> None:
        super().__init__(message)
        self.step = step


class AppLaunchFailed(DesktopFault):
    """The app could not be started, exited, or stopped answering."""


class WindowUnavailable(DesktopFault):
    """The app was running but no window of it reached the accessibility tree, twice."""

    cause: Literal["window_unavailable"] = "window_unavailable"


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


class ManualError(ProctorError):
    """A manual-comparison command was refused: a changed manifest, a case in the wrong
    state, bad input, or a CI machine (the protocol is run by hand, never by CI)."""


class StorageError(RunError):
    """A results file or folder could not be written: read-only, full, not a folder, too long.

    The message names the path, the reason and what to do; ``errno`` is the
    operating system's error number.
    """

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno


__all__ = [
    "ActionFailed",
    "AgentError",
    "AppLaunchFailed",
    "BrowserFault",
    "ComputerError",
    "DesktopError",
    "DesktopFault",
    "DesktopUnavailable",
    "GradingError",
    "LimitReached",
    "LiveFault",
    "ManualError",
    "NodeNotFound",
    "ProctorError",
    "ProviderFault",
    "RunError",
    "ScenarioError",
    "SessionStartFailed",
    "SetupFault",
    "StorageError",
    "WindowUnavailable",
    "WorldError",
]
