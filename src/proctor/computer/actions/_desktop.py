"""The actions that exist on a desktop only: keys, a control's value, windows."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from proctor.computer.actions._model import (
    DESKTOP,
    ActionModel,
    Required,
)
from proctor.vocab import Surface


class Key(ActionModel):
    """Press a key combination in the focused widget of the active window: Return, Tab, ctrl+s, ctrl+shift+z (X key names; Enter and Control+S work too)."""  # noqa: E501

    op: Literal["key"] = "key"
    is_input = True
    watches_popups = False
    surfaces = DESKTOP
    key: str = Field(min_length=1, max_length=80, description="The combination, e.g. ctrl+s.")


class SetValue(Required):
    """Set a control's value at once (by ref, or role and name): the whole text of an editable text, or the number of a slider or spin button."""  # noqa: E501

    op: Literal["set_value"] = "set_value"
    is_input = True
    watches_popups = False
    surfaces = DESKTOP
    surface_hidden: ClassVar[dict[Surface, frozenset[str]]] = {"desktop": frozenset({"selector"})}
    value: str = Field(max_length=100_000, description="The text, or the number, it will hold.")


class Activate(ActionModel):
    """Bring a window to the front and give it the keyboard: by its index in the observation's windows, or by its app's name."""  # noqa: E501

    op: Literal["activate"] = "activate"
    watches_popups = False
    surfaces = DESKTOP
    window: int | None = Field(default=None, ge=0, description="Window index, e.g. 1.")
    app: str | None = Field(default=None, description="The app's name, e.g. editor.")

    @model_validator(mode="after")
    def _one(self) -> Activate:
        if (self.window is None) == (self.app is None):
            raise ValueError("activate needs exactly one of window (an index) or app (a name)")
        return self


class Read(Required):
    """Read a control's whole text (by ref, or role and name): a document, a display, a label; the outline shortens long values."""  # noqa: E501

    op: Literal["read"] = "read"
    needs_lease = False
    watches_popups = False
    surfaces = DESKTOP
    surface_hidden: ClassVar[dict[Surface, frozenset[str]]] = {"desktop": frozenset({"selector"})}
