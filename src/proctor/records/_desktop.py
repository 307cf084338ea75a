"""The desktop at the end of an attempt: each app, its windows and their controls."""

from __future__ import annotations

from pydantic import Field

from proctor.records._record import Record


class DesktopControl(Record):
    """One control of a desktop app's window at the end of an attempt (from its outline)."""

    window: str = Field(description="The title of the window it is in.")
    role: str = Field(description="Its AT-SPI role, e.g. push button, text.")
    name: str = Field(default="", description="Its accessible name.")
    value: str | None = Field(
        default=None, description="Its whole text (editable text) or value; None otherwise."
    )
    states: list[str] = Field(default_factory=list)


class DesktopAppState(Record):
    """One app of the attempt's desktop at its end: alive, its windows and their controls."""

    name: str = Field(description="The app's name in the scenario, e.g. calc.")
    command: list[str] = Field(default_factory=list)
    alive: bool
    windows: list[str] = Field(default_factory=list, description="Its windows' titles.")
    controls: list[DesktopControl] = Field(default_factory=list)


class DesktopState(Record):
    """The desktop at the end of an attempt: each app's state, and who had the keyboard."""

    apps: list[DesktopAppState] = Field(default_factory=list)
    frontmost: str | None = Field(
        default=None, description="The app whose window had the keyboard, if any."
    )

    def app(self, name: str) -> DesktopAppState | None:
        return next((a for a in self.apps if a.name == name), None)
