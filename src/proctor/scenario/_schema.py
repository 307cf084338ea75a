"""The JSON Schema of a scenario file."""

from __future__ import annotations

import copy
import json
from typing import Any

from proctor.scenario._spec import Scenario
from proctor.vocab import STEP_EXPECTS

EXPECT_STEP = {
    "enum": list(STEP_EXPECTS),
    "description": "How this decoy step is expected to end when replayed (decoy steps only): "
    "error (it fails) or refused (the harness will not run it). Any other step must run ok.",
}
EXPECT_ERROR_STEP = {
    "type": "boolean",
    "default": False,
    "description": "The older spelling of `expect: error` (decoy steps only).",
}


def _decoy_steps(schema: dict[str, Any]) -> None:
    """Let decoy steps, and only they, carry ``expect`` (or ``expect_error``): the loader
    takes it off.

    Each action's definition forbids other keys, so decoy steps get copies of the
    definitions (``DecoyStepClick``, ...) with the marker added.
    """
    defs = schema["$defs"]
    items = defs["Decoy"]["properties"]["steps"]["items"]
    renamed: dict[str, str] = {}
    for member in items["oneOf"]:
        ref = member["$ref"]
        name = ref.rsplit("/", 1)[1]
        step = copy.deepcopy(defs[name])
        step["properties"]["expect"] = EXPECT_STEP
        step["properties"]["expect_error"] = EXPECT_ERROR_STEP
        defs[f"DecoyStep{name}"] = step
        renamed[ref] = f"#/$defs/DecoyStep{name}"
    items["oneOf"] = [{"$ref": renamed[m["$ref"]]} for m in items["oneOf"]]
    mapping = items["discriminator"]["mapping"]
    items["discriminator"]["mapping"] = {op: renamed[ref] for op, ref in mapping.items()}


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) that scenario files follow."""
    schema = Scenario.model_json_schema(mode="validation")
    _decoy_steps(schema)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "proctor scenario"
    return schema


def scenario_schema_json() -> str:
    return json.dumps(scenario_schema(), indent=2)
