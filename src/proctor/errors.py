"""The one error tree of proctor.

Every error a user can see is a ``ProctorError``. Third-party errors are
translated where they enter (``raise ComputerError(...) from exc``), so callers
never catch Playwright's, uvicorn's or pydantic's types::

    ProctorError
    ├── ScenarioError      a scenario file is missing, malformed or invalid
    ├── InfraFault         infra: the try is retried, recorded under the fault's kind, never scored
    │   ├── WorldError     [fixture]  the fixture server, its sites or scratch files failed
    │   │   ├── FixtureFault  [fixture]  a fixture handler raised during the try
    │   │   └── LiveFault     [live]     the harness's own read of a live page failed
    │   └── ProviderFault  [provider]  a model provider failed after retries
    ├── ComputerError      the browser or the desktop could not be launched or driven
    │   ├── LimitReached   a tool-call, step or wall limit stopped the agent
    │   ├── DesktopError   a desktop control could not be found or driven (the step fails)
    │   │   ├── NodeNotFound   no node has that ref, or that role and name
    │   │   └── ActionFailed   the node refused the verb
    │   ├── BrowserFault   [browser]  the browser itself failed (crash, disconnect, a stall)
    │   ├── SetupFault     [setup]    the attempt's starting state could not be reached
    │   └── DesktopFault   [desktop]  the desktop session or an app of it failed
    │       ├── DesktopUnavailable  [desktop]  the stack is missing (gi, Xvfb, dbus, at-spi)
    │       ├── SessionStartFailed  [desktop]  Xvfb, the session bus or the AT-SPI bus did not start
    │       ├── AppLaunchFailed     [desktop]  the app could not be started, or died
    │       └── WindowUnavailable   [window_unavailable]  the app ran but showed no window
    ├── AgentError         an agent could not be built or crashed (scored against the agent)
    │   ├── PlannerError   the model gave no usable action several times in a row
    │   └── ProxyUnreachable  a destination the agent's proxy may reach failed (502/504)
    ├── GradingError       a check could not be evaluated
    ├── RunError           a run could not be planned, executed or recorded
    │   └── StorageError   the results folder could not be written (read-only, full, a file)
    └── ManualError        a manual-comparison command was refused

A class marked ``[kind]`` is an ``InfraFault`` whose ``kind`` (a ``vocab.FaultKind``)
is that word; the three under ``ComputerError`` have ``InfraFault`` as their second
base. The runner catches ``InfraFault`` and records ``exc.kind``: the type is the
kind. The kind ``worker`` has no exception: the driver records it when a worker
dies or passes the try's deadline.

Each message says what went wrong, where (file, field, scenario, attempt) and
what to do about it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from proctor.vocab import FAULT_KINDS

if TYPE_CHECKING:
    from proctor.vocab import FaultKind, LimitReason


class ProctorError(Exception):
    """Base of every error proctor reports to a user."""


class ScenarioError(ProctorError):
    """A scenario file is missing, malformed or fails validation."""


class InfraFault(ProctorError):
    """Infra, never scored: the try it ends is retried and recorded under ``kind``.

    Never raised itself: each subclass names its fault kind, and one that does
    not (or names a word outside ``vocab.FaultKind``) is refused when defined.
    """

    kind: ClassVar[FaultKind]
    """How the try's fault is recorded (``records.InfraFault.kind``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = getattr(cls, "kind", None)
        if kind not in FAULT_KINDS:
            raise TypeError(
                f"{cls.__qualname__}: an InfraFault names its fault kind in the class "
                f"attribute kind, one of {', '.join(FAULT_KINDS)} (vocab.FaultKind); "
                f"it has {kind!r}"
            )


class WorldError(InfraFault):
    """The fixture world (server, sites, scratch files) failed: during a try, an infra
    fault of kind ``fixture``."""

    kind: ClassVar[FaultKind] = "fixture"


class FixtureFault(WorldError):
    """A fixture handler raised during the try (the server's request log holds it)."""

    kind: ClassVar[FaultKind] = "fixture"


class LiveFault(WorldError):
    """The harness's own read of a live page failed (the network, a timeout, a 5xx or 429
    answer): an infra fault of kind ``live``, retried and never scored."""

    kind: ClassVar[FaultKind] = "live"


class ProviderFault(InfraFault):
    """A model provider failed (429/5xx/timeout after retries, auth, bad request).

    Like a browser crash it is an infra fault: recorded, retried by the runner
    and never counted against the model.
    """

    kind: ClassVar[FaultKind] = "provider"


class ComputerError(ProctorError):
    """The browser or the desktop could not be launched or driven."""


class LimitReached(ComputerError):
    """A limit of the attempt was reached; ``reason`` is the stop reason."""

    def __init__(self, reason: LimitReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class DesktopError(ComputerError):
    """A desktop control could not be found or driven; the step fails, the attempt goes on."""


class NodeNotFound(DesktopError):
    """No node of the observed window matched; ``candidates`` are the nearest lines."""

    def __init__(self, message: str, candidates: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class ActionFailed(DesktopError):
    """The node exists but the verb could not be done on it."""


class BrowserFault(ComputerError, InfraFault):
    """The browser itself failed (crash, disconnect, a stall): retried, never scored.

    The runner relaunches the worker's browser before the next try.
    """

    kind: ClassVar[FaultKind] = "browser"


class SetupFault(ComputerError, InfraFault):
    """The attempt's starting state could not be reached (the start page did not load, a
    desktop set-up step found no control): the try's fault, never the agent's."""

    kind: ClassVar[FaultKind] = "setup"


class DesktopFault(ComputerError, InfraFault):
    """The desktop session or its app failed: an infra fault, retried and never scored."""

    kind: ClassVar[FaultKind] = "desktop"


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

    kind: ClassVar[FaultKind] = "window_unavailable"
    cause: Literal["window_unavailable"] = "window_unavailable"


class AgentError(ProctorError):
    """An agent could not be built, or failed outside the toolset."""


class PlannerError(AgentError):
    """The model gave no usable action several times in a row (stop reason
    ``planner_error``: the model's failure, scored)."""


class ProxyUnreachable(AgentError):
    """A destination a jailed agent's proxy may reach did not resolve, refused the
    connection, or did not answer (``timed_out``): the proxy answers 502 or 504."""

    def __init__(self, message: str, *, timed_out: bool) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class GradingError(ProctorError):
    """A check could not be evaluated against the end state."""


class RunError(ProctorError):
    """A run could not be planned, executed or recorded."""


class StorageError(RunError):
    """A results file or folder could not be written: read-only, full, not a folder, too long.

    The message names the path, the reason and what to do; ``errno`` is the
    operating system's error number.
    """

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno


class ManualError(ProctorError):
    """A manual-comparison command was refused: a changed manifest, a case in the wrong
    state, bad input, or a CI machine (the protocol is run by hand, never by CI)."""


__all__ = [
    "ActionFailed",
    "AgentError",
    "AppLaunchFailed",
    "BrowserFault",
    "ComputerError",
    "DesktopError",
    "DesktopFault",
    "DesktopUnavailable",
    "FixtureFault",
    "GradingError",
    "InfraFault",
    "LimitReached",
    "LiveFault",
    "ManualError",
    "NodeNotFound",
    "PlannerError",
    "ProctorError",
    "ProviderFault",
    "ProxyUnreachable",
    "RunError",
    "ScenarioError",
    "SessionStartFailed",
    "SetupFault",
    "StorageError",
    "WindowUnavailable",
    "WorldError",
]
