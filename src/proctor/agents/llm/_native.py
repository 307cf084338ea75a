"""The providers' own computer-use tools (``+computer``): the tool, the screen, the actions.

A model arm with ``+computer`` acts by pixels, as the providers' computer-use
agents do: it is sent a screenshot with the task and with every action's result,
and it answers with the provider's native ``computer`` calls (click at x,y, type,
key, scroll, drag, screenshot). Each call is translated here into one of
proctor's typed actions, so it is still a recorded Step under every guard and
boundary: a coordinate click is checked against the site's sensitive marking of
the element at that point before it is sent.

The screen the model sees is the viewport scaled down as each provider documents
it, so that what the model measures is what it was sent:

- Anthropic: at most 1568 pixels on the long edge and 1.15 megapixels in all
  (images over either are downscaled by the API before the model sees them);
- OpenAI: within 2048 x 2048, then at most 768 pixels on the short edge (its
  high-detail image rule).

Coordinates come back in that scaled space and are mapped to the viewport's CSS
pixels (``Screen.to_css``); a point off the screen is refused with a repair turn.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from proctor.agents.llm._tools import ToolCallError
from proctor.computer.actions import (
    Action,
    Back,
    Click,
    Drag,
    Hover,
    Point,
    Press,
    Scroll,
    Type,
    Wait,
)
from proctor.computer.observation import Capture
from proctor.vocab import ScrollDirection, WireFamily

COMPUTER = "computer"
"""The tool name of every provider's native computer tool, in calls and replies."""


VERSIONS: dict[WireFamily, tuple[str, ...]] = {
    "anthropic": ("computer_20251124", "computer_20250124"),
    "openai": ("computer", "computer_use_preview"),
}
"""The tool types each wire offers, the default first (``+computer=TYPE`` picks another)."""

BETAS = {
    "computer_20251124": "computer-use-2025-11-24",
    "computer_20250124": "computer-use-2025-01-24",
}
"""The beta header each Anthropic computer tool type needs."""

SCROLL_CLICK_PX = 100
"""CSS pixels of one scroll-wheel click (Anthropic counts scrolling in clicks)."""
OPENAI_WAIT_MS = 2000
"""OpenAI's ``wait`` carries no duration; its own sample harness waits about two seconds."""


@runtime_checkable
class Screenshots(Protocol):
    """A computer that gives pixel agents their screen (the browser does)."""

    async def capture(self) -> Capture | None:
        """The screen with each result: uncounted, as the loop's own observation is."""
        ...

    async def look(self) -> Capture | None:
        """The agent's own screenshot request: counted as a tool call, traced."""
        ...


@dataclass(frozen=True)
class ScreenRule:
    """A provider's documented limits on an image it reads at full detail."""

    max_long: int
    max_short: int | None = None
    max_pixels: int | None = None


RULES: dict[WireFamily, ScreenRule] = {
    "anthropic": ScreenRule(max_long=1568, max_pixels=1_150_000),
    "openai": ScreenRule(max_long=2048, max_short=768),
}


def fit(width: int, height: int, rule: ScreenRule) -> tuple[int, int]:
    """The largest size of the same shape within ``rule`` (never larger than the original)."""
    factor = min(1.0, rule.max_long / max(width, height))
    if rule.max_short is not None:
        factor = min(factor, rule.max_short / min(width, height))
    if rule.max_pixels is not None:
        factor = min(factor, math.sqrt(rule.max_pixels / (width * height)))
    return max(1, math.floor(width * factor)), max(1, math.floor(height * factor))


@dataclass(frozen=True)
class Screen:
    """The space the model's coordinates live in (the image it is sent) and the viewport's.

    Attributes:
        width: Width of the image the model is sent, in its pixels.
        height: Height of that image.
        css_width: Width of the viewport in CSS pixels (where actions land).
        css_height: Height of the viewport in CSS pixels.
    """

    width: int
    height: int
    css_width: int
    css_height: int

    @property
    def factor(self) -> float:
        """Model pixels per CSS pixel."""
        return self.width / self.css_width

    def to_css(self, x: float, y: float) -> tuple[float, float]:
        """A point the model gave, in the viewport's CSS pixels.

        Raises:
            ToolCallError: when the point is off the screen.
        """
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ToolCallError(
                f"({x:g}, {y:g}) is off the screen, which is {self.width}x{self.height}"
            )
        return (
            round(x * self.css_width / self.width, 1),
            round(y * self.css_height / self.height, 1),
        )

    def facts(self) -> dict[str, Any]:
        return {
            "screen": [self.width, self.height],
            "viewport": [self.css_width, self.css_height],
        }


@dataclass(frozen=True)
class Shot:
    """A screenshot as the model is sent it, and its screen."""

    png: bytes
    screen: Screen


def scaled(capture: Capture, wire: WireFamily) -> Shot:
    """The capture scaled to the provider's rule (unchanged when it already fits)."""
    width, height = fit(capture.png_width, capture.png_height, RULES[wire])
    screen = Screen(width, height, capture.width, capture.height)
    if (width, height) == (capture.png_width, capture.png_height):
        return Shot(capture.png, screen)
    from PIL import Image

    with Image.open(io.BytesIO(capture.png)) as image:
        small = image.convert("RGB").resize((width, height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=False)
    return Shot(out.getvalue(), screen)


@dataclass(frozen=True)
class NativeTool:
    """The native computer tool as a request declares it."""

    wire: WireFamily
    version: str
    screen: Screen

    def anthropic(self) -> dict[str, Any]:
        return {
            "type": self.version,
            "name": COMPUTER,
            "display_width_px": self.screen.width,
            "display_height_px": self.screen.height,
        }

    def openai(self) -> dict[str, Any]:
        if self.version == "computer_use_preview":
            return {
                "type": self.version,
                "display_width": self.screen.width,
                "display_height": self.screen.height,
                "environment": "browser",
            }
        return {"type": self.version}

    @property
    def beta(self) -> str | None:
        return BETAS.get(self.version)


class Look:
    """A screenshot request: answered with the screen, no action taken."""

    def __repr__(self) -> str:
        return "Look()"


LOOK = Look()
Native = Action | Look


# ----- keys -------------------------------------------------------------------------

_MODIFIERS = {
    "ctrl": "Control", "control": "Control", "shift": "Shift", "alt": "Alt",
    "option": "Alt", "meta": "Meta", "cmd": "Meta", "command": "Meta", "super": "Meta",
    "win": "Meta",
}  # fmt: skip
_KEYS = {
    "return": "Enter", "enter": "Enter", "kp_enter": "Enter", "esc": "Escape",
    "escape": "Escape", "tab": "Tab", "backspace": "Backspace", "delete": "Delete",
    "del": "Delete", "space": "Space", "up": "ArrowUp", "down": "ArrowDown",
    "left": "ArrowLeft", "right": "ArrowRight", "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft", "arrowright": "ArrowRight",
    "page_up": "PageUp", "pageup": "PageUp", "prior": "PageUp", "page_down": "PageDown",
    "pagedown": "PageDown", "next": "PageDown", "home": "Home", "end": "End",
    "insert": "Insert",
}  # fmt: skip


def _key(name: str, *, combined: bool) -> str:
    low = name.strip().lower()
    if low in _MODIFIERS:
        return _MODIFIERS[low]
    if low in _KEYS:
        return _KEYS[low]
    if len(low) in (2, 3) and low[0] == "f" and low[1:].isdigit():
        return low.upper()
    if len(name.strip()) == 1:
        # A letter pressed with a modifier is the key itself (ctrl+A is ctrl+a, not shift).
        return low if combined else name.strip()
    if not name.strip():
        raise ToolCallError("an empty key name")
    return name.strip()


def playwright_keys(parts: list[str]) -> str:
    """A chord as Playwright spells it: ``["ctrl", "S"]`` is ``Control+s``."""
    if not parts:
        raise ToolCallError("no key given")
    return "+".join(_key(p, combined=len(parts) > 1) for p in parts)


# ----- Anthropic's actions ----------------------------------------------------------


def _pair(args: dict[str, Any], field: str) -> tuple[float, float]:
    value = args.get(field)
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise ToolCallError(f"{field} must be [x, y], two numbers")
    return float(value[0]), float(value[1])


def _text(args: dict[str, Any], field: str = "text") -> str:
    value = args.get(field)
    if not isinstance(value, str):
        raise ToolCallError(f"{field} must be a string")
    return value


_CLICKS = {
    "left_click": (None, None),
    "right_click": ("right", None),
    "middle_click": ("middle", None),
    "double_click": (None, 2),
    "triple_click": (None, 3),
}
_UNSUPPORTED = ("left_mouse_down", "left_mouse_up", "hold_key", "cursor_position", "zoom")


def from_anthropic(args: dict[str, Any], screen: Screen) -> Native:
    """proctor's action for an Anthropic ``computer`` tool input.

    Raises:
        ToolCallError: naming what is wrong, for the model's repair turn.
    """
    action = args.get("action")
    if action == "screenshot":
        return LOOK
    if action in _CLICKS:
        if args.get("text"):
            raise ToolCallError(f"{action}: holding keys during a click is not supported")
        if args.get("coordinate") is None:
            raise ToolCallError(f"{action}: give the coordinate [x, y] to click at")
        x, y = screen.to_css(*_pair(args, "coordinate"))
        button, clicks = _CLICKS[action]
        return Click(x=x, y=y, mouse_button=button, clicks=clicks)
    if action == "mouse_move":
        x, y = screen.to_css(*_pair(args, "coordinate"))
        return Hover(x=x, y=y)
    if action == "left_click_drag":
        sx, sy = screen.to_css(*_pair(args, "start_coordinate"))
        ex, ey = screen.to_css(*_pair(args, "coordinate"))
        return Drag(start=Point(x=sx, y=sy), end=Point(x=ex, y=ey))
    if action == "type":
        return Type(text=_text(args))
    if action == "key":
        repeat = args.get("repeat")
        if repeat not in (None, 1):
            raise ToolCallError("key: repeat is not supported; call key once per press")
        return Press(key=playwright_keys(_text(args).split("+")))
    if action == "scroll":
        direction = args.get("scroll_direction")
        amount = args.get("scroll_amount", 3)
        if direction not in ("up", "down", "left", "right"):
            raise ToolCallError("scroll: scroll_direction is up, down, left or right")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            raise ToolCallError("scroll: scroll_amount is a whole number of clicks, at least 1")
        px = min(20000, amount * SCROLL_CLICK_PX)
        if args.get("coordinate") is None:
            return Scroll(direction=direction, amount=px)
        x, y = screen.to_css(*_pair(args, "coordinate"))
        return Scroll(direction=direction, amount=px, x=x, y=y)
    if action == "wait":
        duration = args.get("duration", 1)
        if not isinstance(duration, int | float) or duration <= 0:
            raise ToolCallError("wait: duration is seconds, more than 0")
        return Wait(ms=max(1, min(10000, round(duration * 1000))))
    if action in _UNSUPPORTED:
        raise ToolCallError(f"{action} is not supported here; click, type, key or scroll")
    raise ToolCallError(f"unknown computer action {action!r}")


# ----- OpenAI's actions -------------------------------------------------------------

_BUTTONS = {"left": None, "right": "right", "wheel": "middle"}


def _xy(action: dict[str, Any], screen: Screen) -> tuple[float, float]:
    x, y = action.get("x"), action.get("y")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y)):
        raise ToolCallError(f"{action.get('type')}: x and y must be numbers")
    return screen.to_css(float(x), float(y))  # type: ignore[arg-type]


def from_openai(action: dict[str, Any], screen: Screen) -> Native:
    """proctor's action for one OpenAI computer action (a ``computer_call``'s action).

    Raises:
        ToolCallError: naming what is wrong, for the model's repair turn.
    """
    kind = action.get("type")
    if kind == "screenshot":
        return LOOK
    if action.get("keys") and kind in ("click", "double_click", "move", "scroll", "drag"):
        raise ToolCallError(f"{kind}: holding keys during it is not supported")
    if kind == "click":
        button = action.get("button", "left")
        if button == "back":
            return Back()
        if button not in _BUTTONS:
            raise ToolCallError(f"click: button {button!r} is not supported")
        x, y = _xy(action, screen)
        return Click(x=x, y=y, mouse_button=_BUTTONS[button])
    if kind == "double_click":
        x, y = _xy(action, screen)
        return Click(x=x, y=y, clicks=2)
    if kind == "move":
        x, y = _xy(action, screen)
        return Hover(x=x, y=y)
    if kind == "drag":
        path = action.get("path")
        if not isinstance(path, list) or len(path) < 2:
            raise ToolCallError("drag: path needs at least two points")
        sx, sy = _xy({"type": "drag", **path[0]}, screen)
        ex, ey = _xy({"type": "drag", **path[-1]}, screen)
        return Drag(start=Point(x=sx, y=sy), end=Point(x=ex, y=ey))
    if kind == "keypress":
        keys = action.get("keys")
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise ToolCallError("keypress: keys is a list of key names")
        return Press(key=playwright_keys(keys))
    if kind == "type":
        return Type(text=_text(action))
    if kind == "scroll":
        x, y = _xy(action, screen)
        dx, dy = action.get("scroll_x", 0), action.get("scroll_y", 0)
        if not all(isinstance(v, int | float) for v in (dx, dy)) or (dx, dy) == (0, 0):
            raise ToolCallError("scroll: give scroll_x or scroll_y, in pixels")
        direction: ScrollDirection
        if abs(dy) >= abs(dx):
            direction = "down" if dy > 0 else "up"
            distance = abs(dy)
        else:
            direction = "right" if dx > 0 else "left"
            distance = abs(dx)
        amount = max(1, min(20000, round(distance / screen.factor)))
        return Scroll(direction=direction, amount=amount, x=x, y=y)
    if kind == "wait":
        return Wait(ms=OPENAI_WAIT_MS)
    raise ToolCallError(f"unknown computer action {kind!r}")


def translate(wire: WireFamily, arguments: str, screen: Screen) -> Native:
    """The action a native call's arguments (JSON text) ask for.

    Raises:
        ToolCallError: when they are not one.
    """
    try:
        value = json.loads(arguments or "{}")
    except json.JSONDecodeError as exc:
        raise ToolCallError(f"computer: arguments are not valid JSON ({exc.msg})") from exc
    if not isinstance(value, dict):
        raise ToolCallError("computer: arguments must be a JSON object")
    try:
        return from_anthropic(value, screen) if wire == "anthropic" else from_openai(value, screen)
    except ValueError as exc:  # an action model refused the values (pydantic)
        if isinstance(exc, ToolCallError):
            raise
        raise ToolCallError(f"computer: {exc}") from exc
