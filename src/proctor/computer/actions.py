"""The typed action union: everything an agent may do to the computer.

Each action is one pydantic model, discriminated by ``op``. Its docstring is the
tool description that prompts and tool schemas are built from, so it is the one
source of truth for what an agent may do.

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

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, model_validator

from proctor.vocab import ScrollDirection, Surface

BROWSER: frozenset[Surface] = frozenset({"browser"})
DESKTOP: frozenset[Surface] = frozenset({"desktop"})
BOTH: frozenset[Surface] = BROWSER | DESKTOP


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


PRECEDENCE = ("ref", "role", "selector", "x")
"""Which way of addressing an element wins when several are given: a ref (it names one
node of the observation), then role and name, then a CSS selector, then coordinates."""

_WAY_FIELDS = {"ref": ("ref",), "role": ("role", "name"), "selector": ("selector",),
               "x": ("x", "y")}  # fmt: skip


def _ways(fields: dict[str, object]) -> list[str]:
    """The ways of addressing given in ``fields``, in precedence order."""
    return [way for way in PRECEDENCE if fields.get(way) is not None]


class ActionModel(_Strict):
    """What every action model carries: its traits, as class-level data.

    Attributes:
        is_input: It delivers input to a page (counted as a primitive input).
        needs_lease: It sends input or changes the page, so it is refused once the
            control lease is revoked (``Tabs`` narrows this per instance).
        user_op: The simulated user answers it (``tool="user"``); it never touches a page.
        timeline_op: It exists only where the scenario has a timeline (``schedule``).
        watches_popups: The popups and tabs it opens are waited for.
        surfaces: Where the action exists: its tool is offered to agents on those.
        surface_doc: The tool description on a surface, where it is not the docstring.
        surface_hidden: Fields a surface does not offer (left out of its tool schema).
    """

    is_input: ClassVar[bool] = False
    needs_lease: ClassVar[bool] = True
    user_op: ClassVar[bool] = False
    timeline_op: ClassVar[bool] = False
    watches_popups: ClassVar[bool] = True
    surfaces: ClassVar[frozenset[Surface]] = BROWSER
    surface_doc: ClassVar[dict[Surface, str]] = {}
    surface_hidden: ClassVar[dict[Surface, frozenset[str]]] = {}

    def takes_lease(self) -> bool:
        """Whether this action is refused once the control lease is revoked."""
        return self.needs_lease

    def aimed_at(self) -> Target | None:
        """The element or point this action addresses, if it addresses one."""
        return None

    def ignored(self) -> tuple[str, ...]:
        """Fields given but not used, because a way of addressing before them was given."""
        return ()


class Target(_Strict):
    """Where an action lands: a ref, a role and name, a CSS selector, or x,y."""

    ref: str | None = Field(
        default=None, description="Element ref from the aria snapshot, e.g. e12."
    )
    role: str | None = Field(default=None, description="ARIA role, e.g. button, link, textbox.")
    name: str | None = Field(default=None, description="Accessible name, used with role.")
    exact: bool = Field(default=True, description="Match the accessible name exactly.")
    selector: str | None = Field(default=None, description="CSS selector.")
    x: float | None = Field(default=None, description="Page x coordinate in CSS pixels.")
    y: float | None = Field(default=None, description="Page y coordinate in CSS pixels.")

    @model_validator(mode="after")
    def _one_way(self) -> Target:
        given = self.model_dump()
        if given.get("x") is None and given.get("y") is not None:
            given["x"] = given["y"]  # a lone y still counts as a try at coordinates
        ways = _ways(given)
        if not ways:
            if self.name is not None:
                raise ValueError("name needs a role, e.g. role: button")
            raise ValueError("give one of: ref, role (+ name), selector, or x and y")
        if ways[0] == "x" and (self.x is None or self.y is None):
            raise ValueError("give both x and y")
        return self

    def chosen(self) -> Target:
        """This target by its first way of addressing only (``PRECEDENCE``)."""
        way = self.way
        keep = {f: getattr(self, f) for f in _WAY_FIELDS[way]}
        if way == "role":
            keep["exact"] = self.exact
        return Target(**keep)

    @property
    def way(self) -> str:
        """How the element is addressed: ref, role, selector or x (coordinates)."""
        given = self.model_dump()
        if given.get("x") is None and given.get("y") is not None:
            given["x"] = given["y"]
        return _ways(given)[0]

    def ignored(self) -> tuple[str, ...]:
        """The fields of the ways after the one used."""
        used = set(_WAY_FIELDS[self.way]) | ({"exact"} if self.way == "role" else set())
        return tuple(
            f for way in PRECEDENCE for f in _WAY_FIELDS[way]
            if f not in used and getattr(self, f) is not None
        )  # fmt: skip

    @property
    def is_point(self) -> bool:
        return self.x is not None

    @property
    def xy(self) -> tuple[float, float] | None:
        """The point, when this target is one."""
        if self.x is None or self.y is None:
            return None
        return self.x, self.y

    def describe(self) -> str:
        """A short human form, used as the Step's target."""
        if self.ref is not None:
            return f"ref={self.ref}"
        if self.role is not None:
            return f"{self.role} {self.name!r}" if self.name is not None else self.role
        if self.selector is not None:
            return f"css={self.selector}"
        return f"({self.x:g},{self.y:g})"


class _Element(ActionModel):
    ref: str | None = Field(default=None, description="Element ref from the aria snapshot.")
    role: str | None = Field(default=None, description="ARIA role, used with name.")
    name: str | None = Field(default=None, description="Accessible name, used with role.")
    exact: bool = Field(default=True, description="Match the accessible name exactly.")
    selector: str | None = Field(default=None, description="CSS selector.")

    def _given(self) -> Target | None:
        """Every way of addressing this action gave (coordinates too, where it has them)."""
        x, y = getattr(self, "x", None), getattr(self, "y", None)
        nothing = self.ref is None and self.role is None and self.selector is None
        if nothing and x is None and y is None:
            if self.name is not None:
                raise ValueError("name needs a role, e.g. role: button")
            return None
        return Target(
            ref=self.ref, role=self.role, name=self.name, exact=self.exact,
            selector=self.selector, x=x, y=y,
        )  # fmt: skip

    def _element(self) -> Target | None:
        given = self._given()
        if given is None or given.way == "x":
            return None
        return given.chosen()

    def target(self) -> Target | None:
        """The element this action addresses, or None for the focused one (or the page)."""
        return self._element()

    def aimed_at(self) -> Target | None:
        return self.target()

    def ignored(self) -> tuple[str, ...]:
        given = self._given()
        return given.ignored() if given is not None else ()

    @model_validator(mode="after")
    def _valid_target(self) -> _Element:
        self.target()
        return self


class _Targeted(_Element):
    """An action on an element, or on the focus (or page) when none is given."""


class _Required(_Element):
    """An action that always addresses an element."""

    missing: ClassVar[str] = "needs a ref, role (+ name) or selector"

    def target(self) -> Target:
        """The element this action addresses."""
        target = self._element()
        if target is None:
            op = type(self).model_fields["op"].default
            raise ValueError(f"{op} {self.missing}")
        return target


class _Pointable(_Element):
    """An action that always addresses an element or a point x,y."""

    x: float | None = Field(default=None, description="Page x coordinate in CSS pixels.")
    y: float | None = Field(default=None, description="Page y coordinate in CSS pixels.")

    def target(self) -> Target:
        """The element or point this action addresses: an element before coordinates."""
        given = self._given()
        if given is None:
            op = type(self).model_fields["op"].default
            raise ValueError(f"{op} needs a ref, role (+ name), selector, or x and y")
        return given.chosen()


class Navigate(ActionModel):
    """Open a URL in the active tab."""

    op: Literal["navigate"] = "navigate"
    url: str = Field(description="Absolute URL to open.")


class Back(ActionModel):
    """Go back one page in the active tab's history."""

    op: Literal["back"] = "back"


class Click(_Pointable):
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


class Fill(_Required):
    """Replace the value of a text field with the given value."""

    op: Literal["fill"] = "fill"
    is_input = True
    value: str = Field(description="The text the field will hold.")


class Select(_Required):
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


class Tick(_Required):
    """Tick (checked: true) or untick (checked: false) a checkbox or radio."""

    op: Literal["check"] = "check"
    is_input = True
    checked: bool = Field(default=True, description="The state the box will have.")


class Press(_Targeted):
    """Press a key or chord (e.g. Enter, Tab, Control+A), on an element or the focus."""

    op: Literal["press"] = "press"
    is_input = True
    surfaces = BOTH
    surface_doc = {
        "desktop": "Press a control (by ref, or role and name): a button, a toggle or a menu "
        "item does its own action, wherever the keyboard focus is. Send keys with the key tool."
    }
    surface_hidden = {"desktop": frozenset({"key", "selector"})}
    key: str | None = Field(
        default=None, description="Key name as Playwright spells it, e.g. Enter or Shift+Tab."
    )

    @model_validator(mode="after")
    def _key_or_control(self) -> Press:
        if self.key is None and self.target() is None:
            raise ValueError("press needs a key (e.g. Enter), or a control (ref, or role and name)")
        return self


class Type(_Targeted):
    """Type text key by key, into an element or wherever the focus is."""

    op: Literal["type"] = "type"
    is_input = True
    surfaces = BOTH
    surface_hidden = {"desktop": frozenset({"selector"})}
    text: str = Field(description="The text to type.")


class Scroll(_Targeted):
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


class Hover(_Pointable):
    """Move the pointer over an element or a point."""

    op: Literal["hover"] = "hover"


class Point(_Strict):
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


class Upload(_Required):
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


class Extract(_Targeted):
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


class Key(ActionModel):
    """Press a key combination in the focused widget of the active window: Return, Tab, ctrl+s, ctrl+shift+z (X key names; Enter and Control+S work too)."""  # noqa: E501

    op: Literal["key"] = "key"
    is_input = True
    watches_popups = False
    surfaces = DESKTOP
    key: str = Field(min_length=1, max_length=80, description="The combination, e.g. ctrl+s.")


class SetValue(_Required):
    """Set a control's value at once (by ref, or role and name): the whole text of an editable text, or the number of a slider or spin button."""  # noqa: E501

    op: Literal["set_value"] = "set_value"
    is_input = True
    watches_popups = False
    surfaces = DESKTOP
    surface_hidden = {"desktop": frozenset({"selector"})}
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


class Read(_Required):
    """Read a control's whole text (by ref, or role and name): a document, a display, a label; the outline shortens long values."""  # noqa: E501

    op: Literal["read"] = "read"
    needs_lease = False
    watches_popups = False
    surfaces = DESKTOP
    surface_hidden = {"desktop": frozenset({"selector"})}


class Restart(ActionModel):
    """Close the browser and open it again with this attempt's profile (cookies kept)."""

    op: Literal["restart"] = "restart"
    watches_popups = False


class AskUser(ActionModel):
    """Ask the user a question and wait for the answer (the step's output). Ask for what only the user knows (a preference, a password, a code) instead of guessing. Give a short topic key if the task named one."""  # noqa: E501

    op: Literal["ask_user"] = "ask_user"
    needs_lease = False
    user_op = True
    surfaces = BOTH
    watches_popups = False
    question: str = Field(min_length=1, max_length=2000, description="The question, in words.")
    key: str | None = Field(
        default=None, max_length=60, description="Topic key the task named, e.g. shoe_size."
    )


class RequestApproval(ActionModel):
    """Ask the user to approve an action before you take it (a payment, a booking, a deletion, sending something); the step's output says approved or denied. Never take the action when it is denied."""  # noqa: E501

    op: Literal["request_approval"] = "request_approval"
    needs_lease = False
    user_op = True
    surfaces = BOTH
    watches_popups = False
    action: str = Field(
        min_length=1, max_length=200, description="What you will do, e.g. payment or booking."
    )
    amount: float | None = Field(default=None, ge=0, description="The amount, if money moves.")
    currency: str | None = Field(
        default=None, pattern=r"^[A-Za-z]{3}$", description="ISO currency code, e.g. USD."
    )
    details: str = Field(
        default="", max_length=2000, description="What exactly: the item, the recipient, the date."
    )


RELATIVE_AT = re.compile(r"^\+([1-9][0-9]{0,4})([mhd])$")
"""A relative ``schedule`` time: +30m, +2h, +1d."""


class Schedule(ActionModel):
    """Schedule a wake-up: when the time comes you are woken with the note, as a message. Use it to check on something later (tomorrow's price, a reply) instead of waiting; then finish your turn with done."""  # noqa: E501

    op: Literal["schedule"] = "schedule"
    needs_lease = False
    user_op = True
    timeline_op = True
    surfaces = BOTH
    watches_popups = False
    at: str = Field(
        min_length=2,
        max_length=40,
        description="When: +30m, +2h, +1d (from now), or a date and time, "
        "e.g. 2026-05-04T09:00 (the user's time zone unless it has an offset).",
    )
    note: str = Field(
        min_length=1, max_length=2000, description="What to do then, in your own words."
    )

    @model_validator(mode="after")
    def _when(self) -> Schedule:
        if RELATIVE_AT.match(self.at) is None:
            try:
                dt.datetime.fromisoformat(self.at)
            except ValueError:
                raise ValueError(
                    f"at {self.at!r} is neither +N followed by m, h or d nor an ISO date and "
                    "time such as 2026-05-04T09:00"
                ) from None
        return self


class Done(ActionModel):
    """Finish the task, with the answer when the task asks for one."""

    op: Literal["done"] = "done"
    needs_lease = False
    watches_popups = False
    surfaces = BOTH
    answer: str | None = Field(default=None, description="The answer, if the task asks for one.")


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
