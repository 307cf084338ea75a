"""The actions that exist on both surfaces: keys and text into a control or the focus,
waiting, and finishing."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from proctor.computer.actions._model import (
    BOTH,
    ActionModel,
    Targeted,
)
from proctor.vocab import Surface


class Press(Targeted):
    """Press a key or chord (e.g. Enter, Tab, Control+A), on an element or the focus."""

    op: Literal["press"] = "press"
    is_input = True
    surfaces = BOTH
    surface_doc: ClassVar[dict[Surface, str]] = {
        "desktop": "Press a control (by ref, or role and name): a button, a toggle or a menu "
        "item does its own action, wherever the keyboard focus is. Send keys with the key tool."
    }
    surface_hidden: ClassVar[dict[Surface, frozenset[str]]] = {
        "desktop": frozenset({"key", "selector"})
    }
    key: str | None = Field(
        default=None, description="Key name as Playwright spells it, e.g. Enter or Shift+Tab."
    )

    @model_validator(mode="after")
    def _key_or_control(self) -> Press:
        if self.key is None and self.target() is None:
            raise ValueError("press needs a key (e.g. Enter), or a control (ref, or role and name)")
        return self


class Type(Targeted):
    """Type text key by key, into an element or wherever the focus is."""

    op: Literal["type"] = "type"
    is_input = True
    surfaces = BOTH
    surface_hidden: ClassVar[dict[Surface, frozenset[str]]] = {"desktop": frozenset({"selector"})}
    text: str = Field(description="The text to type.")


class Wait(ActionModel):
    """Wait until some text is visible, or for a number of milliseconds (at most 10 s)."""

    op: Literal["wait"] = "wait"
    needs_lease = False
    surfaces = BOTH
    text: str | None = Field(default=None, description="Text to wait for.")
    ms: int | None = Field(default=None, ge=1, le=10000, description="Milliseconds to wait.")

    @model_validator(mode="after")
    def _one(self) -> Wait:
        if (self.text is None) == (self.ms is None):
            raise ValueError("give exactly one of text or ms")
        return self


class Done(ActionModel):
    """Finish the task, with the answer when the task asks for one."""

    op: Literal["done"] = "done"
    needs_lease = False
    watches_popups = False
    surfaces = BOTH
    answer: str | None = Field(default=None, description="The answer, if the task asks for one.")
