"""The union of every action, discriminated by ``op``, and the op sets read from traits."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from proctor.computer.actions._browser import (
    Back,
    Click,
    Drag,
    Extract,
    Fill,
    Hover,
    Navigate,
    Restart,
    Scroll,
    Select,
    Tabs,
    Tick,
    Upload,
)
from proctor.computer.actions._desktop import Activate, Key, Read, SetValue
from proctor.computer.actions._model import ActionModel
from proctor.computer.actions._shared import Done, Press, Type, Wait
from proctor.computer.actions._user import AskUser, RequestApproval, Schedule
from proctor.vocab import Surface

Action = Annotated[
    Navigate
    | Back
    | Click
    | Fill
    | Select
    | Tick
    | Press
    | Type
    | Scroll
    | Hover
    | Drag
    | Upload
    | Tabs
    | Extract
    | Wait
    | Restart
    | Key
    | SetValue
    | Activate
    | Read
    | AskUser
    | RequestApproval
    | Schedule
    | Done,
    Field(discriminator="op"),
]

ACTION_TYPES: dict[str, type[ActionModel]] = {
    cls.model_fields["op"].default: cls
    for cls in (
        Navigate, Back, Click, Fill, Select, Tick, Press, Type, Scroll, Hover,
        Drag, Upload, Tabs, Extract, Wait, Restart, Key, SetValue, Activate, Read,
        AskUser, RequestApproval, Schedule, Done,
    )
}  # fmt: skip

INPUT_OPS = frozenset(op for op, cls in ACTION_TYPES.items() if cls.is_input)
"""Ops that deliver input to a page (counted as primitive inputs)."""

USER_OPS = frozenset(op for op, cls in ACTION_TYPES.items() if cls.user_op)
"""Ops the simulated user answers (steps with ``tool="user"``); they never touch a page."""

TIMELINE_OPS = frozenset(op for op, cls in ACTION_TYPES.items() if cls.timeline_op)
"""Ops offered only where the scenario has a timeline (``play:``)."""


def ops_on(surface: Surface) -> dict[str, type[ActionModel]]:
    """The actions that exist on ``surface``, in the union's order."""
    return {op: cls for op, cls in ACTION_TYPES.items() if surface in cls.surfaces}
