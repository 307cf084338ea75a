"""The desktop part of a scenario's world: its apps, the one it starts in, a focus thief."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proctor.computer.actions import Action


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DesktopApp(_Spec):
    """One app the attempt launches, in fresh HOME and XDG folders under its scratch."""

    name: str = Field(
        pattern=r"^[a-z][a-z0-9-]*$",
        description="How actions (activate app:) and checks name it, e.g. calc.",
    )
    command: list[str] = Field(
        min_length=1,
        description="The program and its arguments; placeholders allowed, e.g. "
        "[mousepad, '{scratch}/note.txt'].",
    )
    env: dict[str, str] = Field(default_factory=dict, description="Extra environment for it.")
    setup: list[Action] = Field(
        default_factory=list,
        description="Desktop actions run on it before the agent starts, unrecorded: the "
        "state it starts from (e.g. a previous entry on a calculator).",
    )

    @model_validator(mode="after")
    def _desktop_setup(self) -> DesktopApp:
        wrong = [s.op for s in self.setup if "desktop" not in type(s).surfaces]
        if wrong:
            raise ValueError(
                f"setup of {self.name}: {', '.join(wrong)} is not a desktop action; "
                "use press, set_value, type, key or activate"
            )
        return self


class StealFocus(_Spec):
    """Another app takes the keyboard after the agent's Nth action, as a person's click would."""

    app: str = Field(description="The app whose window comes to the front.")
    after: int = Field(ge=1, description="After this many of the agent's actions.")


class DesktopWorld(_Spec):
    """The desktop an attempt runs on: the apps, launched in order."""

    apps: list[DesktopApp] = Field(min_length=1, max_length=4)
    start: str | None = Field(
        default=None, description="The app the agent starts in (observes); default: the first."
    )
    steal_focus: StealFocus | None = Field(
        default=None, description="Another app takes the keyboard mid-run."
    )

    @model_validator(mode="after")
    def _names(self) -> DesktopWorld:
        names = [a.name for a in self.apps]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"app names must be distinct: {', '.join(twice)} is used twice")
        wanted = [("start", self.start)]
        if self.steal_focus is not None:
            wanted.append(("steal_focus.app", self.steal_focus.app))
        for where, name in wanted:
            if name is not None and name not in names:
                raise ValueError(f"{where} names {name!r}, which is not an app: {', '.join(names)}")
        return self
