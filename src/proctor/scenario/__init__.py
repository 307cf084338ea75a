"""Scenarios: the schema, the YAML loader with placeholders, the catalog and the JSON Schema."""

from proctor.scenario._apps import Apps, When, anchor
from proctor.scenario._catalog import SUITE_ROOT, Catalog, load_catalog, scenario_files
from proctor.scenario._checks import (
    CHECK_MODELS,
    CHECK_TYPES,
    CheckSpec,
    check_args,
    check_kind,
    check_name,
)
from proctor.scenario._loader import LoadedScenario, Problem, load_scenario, problems_in
from proctor.scenario._placeholders import resolve, substitute
from proctor.scenario._schema import scenario_schema, scenario_schema_json
from proctor.scenario._spec import (
    BrowserWorld,
    Decoy,
    FileSeed,
    JudgeCriterion,
    Limits,
    Scenario,
    World,
)
from proctor.scenario._user import (
    ApprovalRule,
    Intent,
    ScriptedAnswer,
    SteeringMessage,
    User,
    VaultItem,
)
from proctor.scenario._yaml import dump_scenario
from proctor.vocab import TIERS

__all__ = [
    "CHECK_MODELS",
    "CHECK_TYPES",
    "SUITE_ROOT",
    "TIERS",
    "ApprovalRule",
    "Apps",
    "BrowserWorld",
    "Catalog",
    "CheckSpec",
    "Decoy",
    "FileSeed",
    "Intent",
    "JudgeCriterion",
    "Limits",
    "LoadedScenario",
    "Problem",
    "Scenario",
    "ScriptedAnswer",
    "SteeringMessage",
    "User",
    "VaultItem",
    "When",
    "World",
    "anchor",
    "check_args",
    "check_kind",
    "check_name",
    "dump_scenario",
    "load_catalog",
    "load_scenario",
    "problems_in",
    "resolve",
    "scenario_files",
    "scenario_schema",
    "scenario_schema_json",
    "substitute",
]
