"""The JSON Schema of a scenario file."""

from __future__ import annotations

import json
from typing import Any

from proctor.scenario._spec import Scenario


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) that scenario files follow."""
    schema = Scenario.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "proctor scenario"
    return schema


def scenario_schema_json() -> str:
    return json.dumps(scenario_schema(), indent=2)
