"""The actions that exist in a browser only: pages, tabs, the mouse and form fields."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, Field, model_validator

from proctor.computer.actions._model import (
    ActionModel,
    Pointable,
    Required,
    Strict,
    Target,
    Targeted,
)
from proctor.vocab import ScrollDirection


class Navigate(ActionModel):
    """Open a URL in the active tab."""

    op: Literal["navigate"] = "navigate"
    url: str = Field(description="Absolute URL to open.")


class Back(ActionModel):
    """Go back one page in the active tab's history."""

    op: Literal["back"] = "back"


class Click(Pointable):
    """Click an element (by ref, role and name, or CSS selector) or a point x,y."""

    op: Literal["click"] = "click"
    is_input = True
    mouse_button: Literal["left", "right", "middle"] | None = Field(
        default=None,
        validation_alias=AliasChoices("mouse_button", "button"),  # button: older recordings
        description="The mouse button, not a page's button: left (default), right, middle.",
    )
    clicks: int | None = Field(
        default=None,
        ge=1,
        le=3,
        description="Clicks in a row: 1 (the default), 2 for a double click (selects a "
        "word), 3 for a triple click (selects a line or a field's text).",
    )

    def mouse(self) -> dict[str, Any]:
        """Playwright's click options for the button and the count, when given."""
        options: dict[str, Any] = {}
        if self.mouse_button is not None:
            options["button"] = self.mouse_button
        if self.clicks is not None:
            options["click_count"] = self.clicks
        return options


class Fill(Required):
    """Replace the value of a text field with the given value."""

    op: Literal["fill"] = "fill"
    is_input = True
    value: str = Field(description="The text the field will hold.")


class Select(Required):
    """Choose an option of a select box, by its value or its visible label."""

    op: Literal["select"] = "select"
    is_input = True
    value: str | None = Field(default=None, description="The option's value attribute.")
    label: str | None = Field(default=None, description="The option's visible label.")

    @model_validator(mode="after")
    def _one_choice(self) -> Select:
        if (self.value is None) == (self.label is None):
            raise ValueError("give exactly one of value or label")
        return self


class Tick(Required):
    """Tick (checked: true) or untick (checked: false) a checkbox or radio."""

    op: Literal["check"] = "check"
    is_input = True
    checked: bool = Field(default=True, description="The state the box will have.")


class Scroll(Targeted):
    """Scroll in a direction by some pixels: the page (from the middle of the viewport), an element, or whatever scrolls under the point x,y."""  # noqa: E501

    op: Literal["scroll"] = "scroll"
    direction: ScrollDirection = Field(
        default="down",
        description="Which way the content moves into view: down shows what is below, up "
        "what is above, right what is to the right, left what is to the left.",
    )
    amount: int = Field(default=600, ge=1, le=20000, description="Pixels to scroll.")
    x: float | None = Field(
        default=None, description="Scroll at this point: x in CSS pixels of the viewport."
    )
    y: float | None = Field(
        default=None, description="Scroll at this point: y in CSS pixels of the viewport."
    )

    def target(self) -> Target | None:
        """The element or point scrolled at, or None for the page."""
        given = self._given()
        return given.chosen() if given is not None else None


class Hover(Pointable):
    """Move the pointer over an element or a point."""

    op: Literal["hover"] = "hover"


class Point(Strict):
    """One end of a drag: an element's centre, or x,y (relative to the drag's within element, if given)."""  # noqa: E501

    ref: str | None = None
    role: str | None = None
    name: str | None = None
    selector: str | None = None
    x: float | None = None
    y: float | None = None

    def target(self) -> Target:
        return Target(
            ref=self.ref, role=self.role, name=self.name, selector=self.selector, x=self.x, y=self.y
        ).chosen()

    @model_validator(mode="after")
    def _valid(self) -> Point:
        self.target()
        return self


class Drag(ActionModel):
    """Press the pointer down at start, move it in steps to end, and release it there."""

    op: Literal["drag"] = "drag"
    is_input = True
    start: Point = Field(description="Where the pointer goes down.")
    end: Point = Field(description="Where the pointer comes up.")
    within: Target | None = Field(
        default=None, description="Make x,y relative to this element's top-left corner."
    )
    steps: int = Field(default=12, ge=1, le=200, description="Intermediate pointer moves.")


class Upload(Required):
    """Set the files of a file input to the given local paths."""

    op: Literal["upload"] = "upload"
    is_input = True
    missing = "needs a ref, role (+ name) or selector of a file input"
    files: list[str] = Field(min_length=1, description="Local file paths.")


class Tabs(ActionModel):
    """List the open tabs, activate one (index), or close one (index)."""

    op: Literal["tabs"] = "tabs"
    watches_popups = False
    action: Literal["list", "activate", "close"] = Field(
        default="list",
        description="list: show the open tabs; activate: make tab index the active one; "
        "close: close tab index.",
    )
    index: int | None = Field(default=None, ge=0, description="Tab index for activate and close.")

    @model_validator(mode="after")
    def _index(self) -> Tabs:
        if self.action != "list" and self.index is None:
            raise ValueError(f"tabs {self.action} needs an index")
        return self

    def takes_lease(self) -> bool:
        return self.action != "list"

    def tab(self) -> int:
        """The tab that activate and close address."""
        if self.index is None:
            raise ValueError(f"tabs {self.action} needs an index")
        return self.index


class Extract(Targeted):
    """Read from the page: text, table rows, links, or an attribute of an element."""

    op: Literal["extract"] = "extract"
    needs_lease = False
    kind: Literal["text", "table", "links", "attribute"] = Field(
        default="text",
        description="text: the visible text; table: the first table's rows (keyed by its "
        "header cells when it has them); links: each link's text and URL; attribute: the "
        "value of the attribute named by attribute.",
    )
    attribute: str | None = Field(default=None, description="Attribute name for kind=attribute.")

    @model_validator(mode="after")
    def _attribute(self) -> Extract:
        if self.kind == "attribute" and (self.attribute is None or self.target() is None):
            raise ValueError("extract kind=attribute needs an element and an attribute name")
        return self


class Restart(ActionModel):
    """Close the browser and open it again with this attempt's profile (cookies kept)."""

    op: Literal["restart"] = "restart"
    watches_popups = False
