"""What an agent sees of the computer after each call."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from proctor.vocab import Surface

USER_NOTE = "message from the user: "
"""How a note that carries the user's words starts (``Observation.notes``)."""


@dataclass(frozen=True)
class TabInfo:
    """One open tab."""

    index: int
    url: str
    title: str


@dataclass(frozen=True)
class Observation:
    """The observed page and the browser around it, or the observed window and its desktop.

    On a desktop (``surface="desktop"``) the same fields hold the desktop's
    facts: ``url`` is ``app:<name>`` of the app observed, ``title`` its window's
    title, ``tabs`` every window of the attempt's apps (``url`` = the app's name),
    ``active`` the observed window's index and ``snapshot`` its accessibility
    outline with ``[ref=dN]`` refs.

    Attributes:
        url: URL of the active tab.
        title: Title of the active tab.
        tabs: Every open tab, in opening order.
        active: Index of the active (observed) tab.
        snapshot: Aria snapshot of the active tab, with ``[ref=eN]`` refs.
        focused: Short description of the focused element, if any.
        error: The last action's error, if it failed.
        surface: What was observed: a browser or a desktop.
        frontmost: On a desktop, the window with the keyboard, when it is not the observed one.
    """

    url: str
    title: str
    tabs: tuple[TabInfo, ...]
    active: int
    snapshot: str
    focused: str | None = None
    error: str | None = None
    notes: tuple[str, ...] = field(default=())
    surface: Surface = "browser"
    frontmost: str | None = None

    def render(self, *, outline: bool = True) -> str:
        """A compact text form for prompts and logs; without the snapshot (or the desktop's
        outline) when ``outline`` is False, for agents that see the screen instead."""
        marked = [
            f"[{t.index}{'*' if t.index == self.active else ''}] "
            + (f"{t.url}: {t.title}" if self.surface == "desktop" else t.title or t.url)
            for t in self.tabs
        ]
        if self.surface == "desktop":
            lines = [f"app: {self.url.removeprefix('app:')}", f"window: {self.title}"]
            if len(self.tabs) > 1:
                lines.append(f"windows: {', '.join(marked)}")
            if self.frontmost:
                lines.append(
                    f"frontmost: {self.frontmost} (it has the keyboard; key and type go there)"
                )
        else:
            lines = [f"url: {self.url}", f"title: {self.title}"]
            if len(self.tabs) > 1:
                lines.append(f"tabs: {', '.join(marked)}")
        if self.focused:
            lines.append(f"focused: {self.focused}")
        if self.error:
            lines.append(f"last error: {self.error}")
        lines.extend(f"note: {n}" for n in self.notes)
        if outline:
            lines.append("outline:" if self.surface == "desktop" else "snapshot:")
            lines.append(self.snapshot)
        return "\n".join(lines)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's (width, height) in pixels, read from its IHDR chunk.

    Raises:
        ValueError: the bytes are not a PNG.
    """
    if len(png) < 24 or not png.startswith(PNG_SIGNATURE) or png[12:16] != b"IHDR":
        raise ValueError("not a PNG image (no PNG signature and IHDR chunk)")
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


@dataclass(frozen=True)
class Capture:
    """A screenshot the agent asked for, and the space its coordinates live in.

    Attributes:
        png: The PNG: the browser's viewport, or the desktop's whole screen.
        width: Width of the space x,y are given in: the viewport in CSS pixels (browser),
            the screen in pixels (desktop).
        height: Height of that space.
        png_width: Width of the PNG in pixels (``width`` times the device scale).
        png_height: Height of the PNG in pixels.
        surface: What was captured: a browser's viewport or a desktop's screen.
    """

    png: bytes
    width: int
    height: int
    png_width: int
    png_height: int
    surface: Surface = "browser"

    @property
    def scale(self) -> float:
        """PNG pixels per CSS pixel (1.0 unless the display is scaled)."""
        return self.png_width / self.width if self.width else 1.0
