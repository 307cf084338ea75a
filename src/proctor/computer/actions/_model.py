"""What every action is made of: its traits (``ActionModel``), the surfaces it exists
on, and the ways it addresses an element (``Target`` and the element bases)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proctor.vocab import Surface

BROWSER: frozenset[Surface] = frozenset({"browser"})
DESKTOP: frozenset[Surface] = frozenset({"desktop"})
BOTH: frozenset[Surface] = BROWSER | DESKTOP


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


PRECEDENCE = ("ref", "role", "selector", "x")
"""Which way of addressing an element wins when several are given: a ref (it names one
node of the observation), then role and name, then a CSS selector, then coordinates."""

_WAY_FIELDS = {"ref": ("ref",), "role": ("role", "name"), "selector": ("selector",),
               "x": ("x", "y")}  # fmt: skip


def _ways(fields: dict[str, object]) -> list[str]:
    """The ways of addressing given in ``fields``, in precedence order."""
    return [way for way in PRECEDENCE if fields.get(way) is not None]


class ActionModel(Strict):
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


class Target(Strict):
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


class Element(ActionModel):
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
    def _valid_target(self) -> Element:
        self.target()
        return self


class Targeted(Element):
    """An action on an element, or on the focus (or page) when none is given."""


class Required(Element):
    """An action that always addresses an element."""

    missing: ClassVar[str] = "needs a ref, role (+ name) or selector"

    def target(self) -> Target:
        """The element this action addresses."""
        target = self._element()
        if target is None:
            op = type(self).model_fields["op"].default
            raise ValueError(f"{op} {self.missing}")
        return target


class Pointable(Element):
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
