"""The typed action union: everything an agent may do to the computer.

Each action is one pydantic model, discriminated by ``op``. Its docstring is the
tool description that prompts and tool schemas are built from, so it is the one
source of truth for what an agent may do.

The actions live by surface and kind: ``_browser`` (a browser's only), ``_desktop``
(a desktop's only), ``_shared`` (both surfaces), ``_user`` (the simulated user's),
over ``_model`` (traits, targets); ``_union`` is the union and its op sets.

Elements are addressed in one of four ways, checked by ``Target``:
``ref`` from the aria snapshot, ``role`` + ``name``, a CSS ``selector``, or
page coordinates ``x``/``y``. An action that gives more than one is not refused (a
model often over-specifies): the first of ``PRECEDENCE`` given is used, and the rest
is recorded as the step's ``facts.ignored``.

An action exists on the surfaces its ``surfaces`` names (``browser``, ``desktop``);
the tools offered to an agent are those of its attempt's surface. On a desktop,
refs (``dN``) come from the window's accessibility outline and roles are the
outline's (``push button``, ``text``...).
"""

from proctor.computer.actions._browser import (
    Back,
    Click,
    Drag,
    Extract,
    Fill,
    Hover,
    Navigate,
    Point,
    Restart,
    Scroll,
    Select,
    Tabs,
    Tick,
    Upload,
)
from proctor.computer.actions._desktop import Activate, Key, Read, SetValue
from proctor.computer.actions._model import BOTH, BROWSER, DESKTOP, PRECEDENCE, ActionModel, Target
from proctor.computer.actions._shared import Done, Press, Type, Wait
from proctor.computer.actions._union import (
    ACTION_TYPES,
    INPUT_OPS,
    TIMELINE_OPS,
    USER_OPS,
    Action,
    ops_on,
)
from proctor.computer.actions._user import RELATIVE_AT, AskUser, RequestApproval, Schedule

__all__ = [
    "ACTION_TYPES",
    "BOTH",
    "BROWSER",
    "DESKTOP",
    "INPUT_OPS",
    "PRECEDENCE",
    "RELATIVE_AT",
    "TIMELINE_OPS",
    "USER_OPS",
    "Action",
    "ActionModel",
    "Activate",
    "AskUser",
    "Back",
    "Click",
    "Done",
    "Drag",
    "Extract",
    "Fill",
    "Hover",
    "Key",
    "Navigate",
    "Point",
    "Press",
    "Read",
    "RequestApproval",
    "Restart",
    "Schedule",
    "Scroll",
    "Select",
    "SetValue",
    "Tabs",
    "Target",
    "Tick",
    "Type",
    "Upload",
    "Wait",
    "ops_on",
]
