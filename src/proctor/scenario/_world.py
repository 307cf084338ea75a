"""The world a scenario's attempt starts from: sites, files, folders, app seeds, the
browser, a desktop, a MiniWoB++ task, or public hosts."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from proctor.scenario._apps import Apps
from proctor.scenario._desktop import DesktopWorld
from proctor.scenario._files import (
    FileContent,
    Generated,
    ScratchPath,
    TreeEntry,
    parse_tree,
    tree_entries,
)
from proctor.scenario._live import LiveWorld
from proctor.scenario._miniwob import MiniwobWorld


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Viewport(_Spec):
    width: int = Field(default=1280, ge=200, le=4000)
    height: int = Field(default=800, ge=200, le=4000)


class BrowserWorld(_Spec):
    """The browser the agent gets."""

    start: str | None = Field(default=None, description="URL opened before the agent starts.")
    deny_origins: list[str] = Field(
        default_factory=list,
        description="Origins (scheme://host) the browser refuses to navigate to.",
    )
    viewport: Viewport = Field(default_factory=Viewport)
    allow_schemes: list[Literal["data", "blob"]] = Field(
        default_factory=list,
        description="Non-http schemes the agent's pages may open (data:, blob:); every "
        "other scheme (javascript:, file:, chrome:, ...) is always refused.",
    )


class FileSeed(_Spec):
    """A file (or a folder tree) written into the scratch folder before the attempt starts.

    Give exactly one of ``text``, ``base64``, ``generate`` or ``tree``. A tree's
    ``path`` is its root folder; inside it, ``name: {text|base64|generate}`` is
    a file and ``name/: {...}`` a sub-folder.
    """

    path: ScratchPath = Field(
        description="Path relative to the scratch folder (no leading /, no .., no backslash)."
    )
    text: str | None = Field(default=None, description="UTF-8 content.")
    base64: str | None = Field(default=None, description="Binary content, base64.")
    generate: Generated | None = Field(
        default=None,
        description="Content built by a builder: text_lines, rich_text (html|rtf), pdf or csv.",
    )
    tree: dict[str, Any] | None = Field(
        default=None,
        description="A folder: name -> {text|base64|generate} for files, name/ -> {...} "
        "for sub-folders.",
    )

    @field_validator("tree")
    @classmethod
    def _tree(cls, tree: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if tree is None else parse_tree(tree)

    @model_validator(mode="after")
    def _one(self) -> FileSeed:
        given = (self.text, self.base64, self.generate, self.tree)
        if sum(v is not None for v in given) != 1:
            raise ValueError("give exactly one of text, base64, generate or tree")
        return self

    def entries(self) -> list[TreeEntry]:
        """What this seed writes: (path, content) per file, (path, None) per folder."""
        root = self.path.rstrip("/")
        if self.tree is None:
            content = FileContent(text=self.text, base64=self.base64, generate=self.generate)
            return [(root, content)]
        return [(root, None), *tree_entries(self.tree, root + "/")]


class World(_Spec):
    """The known state an attempt starts from."""

    sites: list[str] = Field(default_factory=list, description="Fixture sites this task uses.")
    files: list[FileSeed] = Field(default_factory=list)
    dirs: list[ScratchPath] = Field(
        default_factory=list,
        description="Empty folders to create, relative to the scratch folder.",
    )
    apps: Apps = Field(
        default_factory=Apps,
        description="Seeds of the fake apps (mail, calendar, sheets, chat); each app is a site.",
    )
    browser: BrowserWorld = Field(default_factory=BrowserWorld)
    desktop: DesktopWorld | None = Field(
        default=None,
        description="Desktop apps to drive instead of a browser (the desktop surface).",
    )
    miniwob: MiniwobWorld | None = Field(
        default=None,
        description="A MiniWoB++ task and seed, served by the miniwob site (list it in sites).",
    )
    live: LiveWorld | None = Field(
        default=None,
        description="The public hosts a live scenario's browser may reach (tier: live only); "
        "its world is those sites, not the fixture world.",
    )
    seed: int = Field(default=0, description="Seed for any randomness in the world.")

    def site_seeds(self) -> dict[str, Any]:
        """What the sites read as their seeds (``AttemptWorld.seeds``): each app's seed,
        and the peer suite's task (``miniwob``)."""
        seeds: dict[str, Any] = dict(self.apps)
        if self.miniwob is not None:
            seeds["miniwob"] = self.miniwob
        return seeds

    @model_validator(mode="after")
    def _miniwob_site(self) -> World:
        if self.miniwob is not None and "miniwob" not in self.sites:
            raise ValueError("world.miniwob needs the miniwob site: add miniwob to world.sites")
        return self

    @model_validator(mode="after")
    def _live_alone(self) -> World:
        if self.live is None:
            return self
        other = [
            name
            for name, used in (
                ("world.sites", bool(self.sites)),
                ("world.desktop", self.desktop is not None),
                ("world.miniwob", self.miniwob is not None),
            )
            if used
        ]
        if other:
            raise ValueError(
                f"world.live is a world of public hosts; drop {', '.join(other)} "
                "(a live attempt's browser does not reach the fixture world)"
            )
        return self

    @model_validator(mode="after")
    def _apps_are_sites(self) -> World:
        missing = [name for name in self.apps.seeded() if name not in self.sites]
        if missing:
            raise ValueError(
                f"world.apps seeds {', '.join(missing)} but world.sites does not list "
                f"{'it' if len(missing) == 1 else 'them'}: add {', '.join(missing)} to world.sites"
            )
        return self
