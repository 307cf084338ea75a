"""proctor schema: print the JSON Schema of scenario files."""

from __future__ import annotations

import typer

from proctor.scenario import scenario_schema_json


def schema() -> None:
    """Print the JSON Schema that scenario files follow."""
    typer.echo(scenario_schema_json())
