"""Check arguments of the desktop checks (what an app shows at the end, who has the keyboard)
and of the peer suites' own reward."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import ClassVar

from pydantic import Field, field_validator, model_validator

from proctor.scenario._check_args import CheckArgs, Regex

_OPS: dict[type[ast.AST], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def arithmetic(expression: str) -> float:
    """The value of ``expression``: numbers, + - * /, unary minus and parentheses only.

    Raises:
        ValueError: naming what is not allowed, or a division by zero.
    """
    try:
        tree = ast.parse(expression.replace("×", "*").replace("÷", "/"), mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"{expression!r} is not arithmetic: {exc.msg}") from exc

    def value(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            if isinstance(node.value, bool):
                raise ValueError(f"{expression!r}: {node.value} is not a number")
            return float(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = value(node.operand)
            return -inner if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            left, right = value(node.left), value(node.right)
            if isinstance(node.op, ast.Div) and right == 0:
                raise ValueError(f"{expression!r} divides by zero")
            return _OPS[type(node.op)](left, right)
        raise ValueError(
            f"{expression!r}: only numbers, + - * /, and parentheses are allowed, "
            f"not {ast.unparse(node)!r}"
        )

    return value(tree.body)


class DesktopValue(CheckArgs):
    """What a control of a desktop app shows at the end: its text or value, read through
    AT-SPI. ``number`` is an expression the check computes (e.g. 1234 * 5678) and compares
    with the control's value as a number."""

    app: str = Field(description="The app's name in world.desktop, e.g. calc.")
    role: str = Field(description="The control's role as the outline shows it, e.g. text.")
    label: str | None = Field(
        default=None, description="The control's accessible name; omit for an unnamed one."
    )
    window: str | None = Field(default=None, description="Only in the window with this title.")
    equals: str | None = Field(default=None, description="The whole value, exactly.")
    contains: str | None = Field(default=None, description="Text inside the value.")
    matches: Regex | None = Field(default=None, description="A regex searched in the value.")
    number: str | None = Field(
        default=None, description="Arithmetic the check computes; the value must equal it."
    )

    @field_validator("number")
    @classmethod
    def _computes(cls, number: str | None) -> str | None:
        if number is not None:
            arithmetic(number)
        return number

    @model_validator(mode="after")
    def _one(self) -> DesktopValue:
        given = [self.equals, self.contains, self.matches, self.number]
        if sum(v is not None for v in given) != 1:
            raise ValueError("give exactly one of equals, contains, matches or number")
        return self


class DesktopFrontmost(CheckArgs):
    """Which app's window has the keyboard at the end (the frontmost one)."""

    app: str = Field(description="The app's name in world.desktop.")


class DesktopAlive(CheckArgs):
    """Whether an app is still running at the end, with a window."""

    app: str = Field(description="The app's name in world.desktop.")
    alive: bool = Field(default=True, description="Expect it running (false: expect it gone).")


class MiniwobReward(CheckArgs):
    """MiniWoB++'s own reward for the first episode that ended: ``raw`` exactly (1 for a
    solved task), or at least ``min_raw`` for tasks with partial credit."""

    reads_site: ClassVar[str | None] = "miniwob"

    raw: float | None = Field(
        default=None,
        ge=-1,
        le=1,
        description="The first episode's raw reward, exactly (1: solved).",
    )
    min_raw: float | None = Field(
        default=None, ge=-1, le=1, description="The first episode's raw reward is at least this."
    )

    @model_validator(mode="after")
    def _one(self) -> MiniwobReward:
        if (self.raw is None) == (self.min_raw is None):
            raise ValueError("give exactly one of raw or min_raw")
        return self
