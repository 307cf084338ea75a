"""scenario.md: every block of a scenario file, from the ``Scenario`` model down."""

from __future__ import annotations

from pydantic import BaseModel

from proctor.cli._reference._tables import (
    model_section,
    page,
    reachable,
)
from proctor.computer import ACTION_TYPES
from proctor.scenario import (
    CHECK_ARGS,
    CHECK_MODELS,
    CheckArgs,
    Scenario,
)


def scenario_page() -> str:
    """Every block of a scenario file, from the ``Scenario`` model down."""
    stop: frozenset[type[BaseModel]] = frozenset(
        {*CHECK_MODELS.values(), *CHECK_ARGS.values(), CheckArgs, *ACTION_TYPES.values()}
    )
    models = reachable([Scenario], stop=stop)
    body = ["## Contents", "", "- [Scenario](#scenario)"]
    body += [f"- [{m.__name__}](#{m.__name__.lower()})" for m in models]
    body += ["", *model_section(Scenario, "##")]
    for model in models:
        body += model_section(model, "##")
    intro = (
        "Every field of a scenario file, from the top (`Scenario`) down: the world "
        "(`World`, its sites' seeds under `Apps`, the desktop and live worlds), the simulated "
        "user (`User`), the timeline (`PlayEvent`), limits, decoys and judge criteria. "
        "Checks are in [checks.md](checks.md) and steps in [actions.md](actions.md); "
        "[the scenarios guide](../scenarios.md) shows how they fit together. "
        "`proctor schema` prints the same as a JSON Schema."
    )
    return page("Scenario files", intro, body)
