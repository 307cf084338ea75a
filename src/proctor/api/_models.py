"""The models API: two or more model arms in one run, side by side, then paired by scenario.

``proctor models`` goes through it, and so can a script::

    import asyncio, proctor
    picked = proctor.select_scenarios(tiers=["model"])
    specs = ["openai:gpt-4.1-mini", "anthropic:claude-sonnet-4-5"]
    compared = asyncio.run(proctor.models(specs, picked, proctor.RunSettings(repeat=3)))
    print(compared.paths.html, compared.run.exit_code)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from proctor.agents.llm import is_model_spec, parse_model_spec
from proctor.api._run import Run, RunOutcome
from proctor.api._settings import RunSettings
from proctor.compare import CANARY_ARM, ModelsComparison, compare_models, models_page
from proctor.errors import RunError
from proctor.report import ComparePaths, TablesPage, write_tables
from proctor.runner import ProgressHook
from proctor.scenario import LoadedScenario

NAME_MAX = 90
"""Characters of a derived arm name before its -2, -3 (a label holds 100)."""

_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def _derived(spec: str) -> str:
    """``gpt-4.1-mini`` for ``openai:gpt-4.1-mini``; ``-plan``/``-vision``/``-computer`` for
    those options."""
    config = parse_model_spec(spec)
    base = _NOT_IN_NAME.sub("-", config.model).strip("-._")[:NAME_MAX] or config.provider
    return (
        base
        + ("-plan" if config.planning else "")
        + ("-vision" if config.vision else "")
        + ("-computer" if config.computer else "")
    )


def arm_names(texts: Sequence[str]) -> list[tuple[str, str]]:
    """(name, spec) for each ``SPEC`` or ``NAME=SPEC``, in order.

    A ``NAME=`` is kept as given; otherwise the name is the spec's model id with what
    a label cannot hold as ``-`` (``qwen/qwen3`` -> ``qwen-qwen3``), then ``-plan``
    and ``-vision`` for those options, then ``-2``, ``-3`` for the second and third
    arm that would share it.

    Raises:
        RunError: a spec that names no model (naming it), an invalid model spec, or a
            name given twice.
    """
    given: list[tuple[str | None, str]] = []
    for text in texts:
        name, sep, spec = text.partition("=")
        if not sep or ":" in name:  # the "=" belongs to the spec (openai:m+temperature=0)
            name, spec = "", text
        spec = spec.strip()
        if not is_model_spec(spec):
            raise RunError(
                f"proctor models: {text!r} is not a model arm spec; give openai:MODEL, "
                "openai-compatible:MODEL@URL or anthropic:MODEL (options after +, NAME=SPEC "
                "to name the arm); other agents run with proctor run --arm"
            )
        parse_model_spec(spec)  # an invalid spec is refused here, naming it
        given.append((name.strip() or None, spec))
    explicit = [name for name, _ in given if name]
    twice = sorted({name for name in explicit if explicit.count(name) > 1})
    if twice:
        raise RunError(f"proctor models: arm name(s) {', '.join(twice)} given twice")
    taken = {*explicit, CANARY_ARM}
    out: list[tuple[str, str]] = []
    for named, spec in given:
        name = named or _derived(spec)
        if named is None:
            base, n = name, 1
            while name in taken:
                n += 1
                name = f"{base}-{n}"
            taken.add(name)
        out.append((name, spec))
    return out


@dataclass(frozen=True)
class ModelsOutcome:
    """A finished models run, its arms side by side and paired, and where that was written."""

    run: RunOutcome
    comparison: ModelsComparison
    page: TablesPage
    """The comparison as titled tables: what ``proctor models`` prints."""
    paths: ComparePaths
    """compare.md and compare.html in the run's folder."""

    @property
    def exit_code(self) -> int:
        return self.run.exit_code


@dataclass(frozen=True)
class Models:
    """A planned models run with its folder made; ``await models.execute()`` runs and
    compares it."""

    run: Run

    @classmethod
    def open(
        cls,
        specs: Sequence[str],
        scenarios: Sequence[LoadedScenario],
        settings: RunSettings | None = None,
    ) -> Models:
        """Name the arms (``arm_names``) and open one run of every arm (``Run.open``).

        Raises:
            RunError: a spec that names no model, a name given twice, fewer than two
                arms, or what ``Run.open`` refuses.
        """
        named = arm_names(specs)
        if len(named) < 2:
            raise RunError(
                f"proctor models needs at least two model arms, got {len(named)}; "
                "e.g. proctor models openai:gpt-4.1-mini anthropic:claude-sonnet-4-5"
            )
        settings = settings or RunSettings()
        settings = replace(settings, config={"command": "models", **settings.config})
        arms = [f"{name}={spec}" for name, spec in named]
        return cls(Run.open(scenarios, arms, settings))

    async def execute(self, progress: ProgressHook | None = None) -> ModelsOutcome:
        """Run every attempt (``Run.execute``), then compare the arms and write compare.md
        and compare.html into the run's folder."""
        outcome = await self.run.execute(progress)
        arms = {a.name: a.spec for a in self.run.arms}
        comparison = compare_models(
            outcome.folder.label, outcome.records, arms, self.run.settings.repeat
        )
        page = models_page(comparison)
        paths = write_tables(outcome.folder.path, page)
        return ModelsOutcome(outcome, comparison, page, paths)


async def models(
    specs: Sequence[str],
    scenarios: Sequence[LoadedScenario],
    settings: RunSettings | None = None,
    *,
    progress: ProgressHook | None = None,
) -> ModelsOutcome:
    """Run model arms on the same scenarios in one run, then compare them side by side:
    ``Models.open`` then ``Models.execute``.

    One plan over every arm, the arm order rotating by repeat. Each spec is ``SPEC`` or
    ``NAME=SPEC``; an unnamed arm is named by its model id (``arm_names``).
    """
    return await Models.open(specs, scenarios, settings).execute(progress)
