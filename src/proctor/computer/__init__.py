"""The computer toolset: typed actions, observations, and the drivers that run them.

Only this package imports Playwright. ``proctor.computer.actions``,
``proctor.computer.observation``, ``proctor.computer.attempt``,
``proctor.computer.tool_schema`` and ``proctor.computer.user`` are plain data
(and Protocols) and import no driver.
"""

from proctor.computer._mcp_tools import OWN_TOOLS
from proctor.computer.actions import (
    ACTION_TYPES,
    INPUT_OPS,
    TIMELINE_OPS,
    USER_OPS,
    Action,
    ActionModel,
    Target,
)
from proctor.computer.attempt import AttemptInfo, CallCounter
from proctor.computer.observation import Observation, TabInfo
from proctor.computer.user import AgentReset, UserChannel, UserReply

__all__ = [
    "ACTION_TYPES",
    "INPUT_OPS",
    "OWN_TOOLS",
    "TIMELINE_OPS",
    "USER_OPS",
    "Action",
    "ActionModel",
    "AgentReset",
    "AttemptInfo",
    "CallCounter",
    "Observation",
    "TabInfo",
    "Target",
    "UserChannel",
    "UserReply",
]
