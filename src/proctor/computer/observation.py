"""What an agent sees of the computer after each call."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TabInfo:
    """One open tab."""

    index: int
    url: str
    title: str


@dataclass(frozen=True)
class Observation:
    """The observed page and the browser around it.

    Attributes:
        url: URL of the active tab.
        title: Title of the active tab.
        tabs: Every open tab, in opening order.
        active: Index of the active (observed) tab.
        snapshot: Aria snapshot of the active tab, with ``[ref=eN]`` refs.
        focused: Short description of the focused element, if any.
        error: The last action's error, if it failed.
    """

    url: str
    title: str
    tabs: tuple[TabInfo, ...]
    active: int
    snapshot: str
    focused: str | None = None
    error: str | None = None
    notes: tuple[str, ...] = field(default=())

    def render(self) -> str:
        """A compact text form for prompts and logs."""
        lines = [f"url: {self.url}", f"title: {self.title}"]
        if len(self.tabs) > 1:
            tabs = ", ".join(
                f"[{t.index}{'*' if t.index == self.active else ''}] {t.title or t.url}"
                for t in self.tabs
            )
            lines.append(f"tabs: {tabs}")
        if self.focused:
            lines.append(f"focused: {self.focused}")
        if self.error:
            lines.append(f"last error: {self.error}")
        lines.extend(f"note: {n}" for n in self.notes)
        lines.append("snapshot:")
        lines.append(self.snapshot)
        return "\n".join(lines)
