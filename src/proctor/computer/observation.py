"""What an agent sees of the computer after each call."""

from __future__ import annotations

from dataclasses import dataclass, field

from proctor.vocab import Surface


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

    def render(self) -> str:
        """A compact text form for prompts and logs."""
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
        lines.append("outline:" if self.surface == "desktop" else "snapshot:")
        lines.append(self.snapshot)
        return "\n".join(lines)
