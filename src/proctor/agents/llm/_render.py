"""Prompt files and observation rendering.

The rules and the renderings are Jinja2 files (``prompts/default/*.md``), so a
variant is a folder holding any of them: calibration compares variants, and a
run picks one with the arm option ``+prompts=DIR``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from jinja2 import (
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    PackageLoader,
    StrictUndefined,
    TemplateError,
)

from proctor.computer.observation import Observation
from proctor.errors import AgentError
from proctor.records import Step

PROMPT_FILES = (
    "system",
    "computer",
    "task",
    "observation",
    "nudge",
    "planning",
    "plan",
    "judge_system",
    "judge",
    "persona_system",
    "persona",
    "review_system",
    "review",
)
"""The prompt files a variant may override (each ``NAME.md``)."""

MAX_SNAPSHOT_CHARS = 24_000


def render_observation(obs: Observation, max_chars: int = MAX_SNAPSHOT_CHARS) -> str:
    """The compact text form: url, title, tabs, focus, last error, aria snapshot with refs."""
    if len(obs.snapshot) > max_chars:
        cut = obs.snapshot[:max_chars].rsplit("\n", 1)[0]
        obs = dataclasses.replace(obs, snapshot=f"{cut}\n(snapshot cut at {max_chars} characters)")
    return obs.render()


MAX_DATA_CHARS = 6_000


def render_result(step: Step | None) -> str:
    """What the last action did: its status, output, error and any data it read."""
    if step is None:
        return ""
    lines = [f"{step.op}: {step.status}" + (f": {step.output}" if step.output else "")]
    if step.error:
        lines.append(f"error: {step.error}")
    if step.data is not None:
        data = step.data if isinstance(step.data, str) else json.dumps(step.data, default=str)
        if len(data) > MAX_DATA_CHARS:
            data = data[:MAX_DATA_CHARS] + f" (cut at {MAX_DATA_CHARS} characters)"
        lines.append(f"data: {data}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Prompts:
    """The prompt files: a variant folder's, falling back to the shipped ones."""

    folder: Path | None = None

    @cached_property
    def _env(self) -> Environment:
        loaders: list[Any] = []
        if self.folder is not None:
            if not self.folder.is_dir():
                raise AgentError(
                    f"prompt variant {self.folder}: no such folder; it holds any of "
                    + ", ".join(f"{n}.md" for n in PROMPT_FILES)
                )
            loaders.append(FileSystemLoader(str(self.folder)))
        loaders.append(PackageLoader("proctor.agents.llm", "prompts/default"))
        return Environment(
            loader=ChoiceLoader(loaders),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            autoescape=False,  # prompts are plain text, not HTML
        )

    def render(self, name: str, **context: Any) -> str:
        """``NAME.md`` rendered with ``context``.

        Raises:
            AgentError: naming the file and the template error.
        """
        try:
            return self._env.get_template(f"{name}.md").render(**context).strip()
        except TemplateError as exc:
            where = self.folder / f"{name}.md" if self.folder else f"prompts/default/{name}.md"
            raise AgentError(f"prompt {where}: {exc}") from exc

    @property
    def label(self) -> str:
        return self.folder.name if self.folder else "default"
